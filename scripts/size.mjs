// Prints the minified, gzip (-9) and brotli size of each built browser file, and of ESM apps that
// import parts of `payframe` from dist/, tree-shaken as a merchant's bundler would (`npm run size`,
// after `npm run build`). The apps are built as `npm run bench` builds them (bench/bundle.mjs).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CEILINGS, measure } from '../bench/budget.mjs';
import { appOf, buildApp, sizes } from '../bench/bundle.mjs';

const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.m?js$/.test(name)) files.push(path);
  }
};
try {
  walk('dist');
} catch {
  console.error('dist/ is missing: run `npm run build` first.');
  process.exit(1);
}

const print = (rows) => {
  const width = Math.max(...rows.map((r) => r.file.length));
  const columns = ['bytes', 'gzip', 'brotli'];
  console.log(`${'file'.padEnd(width)}  ${columns.map((c) => c.padStart(8)).join('  ')}  lazy`);
  for (const r of rows) console.log(`${r.file.padEnd(width)}  ${columns.map((c) => String(r[c]).padStart(8)).join('  ')}  ${r.lazy ?? ''}`);
};
print(files.sort().map((file) => ({ file, ...sizes(readFileSync(file)) })));

const apps = [
  ['createClient'],
  ['mountFields'],
  ['mountFields', 'handlePending'],
  ['createClient', 'mountFields', 'handlePending'],
  ['createClient', 'attachForm'],
  ['handlePending', 'readReturn'],
  // <payframe-card-fields>: createClient and mountFields, and the element around them.
  ['createClient', 'mountFields'],
  [['defineElements'], 'payframe/element'],
];
const rows = [];
for (const wanted of apps) {
  const [names, from] = typeof wanted[0] === 'string' ? [wanted, 'payframe'] : wanted;
  const app = await buildApp(appOf(names, from));
  rows.push({
    file: `app: ${names.join(' + ')}${from === 'payframe' ? '' : ` (${from})`}`,
    ...sizes(app.eager),
    lazy: app.lazy.map((c) => `${c.name} ${sizes(c.code).gzip}`).join(', '),
  });
}
console.log('\nESM apps importing only these names from dist/payframe.mjs (or the entry named) (rollup, tree-shaken, terser):');
print(rows);
console.log(
  '(bytes, gzip and brotli of what loads at once; lazy: gzip of each chunk loaded at first use, named by its module: tokenize at the first client.tokenize(), pending-flow at Pay, once the nonce is there)',
);

// The byte budget (bench/budget.mjs; test/budget.test.ts fails past a ceiling).
const figures = await measure();
console.log('\nThe byte budget (gzip):');
for (const [file, gzip] of Object.entries(figures)) {
  console.log(`${file.padEnd(48)}  ${String(gzip).padStart(6)} of ${CEILINGS[file]}${gzip > CEILINGS[file] ? '  PAST ITS CEILING' : ''}`);
}
