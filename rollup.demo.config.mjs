// The demo pages' own bundles (demo/build/), apart from the library's rollup.config.mjs. `npm start`
// runs it when a bundle is missing or older than its sources.
import { fileURLToPath } from 'node:url';
import commonjs from '@rollup/plugin-commonjs';
import resolve from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';

// The React app imports 'payframe' and 'payframe/react' as a merchant's app does; inside this
// repository those are the package's own built ESM entries.
const entries = { payframe: './dist/payframe.mjs', 'payframe/react': './dist/react.mjs' };
const payframe = {
  name: 'payframe-self',
  resolveId: (id) => (id in entries ? fileURLToPath(new URL(entries[id], import.meta.url)) : null),
};

const page = (name, input, format) => ({
  input,
  plugins: [
    payframe,
    replace({ preventAssignment: true, values: { 'process.env.NODE_ENV': JSON.stringify('production') } }),
    resolve({ browser: true, extensions: ['.ts', '.tsx', '.mjs', '.js'] }),
    commonjs(),
    esbuild({ target: 'es2020', jsx: 'automatic' }),
    terser({ format: { comments: false } }),
  ],
  // One file per page: `client.tokenize` loads its card rules lazily in the ESM build, inlined here.
  output: { file: `demo/build/${name}.js`, format, sourcemap: true, inlineDynamicImports: true },
});

export default [
  // Classic scripts: the script-tag checkout takes payframe from the global `Payframe`.
  page('checkout', 'demo/web/checkout/main.ts', 'iife'),
  page('back-office', 'demo/web/back-office/main.ts', 'iife'),
  page('return', 'demo/web/return/main.ts', 'iife'),
  page('account', 'demo/web/account/main.ts', 'iife'),
  // The single-page app: an ES module with React and payframe inside.
  page('spa', 'demo/web/spa/main.tsx', 'es'),
];
