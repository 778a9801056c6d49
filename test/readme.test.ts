// The mechanism that runs the README's code blocks: every marked block is well formed and run by a test.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documents, readmeBlocks } from './readme';

const root = new URL('..', import.meta.url).pathname;
const testSources = ['test', 'e2e'].flatMap((dir) =>
  readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(spec|test)\.ts$/.test(file))
    .map((file) => readFileSync(join(root, dir, file), 'utf8')),
);

describe('README code blocks run by tests', () => {
  it('finds the marked blocks, each followed by its fence', () => {
    const markers = documents().join('\n').match(/^<!-- readme-test: .*-->$/gm) ?? [];
    expect(readmeBlocks().size).toBe(markers.length);
    expect(readmeBlocks().size).toBeGreaterThan(0);
  });

  it('runs every marked block in some test', () => {
    const unused = [...readmeBlocks().keys()].filter((name) => !testSources.some((source) => source.includes(`readmeBlock('${name}')`)));
    expect(unused).toEqual([]);
  });

  it('reads a block as written, and refuses a name marked twice', () => {
    const text = '<!-- readme-test: a -->\n```js\nconsole.log(1);\n```\n';
    expect(readmeBlocks(text).get('a')).toBe('console.log(1);\n');
    expect(() => readmeBlocks(text + text)).toThrow(/two blocks "a"/);
  });
});
