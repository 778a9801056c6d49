import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import resolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';
import { dts } from 'rollup-plugin-dts';
import { FRAME_BUNDLE, frameBundle } from './scripts/frame-bundle.mjs';
import { pendingChunk } from './scripts/pending-chunk.mjs';

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
  element: 'src/element/index.ts',
};

// payframe.element.min.js takes the public entry from the global `Payframe` of the bundle loaded before it.
const publicEntry = new URL('./src/index.ts', import.meta.url).pathname;

// No source maps in the package (README "The package"); `rollup -c --environment SOURCEMAPS` makes them for debugging.
const sourcemap = process.env.SOURCEMAPS === 'true';

const ts = () => esbuild({ target: 'es2022', sourceMap: sourcemap, jsx: 'automatic' });
const minify = () => terser({ format: { comments: false } });

export default [
  {
    input: entries,
    external: isExternal,
    // No module of ours has side effects (a house rule): a module that only re-exports leaves no bare
    // `import '…'` behind, which a merchant's bundler would warn about.
    treeshake: { moduleSideEffects: false },
    // The frame's script, for the frame host (the module `payframe/frame-bundle`) and in dist/frame/ (its
    // pages, the script inline, for the sandbox): one build of src/frame/main.ts for both.
    plugins: [frameBundle({ emit: true }), ts()],
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
    // payframe.umd.min.js loads its pending flow from a file beside it (scripts/pending-chunk.mjs), written here.
    plugins: [...(input === 'src/script.ts' ? [pendingChunk({ emit: true })] : []), resolve({ browser: true }), ts()],
    output: [
      { file: `dist/${name}.js`, format: 'umd', name: 'Payframe', sourcemap, inlineDynamicImports: true },
      { file: `dist/${name}.min.js`, format: 'umd', name: 'Payframe', sourcemap, inlineDynamicImports: true, plugins: [minify()] },
    ],
  })),
  // <payframe-card-fields> for a script-tag page: a file beside payframe.umd.min.js, defined as it loads
  // (src/element/beside.ts), so that the bundle of a page without it carries none of it.
  {
    input: 'src/element/beside.ts',
    external: (id, importer) =>
      importer && !id.startsWith('.') ? false : id === publicEntry || (id === '../index' && /src\/element\//.test(importer ?? '')),
    treeshake: { moduleSideEffects: (id) => id.endsWith('beside.ts') },
    plugins: [ts()],
    output: [
      { file: 'dist/payframe.element.js', format: 'iife', globals: () => 'Payframe', sourcemap },
      { file: 'dist/payframe.element.min.js', format: 'iife', globals: () => 'Payframe', sourcemap, plugins: [minify()] },
    ],
  },
  {
    input: entries,
    external: (id) => id === FRAME_BUNDLE || isExternal(id),
    plugins: [dts()],
    output: { dir: 'dist', format: 'es', entryFileNames: '[name].d.ts', chunkFileNames: 'chunks/[name]-[hash].d.ts' },
  },
];
