// Counts test cases and assertions in e2e/ and test/, per directory, so that a move of tests (issue 27:
// each scenario once) can show that no assertion was lost: `node scripts/count-assertions.mjs [--json]`.
// A count of the source text, not of a run: a helper that defines tests for several settings (a suite
// function called per React version) counts once, as it is written once.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const ROOTS = ['e2e', 'test'];
const SOURCE = /\.(?:ts|tsx|mjs|js)$/;
const PATTERNS = {
  // test('…', …), it('…', …), and their .only/.skip/.fixme/.fail variants: a case with a title.
  tests: /\b(?:test|it)(?:\.(?:only|skip|fixme|fail|concurrent))?\(\s*['"`]/g,
  // expect(…), expect.poll(…), expect.soft(…): one assertion each, however many matchers follow.
  expect: /\bexpect(?:\.(?:poll|soft))?\(/g,
  // node:assert's assert(…) and assert.xxx(…).
  assert: /\bassert(?:\.\w+)?\(/g,
  // Matchers, chained or not: .toBe(…), .toEqual(…), .toHaveURL(…), .not.toThrow(…).
  matchers: /\.to[A-Z]\w*\(/g,
};

const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (SOURCE.test(name)) files.push(path);
  }
};
for (const root of ROOTS) walk(root);

const rows = new Map();
for (const file of files) {
  // Comments name tests and matchers in prose: only code counts.
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('//'))
    .join('\n');
  const dir = relative('.', file).split(sep).slice(0, -1).join('/');
  const row = rows.get(dir) ?? { dir, files: 0, tests: 0, expect: 0, assert: 0, matchers: 0 };
  row.files += 1;
  for (const [key, pattern] of Object.entries(PATTERNS)) row[key] += text.match(pattern)?.length ?? 0;
  rows.set(dir, row);
}

const sorted = [...rows.values()].sort((a, b) => a.dir.localeCompare(b.dir));
const total = { dir: 'total', files: 0, tests: 0, expect: 0, assert: 0, matchers: 0 };
for (const row of sorted) for (const key of Object.keys(total)) if (key !== 'dir') total[key] += row[key];
for (const row of [...sorted, total]) row.assertions = row.expect + row.assert;

if (process.argv.includes('--json')) {
  console.log(JSON.stringify([...sorted, total], null, 2));
} else {
  const columns = ['files', 'tests', 'assertions', 'expect', 'assert', 'matchers'];
  const width = Math.max(...sorted.map((r) => r.dir.length), 5);
  console.log(`${'dir'.padEnd(width)}  ${columns.map((c) => c.padStart(11)).join('')}`);
  for (const row of [...sorted, total])
    console.log(`${row.dir.padEnd(width)}  ${columns.map((c) => String(row[c]).padStart(11)).join('')}`);
}
