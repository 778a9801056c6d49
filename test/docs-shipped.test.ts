// The pages the package ships (package.json "files": README.md and docs/*.md but architecture.md) are read
// where the package is installed, which holds no src/, test/ or e2e/: a path of those in them leads nowhere
// unless it is a link to the repository's web address (package.json "repository", the one place for it).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { docPages, readPage } from './readme';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  files: string[];
  repository?: { url?: string };
};

/** The repository's web address, from package.json's `repository.url` (`git+https://host/owner/name.git`). */
export const repositoryWeb = (pkg.repository?.url ?? '').replace(/^git\+/, '').replace(/\.git$/, '');

/** The pages of `docPages()` that `files` ships. */
function shippedPages(): string[] {
  const included = (page: string) =>
    pkg.files.reduce((kept, pattern) => {
      const negated = pattern.startsWith('!');
      const glob = negated ? pattern.slice(1) : pattern;
      const match =
        glob === page || (glob.endsWith('/*.md') && page.startsWith(glob.slice(0, -4)) && !page.slice(glob.length - 4).includes('/'));
      return match ? !negated : kept;
    }, false);
  return docPages().filter(included);
}

/**
 * The `src/`, `test/` and `e2e/` paths of a page that are not a link into the repository's web address.
 * Fenced blocks are the merchant's own code, where `src/` is the merchant's folder: not read.
 */
export function strayPaths(markdown: string, web = repositoryWeb): string[] {
  markdown = markdown.replace(/^```[\s\S]+?^```/gm, '');
  const linked = new RegExp(`\\[[^\\]]*\\]\\(${web.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/[^)\\s]*\\)`, 'g');
  return [...markdown.replace(linked, '').matchAll(/(?<![\w.\-/])(?:src|test|e2e)\/[\w./-]*/g)].map((m) => m[0]);
}

describe('the pages the package ships', () => {
  it('the repository has one web address, an https one', () => {
    expect(repositoryWeb).toMatch(/^https:\/\/[^/]+\/[^/]+\/[^/]+$/);
  });

  it('are README.md and docs/*.md but architecture.md', () => {
    const pages = shippedPages();
    expect(pages).toContain('README.md');
    expect(pages).toContain('docs/hosted-form.md');
    expect(pages).not.toContain('docs/architecture.md');
    expect(pages).not.toContain('bench/README.md');
  });

  it('name no src/, test/ or e2e/ path but as a link to the repository', () => {
    const stray = Object.fromEntries(
      shippedPages()
        .map((page) => [page, strayPaths(readPage(page))] as const)
        .filter(([, paths]) => paths.length > 0),
    );
    expect(stray).toEqual({});
  });

  it('tell a linked path from a bare one', () => {
    const web = 'https://code.example/team/payframe';
    expect(strayPaths('see `src/frame/page.ts` and e2e/x.spec.ts', web)).toEqual(['src/frame/page.ts', 'e2e/x.spec.ts']);
    expect(strayPaths(`see [\`src/frame/page.ts\`](${web}/blob/main/src/frame/page.ts)`, web)).toEqual([]);
    expect(strayPaths(`a link elsewhere: [src/a.ts](https://other.example/src/a.ts)`, web)).toEqual(['src/a.ts']);
    expect(strayPaths("frame-src 'self'; img-src/ no; the demo's web/src/ folder", web)).toEqual([]);
    expect(strayPaths('```js\n// src/main.tsx: your app\n```\n', web)).toEqual([]);
  });
});
