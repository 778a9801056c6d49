// The frame's script, built once per process, and the plugin that hands it to the rest of the build
// (rollup) and to the unit tests (vitest, through vite's plugin API): the module `payframe/frame-bundle`
// (dist/frame-bundle.mjs, which the frame host imports by the package's own name, so that it resolves
// on every runtime and in every bundler) holds the script's text and its CSP hash; dist/frame/ gets the
// pages with the same script inlined. One build, so that the pages, their hash and the host cannot disagree.
import { createHash } from 'node:crypto';
import resolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { build } from 'esbuild';
import { rollup } from 'rollup';
import esbuild from 'rollup-plugin-esbuild';

const ROOT = new URL('..', import.meta.url);
export const FRAME_BUNDLE = 'payframe/frame-bundle';

let built;

/**
 * `{ code, hash }` of src/frame/main.ts, minified: the page carries it inline (one response instead of a
 * page and then its script), allowed by its hash in `script-src`. The hash is over the text exactly as the
 * HTML parser hands it to the script, so the text must be one the parser cannot cut short or change.
 */
export function buildFrame() {
  built ??= (async () => {
    const bundle = await rollup({
      input: new URL('src/frame/main.ts', ROOT).pathname,
      treeshake: { moduleSideEffects: false },
      plugins: [resolve({ browser: true }), esbuild({ target: 'es2022' })],
    });
    const { output } = await bundle.generate({
      format: 'iife',
      plugins: [terser({ compress: { passes: 2 }, format: { comments: false } })],
    });
    await bundle.close();
    const { code } = output[0];
    checkInlineable(code);
    return { code, hash: `sha256-${createHash('sha256').update(code).digest('base64')}` };
  })();
  return built;
}

/**
 * Throws unless the HTML parser hands `code`, inside `<script>…</script>`, to the browser exactly as it
 * is: `</script` ends the element, `<!--` and `<script` change how the parser reads it, a CR is read as
 * LF and a NUL as U+FFFD. Each would make the text the browser hashes differ from the one hashed here
 * (the frame would not run), or end the script early. Terser keeps such text in strings and regexes.
 */
export function checkInlineable(code) {
  const found = /<\/script|<!--|<script|\r|\0/i.exec(code);
  if (found) throw new Error(`the frame script cannot be inlined: it holds ${JSON.stringify(found[0])} at ${found.index}`);
}

/** src/protocol/frame-page.ts, run here as the build runs it nowhere else. */
async function pageModule() {
  const { outputFiles } = await build({
    entryPoints: [new URL('src/protocol/frame-page.ts', ROOT).pathname],
    bundle: true,
    format: 'esm',
    write: false,
    platform: 'neutral',
  });
  return import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString('base64')}`);
}

const moduleText = ({ code, hash }) => `export const frameScript = ${JSON.stringify({ code, hash })};\n`;

/**
 * `emit` (the build): write dist/frame-bundle.mjs (the module) and dist/frame/ (the pages, for the
 * sandbox), and leave `payframe/frame-bundle` to the package's own
 * name. Else (the unit tests): resolve `payframe/frame-bundle` to a fresh build of the frame.
 */
export function frameBundle({ emit = false } = {}) {
  return {
    name: 'frame-bundle',
    resolveId: (id) => (id !== FRAME_BUNDLE ? null : emit ? { id, external: true } : `\0${FRAME_BUNDLE}`),
    async load(id) {
      return id === `\0${FRAME_BUNDLE}` ? moduleText(await buildFrame()) : null;
    },
    async generateBundle() {
      if (!emit) return;
      const script = await buildFrame();
      const { framePage } = await pageModule();
      this.emitFile({ type: 'asset', fileName: 'frame-bundle.mjs', source: moduleText(script) });
      this.emitFile({
        type: 'asset',
        fileName: 'frame-bundle.d.ts',
        source:
          "/** The frame's built script: its text, and its hash as `script-src` names it. */\nexport declare const frameScript: { code: string; hash: string };\n",
      });
      this.emitFile({ type: 'asset', fileName: 'frame/index.html', source: framePage(script) });
      this.emitFile({ type: 'asset', fileName: 'frame/cvv/index.html', source: framePage(script) });
    },
  };
}
