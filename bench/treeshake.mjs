// What a merchant's ESM app carries when it imports some names from `payframe`: bundled with rollup
// (node-resolve, which honours package.json `sideEffects: false`), minified with terser, gzip -9.
import { gzipSync } from 'node:zlib';
import resolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { rollup } from 'rollup';

const ENTRY = new URL('../dist/payframe.mjs', import.meta.url).pathname;
const ROOT = new URL('..', import.meta.url).pathname;

export async function appSize(names) {
  const app = `import { ${names.join(', ')} } from ${JSON.stringify(ENTRY)};\nwindow.used = [${names.join(', ')}];\n`;
  const virtual = { name: 'app', resolveId: (id) => (id === 'app' ? id : null), load: (id) => (id === 'app' ? app : null) };
  const bundle = await rollup({ input: 'app', plugins: [virtual, resolve({ browser: true, rootDir: ROOT })] });
  const { output } = await bundle.generate({ format: 'es', plugins: [terser({ format: { comments: false } })] });
  await bundle.close();
  const code = output[0].code;
  return { imports: names.join(' + '), bytes: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).length };
}
