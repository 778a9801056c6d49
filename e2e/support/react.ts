// The React test page of payframe/react (e2e/react/), bundled with esbuild for the React of a run:
// React 19 (the devDependency) or React 18 (the aliased `react-18` and `react-dom-18`), for the browser
// and for a server render. Development builds, so that <StrictMode> mounts, unmounts and mounts again,
// and hydration mismatches are told.
// `payframe` and `payframe/react` are the package's built dist/, as from node_modules.
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { build, type Plugin } from 'esbuild';

export type ReactVersion = '18' | '19';

const root = new URL('../../', import.meta.url);

const aliases = (react: ReactVersion): Record<string, string> => (react === '18' ? { react: 'react-18', 'react-dom': 'react-dom-18' } : {});

const dist: Plugin = {
  name: 'payframe-dist',
  setup(b) {
    b.onResolve({ filter: /^payframe(\/react)?$/ }, ({ path }) => ({
      path: new URL(`dist/${path === 'payframe' ? 'payframe' : 'react'}.mjs`, root).pathname,
    }));
  },
};

/** `entry` (a path from the repository's root, or absolute) bundled for the browser with the React of the run; `define` as esbuild's. */
export async function bundle(entry: string, react: ReactVersion, define: Record<string, string> = {}): Promise<string> {
  const { outputFiles } = await build({
    entryPoints: [new URL(entry, root).pathname],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    alias: aliases(react),
    define: { 'process.env.NODE_ENV': '"development"', ...define },
    loader: { '.css': 'empty' }, // a CSS import is a <link> the bundler writes into the page (Next.js, Vite): the test's page has it
    plugins: [dist],
    logLevel: 'silent',
  });
  return outputFiles![0]!.text;
}

/** Globals a server has not: reading one while importing or rendering is a server-rendering bug. */
const BROWSER_GLOBALS = ['window', 'document', 'self', 'location', 'navigator', 'localStorage', 'sessionStorage', 'HTMLElement', 'Element'];
const REACT = /^react(-dom)?(\/.*)?$/;

/**
 * Renders `entry`'s `render(props)` (e2e/react/server.tsx) in this process as a server would, with the
 * React of the run: React (react, react-dom, react-dom/server) is loaded first, as a server has it
 * already; then the page's module (payframe/react and the app) is loaded and rendered with every browser
 * global replaced by a getter that records the read (`typeof window` included). Answers the markup
 * and what was read. Synchronous from the load on, so nothing else runs in this process meanwhile.
 */
export async function serverRender(entry: string, react: ReactVersion, props: unknown): Promise<{ html: string; touched: string[] }> {
  const dir = new URL(`test-results/react/${process.pid}-${Date.now()}/`, root);
  await mkdir(dir, { recursive: true });
  const runtime = new URL('react.cjs', dir).pathname;
  const app = new URL('app.cjs', dir).pathname;
  const options = {
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    target: 'es2022',
    jsx: 'automatic',
    logLevel: 'silent',
    alias: aliases(react),
    define: { 'process.env.NODE_ENV': '"development"' },
    loader: { '.css': 'empty' },
  } as const;
  const modules = ['react', 'react/jsx-runtime', 'react-dom', 'react-dom/server'];
  const [{ outputFiles: [reactCode] = [] }, { outputFiles: [appCode] = [] }] = await Promise.all([
    build({
      ...options,
      stdin: {
        contents: `module.exports = { ${modules.map((m) => `${JSON.stringify(m)}: require(${JSON.stringify(m)})`).join(', ')} };`,
        resolveDir: root.pathname,
      },
    }),
    build({
      ...options,
      entryPoints: [new URL(entry, root).pathname],
      plugins: [
        dist,
        {
          // React is not in the page's module: it is the one the server loaded.
          name: 'server-react',
          setup(b) {
            b.onResolve({ filter: REACT }, ({ path }) => ({ path, namespace: 'server-react' }));
            b.onResolve({ filter: /\/react\.cjs$/ }, ({ path }) => ({ path, external: true }));
            b.onLoad({ filter: /.*/, namespace: 'server-react' }, ({ path }) => ({
              contents: `module.exports = require(${JSON.stringify(runtime)})[${JSON.stringify(path)}];`,
            }));
          },
        },
      ],
    }),
  ]);
  await writeFile(runtime, reactCode!.text);
  await writeFile(app, appCode!.text);
  const load = createRequire(import.meta.url);
  load(runtime);
  const touched: string[] = [];
  const saved = BROWSER_GLOBALS.map((global) => [global, Object.getOwnPropertyDescriptor(globalThis, global)] as const);
  for (const [global, had] of saved) {
    Object.defineProperty(globalThis, global, {
      configurable: true,
      get() {
        touched.push(global);
        return had?.get ? had.get.call(globalThis) : had?.value;
      },
    });
  }
  try {
    return { html: load(app).render(props), touched };
  } finally {
    for (const [global, had] of saved) {
      if (had) Object.defineProperty(globalThis, global, had);
      else delete (globalThis as Record<string, unknown>)[global];
    }
  }
}
