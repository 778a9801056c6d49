// Prints the minified and gzip size of each built bundle (`npm run size`, after `npm run build`).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

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

const rows = files.sort().map((file) => {
  const bytes = readFileSync(file);
  return { file, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
});
const width = Math.max(...rows.map((r) => r.file.length));
console.log(`${'file'.padEnd(width)}  ${'bytes'.padStart(8)}  ${'gzip'.padStart(8)}`);
for (const r of rows) console.log(`${r.file.padEnd(width)}  ${String(r.bytes).padStart(8)}  ${String(r.gzip).padStart(8)}`);
