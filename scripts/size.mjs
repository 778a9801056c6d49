// Prints the minified and gzip (-9) size of each built bundle, and of ESM apps that import parts of
// `payframe` from dist/ through rollup, tree-shaken as a merchant's bundler would (`npm run size`,
// after `npm run build`).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import { gzipSync } from 'node:zlib';
import resolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { rollup } from 'rollup';

const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.(mjs|js)$/.test(name)) files.push(path);
  }
};
try {
  walk('dist');
} catch {
  console.error('dist/ is missing: run `npm run build` first.');
  process.exit(1);
}

const gzip = (bytes) => gzipSync(bytes, { level: 9 }).length;
const print = (rows) => {
  const width = Math.max(...rows.map((r) => r.file.length));
  console.log(`${'file'.padEnd(width)}  ${'bytes'.padStart(8)}  ${'gzip'.padStart(8)}`);
  for (const r of rows) console.log(`${r.file.padEnd(width)}  ${String(r.bytes).padStart(8)}  ${String(r.gzip).padStart(8)}`);
};
print(files.sort().map((file) => {
  const bytes = readFileSync(file);
  return { file, bytes: bytes.length, gzip: gzip(bytes) };
}));

const apps = {
  'createClient': ['createClient'],
  'mountFields': ['mountFields'],
  'createClient + mountFields': ['createClient', 'mountFields'],
  'createClient + attachForm': ['createClient', 'attachForm'],
};
const entry = resolvePath('dist/payframe.mjs');
const rows = [];
for (const [name, names] of Object.entries(apps)) {
  const bundle = await rollup({
    input: 'app',
    plugins: [
      { name: 'app', resolveId: (id) => (id === 'app' ? id : null), load: (id) => (id === 'app' ? `export { ${names.join(', ')} } from ${JSON.stringify(entry)};` : null) },
      resolve({ browser: true }),
    ],
  });
  const { output } = await bundle.generate({ format: 'es', plugins: [terser({ format: { comments: false } })] });
  // What the page loads at once (the entry and what it imports), and what it loads at first use.
  const chunks = new Map(output.filter((c) => c.type === 'chunk').map((c) => [c.fileName, c]));
  const eager = new Set();
  const visit = (c) => !eager.has(c) && (eager.add(c), c.imports.forEach((f) => visit(chunks.get(f))));
  visit(output[0]);
  const code = [...eager].map((c) => c.code).join('\n');
  const lazy = [...chunks.values()].filter((c) => !eager.has(c)).map((c) => c.code).join('\n');
  rows.push({ file: `app: ${name}`, bytes: code.length, gzip: gzip(code), lazy: lazy ? gzip(lazy) : 0 });
}
console.log('\nESM apps importing only these names from dist/payframe.mjs (rollup, tree-shaken, terser):');
print(rows);
console.log('(gzip of what loads at once; loaded at the first client.tokenize():', rows.map((r) => `${r.file.slice(5)} ${r.lazy}`).join(', '), ')');
