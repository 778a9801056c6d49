// README code blocks that tests run as written (README.md's and those of the pages in docs/). Mark a
// fenced block with an HTML comment on the line before it, `<!-- readme-test: NAME -->` (invisible on
// GitHub and npm), then run `readmeBlock('NAME')` in a test, with the name written out
// (test/readme.test.ts checks that every marked block is run by some test, by looking for that call).
import { readdirSync, readFileSync } from 'node:fs';

const README = new URL('../README.md', import.meta.url);
const DOCS = new URL('../docs/', import.meta.url);

/** README.md and every page of docs/, as text. */
export const documents = (): string[] =>
  [README, ...readdirSync(DOCS).filter((f) => f.endsWith('.md')).sort().map((f) => new URL(f, DOCS))].map((url) => readFileSync(url, 'utf8'));
const MARKED = /<!-- readme-test: ([\w./-]+) -->\r?\n```[\w-]*\r?\n([\s\S]*?)\r?\n```/g;

/** Every marked block, by name, in README order, then the docs pages'. */
export function readmeBlocks(text = documents().join('\n')): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const [, name, code] of text.matchAll(MARKED)) {
    if (blocks.has(name!)) throw new Error(`README marks two blocks "${name}"`);
    blocks.set(name!, `${code}\n`);
  }
  return blocks;
}

/** The code of one marked block, as the README shows it. */
export function readmeBlock(name: string): string {
  const code = readmeBlocks().get(name);
  if (code === undefined) throw new Error(`README has no block marked <!-- readme-test: ${name} -->`);
  return code;
}
