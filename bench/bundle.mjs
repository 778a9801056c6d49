// The one way the benchmarks and `npm run size` build an app as a merchant's bundler would: rollup
// with node-resolve (browser fields, package.json `sideEffects`), commonjs (for the CommonJS peers),
// NODE_ENV=production, terser; sizes are gzip -9 and brotli. `analyse` says which module costs what.
import { readdirSync, readFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import commonjs from '@rollup/plugin-commonjs';
import resolve from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';
import { rollup } from 'rollup';

const ROOT = new URL('..', import.meta.url).pathname;

export const gzip = (code) => gzipSync(code, { level: 9 }).length;
export const brotli = (code) => brotliCompressSync(code).length;
export const sizes = (code) => ({ bytes: Buffer.byteLength(code), gzip: gzip(code), brotli: brotli(code) });

/** An entry module given as text, so that an app is one line: `import { x } from 'payframe'`. */
const virtual = (source) => ({
  name: 'app',
  resolveId: (id) => (id === '\0app' ? id : null),
  load: (id) => (id === '\0app' ? source : null),
});

/** `payframe`, `payframe/react` and `payframe/element` resolve to this checkout's dist/, as they would from node_modules. */
const ENTRIES = { payframe: 'payframe', 'payframe/react': 'react', 'payframe/element': 'element' };
const self = {
  name: 'payframe',
  resolveId: (id) => (id in ENTRIES ? `${ROOT}dist/${ENTRIES[id]}.mjs` : null),
};

/**
 * Builds an app whose entry is `source` (ES module text). Answers the code that loads at once
 * (`eager`: the entry chunk and what it imports statically), the chunks loaded at first use of a
 * dynamic import (`lazy`: `{ name, code }` each, named by their module), and the entry chunk, with its source map when `map`
 * is asked for (for `analyse`). `external`: modules the app's page has already (React, for payframe/react).
 */
export async function buildApp(source, { map = false, external } = {}) {
  const bundle = await rollup({
    input: '\0app',
    external,
    onwarn: () => undefined, // the peers' circular imports and `this` at top level: not ours to fix
    plugins: [
      virtual(source),
      self,
      resolve({ browser: true, rootDir: ROOT }),
      commonjs(),
      replace({ preventAssignment: true, values: { 'process.env.NODE_ENV': JSON.stringify('production') } }),
    ],
  });
  try {
    const { output } = await bundle.generate({ format: 'es', sourcemap: map, plugins: [terser({ format: { comments: false } })] });
    const chunks = new Map(output.filter((c) => c.type === 'chunk').map((c) => [c.fileName, c]));
    const eager = new Set();
    const visit = (c) => !eager.has(c) && (eager.add(c), c.imports.forEach((f) => chunks.has(f) && visit(chunks.get(f)))); // externals are the page's own
    visit(output[0]);
    return {
      eager: [...eager].map((c) => c.code).join('\n'),
      lazy: [...chunks.values()].filter((c) => !eager.has(c)).map((c) => ({ name: c.name, code: c.code })),
      entry: output[0],
    };
  } finally {
    await bundle.close();
  }
}

/** An app that imports `names` from payframe and uses them all (so that nothing is shaken off). */
export const appOf = (names, from = 'payframe') =>
  `import { ${names.join(', ')} } from ${JSON.stringify(from)};\nwindow.used = [${names.join(', ')}];\n`;

/** payframe/react as an app imports it; React is the app's own (external). */
export const REACT_NAMES = ['CardFields', 'CardNumber', 'CardExpiry', 'CardCvv', 'CardName', 'useCardForm', 'usePendingPayment'];
const REACT = /^react(-dom)?(\/.*)?$/;

/**
 * What payframe/react adds to an app beyond what it imports from payframe: the gzip of an app of the
 * binding, less that of an app of the payframe names the binding imports (read from its built modules:
 * their imports from outside dist/lib/react/), both with React external.
 */
export async function reactBinding() {
  const dir = `${ROOT}dist/lib/react/`;
  const imported = new Set();
  for (const file of readdirSync(dir)) {
    for (const m of readFileSync(dir + file, 'utf8').matchAll(/import \{([^}]+)\} from '\.\.\/[^']+'/g)) {
      for (const name of m[1].split(',')) imported.add(name.trim().split(/\s+as\s+/)[0]);
    }
  }
  const withBinding = await buildApp(appOf(REACT_NAMES, 'payframe/react'), { external: REACT });
  const payframeAlone = await buildApp(appOf([...imported], 'payframe'), { external: REACT });
  const app = sizes(withBinding.eager);
  const base = sizes(payframeAlone.eager);
  return {
    app,
    base,
    imported: [...imported],
    beyond: { bytes: app.bytes - base.bytes, gzip: app.gzip - base.gzip, brotli: app.brotli - base.brotli },
  };
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The segments of a source map's `mappings`, per generated line: [column, source index] pairs. */
function decodeMappings(mappings) {
  const lines = [];
  let source = 0;
  for (const line of mappings.split(';')) {
    const segments = [];
    let column = 0;
    for (const segment of line.split(',')) {
      if (!segment) continue;
      const fields = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = B64.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += fields[0];
      if (fields.length > 1) source += fields[1];
      segments.push([column, fields.length > 1 ? source : -1]);
    }
    lines.push(segments);
  }
  return lines;
}

/**
 * Which module the bytes of minified `code` come from, by its source map (as source-map-explorer
 * does): minified bytes per module, and the module's gzip cost at the margin, i.e. the gzip of the
 * whole minus the gzip of the whole without that module's bytes (so that the figures add up to
 * about the whole, which gzips of the parts alone would not). Bytes no mapping claims are `(glue)`:
 * the module wrapper, helpers and separators.
 */
export function analyse(code, map, name = (source) => source) {
  const lines = decodeMappings(map.mappings);
  const text = code.split('\n');
  const owner = []; // [start offset, end offset, module] ranges of the code
  let offset = 0;
  text.forEach((line, i) => {
    const segments = lines[i] ?? [];
    let at = 0;
    let who = '(glue)';
    for (const [column, source] of segments) {
      if (column > at) owner.push([offset + at, offset + column, who]);
      at = column;
      who = source >= 0 ? name(map.sources[source]) : '(glue)';
    }
    owner.push([offset + at, offset + line.length + 1, who]);
    offset += line.length + 1;
  });
  const ranges = new Map();
  for (const [start, end, who] of owner) {
    if (end <= start) continue;
    if (!ranges.has(who)) ranges.set(who, []);
    ranges.get(who).push([start, end]);
  }
  const whole = gzip(code);
  const rows = [...ranges].map(([module, list]) => {
    const bytes = list.reduce((n, [s, e]) => n + Buffer.byteLength(code.slice(s, e)), 0);
    let rest = '';
    let at = 0;
    for (const [s, e] of list.sort((a, b) => a[0] - b[0])) {
      rest += code.slice(at, s);
      at = e;
    }
    rest += code.slice(at);
    return { module, bytes, gzip: whole - gzip(rest) };
  });
  return rows.sort((a, b) => b.gzip - a.gzip);
}
