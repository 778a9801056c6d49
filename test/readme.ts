// Code blocks of the README and the docs that tests run as written. Mark a fenced block with an HTML
// comment on the line before it, `<!-- readme-test: NAME -->` (invisible on GitHub and npm), then run
// `readmeBlock('NAME')` in a test, with the name written out (test/readme.test.ts checks that every
// marked block is run by some test, by looking for that call). A name is unique across every page.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Not `new URL('..', import.meta.url)`: under a DOM test environment Vite rewrites that form against the page's location.
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const MARKED = /<!-- readme-test: ([\w./-]+) -->\r?\n```[\w-]*\r?\n([\s\S]*?)\r?\n```/g;

/** The pages whose blocks are run and whose links are checked: README.md, every docs/**\/*.md, bench/README.md. */
export function docPages(): string[] {
  const docs = readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file.split('\\').join('/')}`)
    .sort();
  return ['README.md', ...docs, 'bench/README.md'];
}

/** The text of a page, by its path from the repository's root. */
export const readPage = (page: string): string => readFileSync(join(root, page), 'utf8');

/** Every marked block, by name, in page order, of `pages` (`[path, text]`; every page of `docPages()` by default). */
export function readmeBlocks(pages: [string, string][] = docPages().map((page) => [page, readPage(page)])): Map<string, string> {
  const blocks = new Map<string, string>();
  const where = new Map<string, string>();
  for (const [page, text] of pages) {
    for (const [, name, code] of text.matchAll(MARKED)) {
      const first = where.get(name!);
      if (first !== undefined)
        throw new Error(`two blocks are marked "${name}": ${first === page ? `both in ${page}` : `in ${first} and in ${page}`}`);
      blocks.set(name!, `${code}\n`);
      where.set(name!, page);
    }
  }
  return blocks;
}

/** The code of one marked block, as its page shows it. */
export function readmeBlock(name: string): string {
  const code = readmeBlocks().get(name);
  if (code === undefined) throw new Error(`no page (${docPages().join(', ')}) has a block marked <!-- readme-test: ${name} -->`);
  return code;
}
