// The pending flow of the script-tag bundle (payframe.umd.min.js), in a file of its own beside it
// (payframe.pending.umd.min.js), built once per process: the bundle loads it at the payer's first Pay
// (src/client/pending/beside.ts), pinned by its SHA-384. Few pages meet a pending payment, and a page
// whose payer never pays never fetches the OTP form. The ESM build splits the same code with a dynamic import; this is that
// split for a classic script, which has no modules.
//
// The file is one call: `document.currentScript.payframe(function (require, exports) { … })`. The
// bundle puts that function on the <script> element it inserts, and hands the module the parts it
// takes from the bundle rather than carry a copy (`require`): the error class, so that an error of the
// chunk is `instanceof Payframe.PayframeError`. The bindings it takes are read from the chunk's build,
// so that the bundle passes exactly those.
import { createHash } from 'node:crypto';
import resolve from '@rollup/plugin-node-resolve';
import { rollup } from 'rollup';
import esbuild from 'rollup-plugin-esbuild';
import { minify } from 'terser';

const ROOT = new URL('..', import.meta.url);
const src = (path) => new URL(`src/${path}`, ROOT).pathname;

/** The module the bundle imports the chunk's name, pin and shared parts from (declared in src/client/pending/chunk.d.ts). */
export const PENDING_CHUNK = 'virtual:payframe-pending-chunk';
export const CHUNK_FILE = 'payframe.pending.umd.min.js';

/** The modules of the page's bundle the chunk takes from it, by the name its `require` asks for. */
const SHARED = { errors: src('shared/errors.ts') };

let built;

/**
 * `{ code, integrity, version, shared }`: the chunk's text; its `sha384-…` for the `integrity` of its
 * <script>; a short hex of the same digest, which the bundle puts in the chunk's URL so that a cache
 * never answers a new bundle with an old chunk; and, per shared module, the bindings the chunk uses.
 */
export function buildPendingChunk() {
  built ??= (async () => {
    const bundle = await rollup({
      input: src('client/pending/pending-flow.ts'),
      treeshake: { moduleSideEffects: false },
      plugins: [
        {
          name: 'shared',
          async resolveId(id, importer) {
            const resolved = await this.resolve(id, importer, { skipSelf: true });
            const name = Object.keys(SHARED).find((n) => SHARED[n] === resolved?.id);
            return name ? { id: name, external: true } : null;
          },
        },
        resolve({ browser: true }),
        esbuild({ target: 'es2022' }),
      ],
    });
    const { output } = await bundle.generate({
      format: 'cjs',
      exports: 'named',
      esModule: false,
      freeze: false,
      externalLiveBindings: false,
      generatedCode: { preset: 'es2015', symbols: false },
    });
    await bundle.close();
    const [chunk] = output;
    const wrapped = `document.currentScript.payframe(function (require, exports) {\n${chunk.code}\n});\n`;
    const { code } = await minify(wrapped, { format: { comments: false }, compress: { passes: 2 } });
    const digest = createHash('sha384').update(code).digest();
    return {
      code,
      integrity: `sha384-${digest.toString('base64')}`,
      version: digest.toString('hex').slice(0, 12),
      shared: chunk.importedBindings,
    };
  })();
  return built;
}

/** The module `virtual:payframe-pending-chunk`: the file's name and pin, and the shared bindings, imported from their modules. */
async function moduleText() {
  const { integrity, version, shared } = await buildPendingChunk();
  const imports = Object.entries(shared).map(
    ([name, bindings]) => `import { ${bindings.join(', ')} } from ${JSON.stringify(SHARED[name])};`,
  );
  const given = Object.entries(shared).map(([name, bindings]) => `${JSON.stringify(name)}: { ${bindings.join(', ')} }`);
  return [
    ...imports,
    `export const chunk = ${JSON.stringify({ file: `${CHUNK_FILE}?v=${version}`, integrity })};`,
    `export const shared = { ${given.join(', ')} };`,
    '',
  ].join('\n');
}

/**
 * Resolves `virtual:payframe-pending-chunk` for the script-tag bundle (and the unit tests, through vite's
 * plugin API); `emit` (the build) also writes the chunk beside the bundle.
 */
export function pendingChunk({ emit = false } = {}) {
  return {
    name: 'pending-chunk',
    resolveId: (id) => (id === PENDING_CHUNK ? `\0${PENDING_CHUNK}` : null),
    load: (id) => (id === `\0${PENDING_CHUNK}` ? moduleText() : null),
    async generateBundle() {
      if (emit) this.emitFile({ type: 'asset', fileName: CHUNK_FILE, source: (await buildPendingChunk()).code });
    },
  };
}
