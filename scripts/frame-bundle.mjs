// The frame's script, built once per process, and the plugin that hands it to the rest of the build
// (rollup) and to the tests (vitest, through vite's plugin API): the module `payframe:frame-bundle`,
// imported by the frame host, holds the script's text, file name and integrity; dist/frame/ gets the
// same script and its page. One build, so that the page, the files and the host cannot disagree.
import { createHash } from 'node:crypto';
import resolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { build } from 'esbuild';
import { rollup } from 'rollup';
import esbuild from 'rollup-plugin-esbuild';

const ROOT = new URL('..', import.meta.url);
export const FRAME_BUNDLE = 'payframe:frame-bundle';

let built;

/** `{ name, code, integrity }` of src/frame/main.ts, minified: the file is named by its content hash. */
export function buildFrame() {
  built ??= (async () => {
    const bundle = await rollup({
      input: new URL('src/frame/main.ts', ROOT).pathname,
      treeshake: { moduleSideEffects: false },
      plugins: [resolve({ browser: true }), esbuild({ target: 'es2022' })],
    });
    const { output } = await bundle.generate({ format: 'iife', plugins: [terser({ format: { comments: false } })] });
    await bundle.close();
    const { code } = output[0];
    const hash = createHash('sha256').update(code).digest('base64url').slice(0, 10);
    return { name: `frame-${hash}.js`, code, integrity: `sha384-${createHash('sha384').update(code).digest('base64')}` };
  })();
  return built;
}

/** src/frame/page.ts, run here as the build runs it nowhere else. */
async function pageModule() {
  const { outputFiles } = await build({ entryPoints: [new URL('src/frame/page.ts', ROOT).pathname], bundle: true, format: 'esm', write: false, platform: 'neutral' });
  return import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString('base64')}`);
}

/** `emit`: write dist/frame/ (the page and its script) beside the bundle, for the sandbox and static hosts. */
export function frameBundle({ emit = false } = {}) {
  return {
    name: 'frame-bundle',
    resolveId: (id) => (id === FRAME_BUNDLE ? `\0${FRAME_BUNDLE}` : null),
    async load(id) {
      if (id !== `\0${FRAME_BUNDLE}`) return null;
      const { name, code, integrity } = await buildFrame();
      return `export const frameScript = ${JSON.stringify({ name, code, integrity })};\n`;
    },
    async generateBundle() {
      if (!emit) return;
      const script = await buildFrame();
      const { framePage } = await pageModule();
      this.emitFile({ type: 'asset', fileName: `frame/${script.name}`, source: script.code });
      this.emitFile({ type: 'asset', fileName: 'frame/index.html', source: framePage(script) });
    },
  };
}
