// `npm run bench [-- 4 5]`: runs every part in bench/parts/ (or the numbered ones), prints one table
// per part and writes bench/results.json. A part is one file, `<n>-<name>.mjs`, exporting
// `title` and `run()`, which resolves to `{ tables: [{ title, rows }], figures: { name: summary } }`.
// Every figure is a summary (median, min, max of several runs); comparisons are ratios of values
// measured in the same run. These machines are noisy: absolute times are for information only.
import { readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { printTable } from './lib.mjs';

const dir = new URL('./parts/', import.meta.url);
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => /^\d+-[\w-]+\.mjs$/.test(f))
  .sort((a, b) => parseInt(a, 10) - parseInt(b, 10))
  .filter((f) => wanted.length === 0 || wanted.includes(String(parseInt(f, 10))));

const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  loadavg: loadavg().map((l) => Number(l.toFixed(2))),
  parts: {},
};

for (const file of files) {
  const part = await import(new URL(file, dir));
  console.log(`\n== ${part.title}`);
  const { tables, figures, notes = [] } = await part.run();
  for (const t of tables) printTable(t.title, t.rows);
  for (const n of notes) console.log(n);
  results.parts[file.replace(/\.mjs$/, '')] = { title: part.title, figures, tables, notes };
}

const out = new URL('./results.json', import.meta.url);
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nwrote ${out.pathname}`);
