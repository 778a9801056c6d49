// The mechanism that runs the code blocks of the README and the docs: every marked block is well formed
// and run by a test.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docPages, readmeBlocks, readPage } from './readme';

const root = new URL('..', import.meta.url).pathname;
const testSources = ['test', 'e2e'].flatMap((dir) =>
  readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(?:spec|test|flow)\.ts$/.test(file)) // the engines' flows (e2e/engines/*.flow.ts) are tests too
    .map((file) => readFileSync(join(root, dir, file), 'utf8')),
);

describe('README and docs code blocks run by tests', () => {
  it('reads the README, every docs page and the benchmark report', () => {
    const pages = docPages();
    expect(pages).toContain('README.md');
    expect(pages).toContain('bench/README.md');
    expect(pages.filter((page) => page.startsWith('docs/')).length).toBeGreaterThan(0);
  });

  it('finds the marked blocks of every page, each followed by its fence', () => {
    const markers = docPages().flatMap((page) => readPage(page).match(/^<!-- readme-test: .*-->$/gm) ?? []);
    expect(readmeBlocks().size).toBe(markers.length);
    expect(readmeBlocks().size).toBeGreaterThan(0);
  });

  it('runs every marked block in some test', () => {
    const unused = [...readmeBlocks().keys()].filter((name) => !testSources.some((source) => source.includes(`readmeBlock('${name}')`)));
    expect(unused).toEqual([]);
  });

  it('reads a block as written, and refuses a name marked twice, on one page or on two', () => {
    const text = '<!-- readme-test: a -->\n```js\nconsole.log(1);\n```\n';
    expect(readmeBlocks([['README.md', text]]).get('a')).toBe('console.log(1);\n');
    expect(() => readmeBlocks([['README.md', text + text]])).toThrow('two blocks are marked "a": both in README.md');
    expect(() =>
      readmeBlocks([
        ['README.md', text],
        ['docs/x.md', text],
      ]),
    ).toThrow('two blocks are marked "a": in README.md and in docs/x.md');
  });
});
