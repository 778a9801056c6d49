// Part 1: what a page downloads. The script-tag bundle, and what a merchant's ESM app carries for
// the names it imports (the ESM build keeps one file per module, so a bundler drops the rest).
import { readFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { appSize } from '../treeshake.mjs';

export const title = 'Part 1: size';

const SETS = [['PayframeError'], ['readReturn'], ['handlePending', 'readReturn'], ['createClient'], ['createClient', 'handlePending', 'readReturn']];

export async function run() {
  const umd = readFileSync(new URL('../../dist/payframe.umd.min.js', import.meta.url));
  const bundle = [{ file: 'dist/payframe.umd.min.js', bytes: umd.length, gzip: gzipSync(umd, { level: 9 }).length, brotli: brotliCompressSync(umd).length }];
  const shaken = [];
  for (const names of SETS) shaken.push(await appSize(names));
  return {
    tables: [
      { title: 'Script-tag bundle (bytes)', rows: bundle },
      { title: 'Tree-shaken into an ESM app (rollup + terser, gzip -9)', rows: shaken },
    ],
    figures: Object.fromEntries([...bundle.map((r) => [r.file, r]), ...shaken.map((r) => [r.imports, r])]),
  };
}
