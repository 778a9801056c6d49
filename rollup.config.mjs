import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import resolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';
import { dts } from 'rollup-plugin-dts';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

// The npm entries leave dependencies (and payframe/react's optional peers) to the installer; the
// script-tag bundle carries everything.
const external = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {}), ...builtinModules, /^node:/];
const isExternal = (id) => external.some((e) => (typeof e === 'string' ? id === e || id.startsWith(`${e}/`) : e.test(id)));

const entries = {
  payframe: 'src/index.ts',
  server: 'src/server/index.ts',
  sandbox: 'src/sandbox/index.ts',
  react: 'src/react/index.ts',
};

// No source maps in the package (README "The package"); `rollup -c --environment SOURCEMAPS` makes them for debugging.
const sourcemap = process.env.SOURCEMAPS === 'true';

const ts = () => esbuild({ target: 'es2022', sourceMap: sourcemap, jsx: 'automatic' });
const minify = () => terser({ format: { comments: false } });

/**
 * dist/frame/index.html, the field frames' page: no inline script or style (its CSP forbids both),
 * one script whose name carries its content hash (so a frame host may cache it for good) and whose
 * Subresource Integrity hash the page checks.
 */
function framePage() {
  return {
    name: 'frame-page',
    generateBundle(_options, bundle) {
      const entry = Object.values(bundle).find((file) => file.type === 'chunk' && file.isEntry);
      const integrity = `sha384-${createHash('sha384').update(entry.code).digest('base64')}`;
      this.emitFile({
        type: 'asset',
        fileName: 'index.html',
        source: `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>payframe</title>
<script src="${entry.fileName}" integrity="${integrity}" defer></script>
</head>
<body></body>
</html>
`,
      });
    },
  };
}

export default [
  {
    input: entries,
    external: isExternal,
    plugins: [ts()],
    output: {
      dir: 'dist',
      format: 'es',
      // One file per source module: a merchant's bundler then drops whole modules it does not use
      // (package.json says `sideEffects: false`), so importing `readReturn` does not bring the
      // schemas, ky or the card tables along. One shared chunk would keep every schema built at its top.
      preserveModules: true,
      preserveModulesRoot: 'src',
      entryFileNames: (chunk) => (chunk.isEntry && chunk.name in entries ? '[name].mjs' : 'lib/[name].mjs'),
      sourcemap,
    },
  },
  // The script-tag bundles (global `Payframe`): payframe.umd.min.js for a checkout with the hosted
  // form (src/script.ts), payframe.full.umd.min.js with everything of `payframe` (client.tokenize and
  // attachForm, which take the card on the page, and the card core); each with an unminified twin.
  ...[
    ['src/script.ts', 'payframe.umd'],
    ['src/index.ts', 'payframe.full.umd'],
  ].map(([input, name]) => ({
    input,
    // Importing any module of ours or of our dependencies has no side effects (a house rule), so an
    // unused schema is dropped even though building it is a function call.
    treeshake: { moduleSideEffects: false },
    plugins: [resolve({ browser: true }), ts()],
    output: [
      { file: `dist/${name}.js`, format: 'umd', name: 'Payframe', sourcemap, inlineDynamicImports: true },
      { file: `dist/${name}.min.js`, format: 'umd', name: 'Payframe', sourcemap, inlineDynamicImports: true, plugins: [minify()] },
    ],
  })),
  {
    // The hosted fields' frame: its own bundle, minified, no source map (a frame host serves it to
    // every shopper; a map would only publish the source the package already ships).
    input: 'src/frame/main.ts',
    treeshake: { moduleSideEffects: false },
    plugins: [resolve({ browser: true }), esbuild({ target: 'es2022' }), framePage()],
    output: { dir: 'dist/frame', format: 'iife', entryFileNames: 'frame-[hash].js', plugins: [minify()] },
  },
  {
    input: entries,
    external: isExternal,
    plugins: [dts()],
    output: { dir: 'dist', format: 'es', entryFileNames: '[name].d.ts', chunkFileNames: 'chunks/[name]-[hash].d.ts' },
  },
];
