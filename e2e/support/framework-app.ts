// A Vue 3 or Svelte 5 checkout built as its merchant builds it: docs/frameworks.md's files, as written,
// compiled by the framework's own compiler under Vite, then served by a test merchant (merchant.ts) under
// its strict CSP and Trusted Types. The doc's Checkout goes to page/; in its place main.ts mounts the
// test's harness (e2e/frameworks/Harness.*), which renders it and moves or unmounts it by the framework's means.
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { readmeBlock } from '../../test/readme';
import type { Merchant } from './merchant';

export type Framework = 'vue' | 'svelte';

const root = fileURLToPath(new URL('../../', import.meta.url));
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };

/** The app's files as the doc writes them, by path: `vite.config.ts`, `main.ts`, `Checkout.vue` (or `.svelte`). */
export type AppFiles = Record<string, string>;

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Checkout</title>
<link rel="stylesheet" href="/card.css"><script src="/record.js"></script><script type="module" src="/main.ts"></script></head>
<body data-merchant-id="MERCHANT_ID" data-gateway-url="GATEWAY_URL"><main id="app"></main></body>
</html>
`;

/** Builds the app (dist/ must be built: `payframe` resolves to it) and answers its files by path; about 2 s. */
export async function buildFrameworkApp(framework: Framework, blocks: AppFiles): Promise<Map<string, Buffer>> {
  const dir = join(root, 'test-results', 'frameworks', `${framework}-${process.pid}`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, 'page'), { recursive: true });
  await mkdir(join(dir, 'public'), { recursive: true });
  for (const [file, code] of Object.entries(blocks)) await writeFile(join(dir, file.startsWith('Checkout.') ? `page/${file}` : file), code);
  const harness = framework === 'vue' ? 'Checkout.vue' : 'Checkout.svelte';
  await cp(join(root, 'e2e/frameworks', framework === 'vue' ? 'Harness.vue' : 'Harness.svelte'), join(dir, harness));
  await cp(join(root, 'e2e/frameworks/record.js'), join(dir, 'public/record.js'));
  await writeFile(join(dir, 'public/card.css'), readmeBlock('hosted/page.css'));
  await writeFile(join(dir, 'index.html'), PAGE);
  await build({
    root: dir,
    configFile: join(dir, 'vite.config.ts'),
    logLevel: 'error', // not its timing notes: a busy machine makes them at every run
    resolve: {
      alias: [
        { find: /^payframe\/element$/, replacement: join(root, 'dist/element.mjs') },
        { find: /^payframe$/, replacement: join(root, 'dist/payframe.mjs') },
      ],
    },
    build: { outDir: join(dir, 'out'), emptyOutDir: true, minify: true },
  });
  const files = new Map<string, Buffer>();
  const walk = async (at: string): Promise<void> => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) await walk(path);
      else files.set(`/${relative(join(dir, 'out'), path).split('\\').join('/')}`, await readFile(path));
    }
  };
  await walk(join(dir, 'out'));
  await rm(dir, { recursive: true, force: true });
  return files;
}

/** Serves the app from the merchant at `/<framework>/` (its assets at their own paths), the shop's settings written into the page. */
export function serveFrameworkApp(merchant: Merchant, framework: Framework, files: Map<string, Buffer>): string {
  for (const [path, body] of files) {
    const type = TYPES[extname(path)] ?? 'application/octet-stream';
    if (path !== '/index.html') merchant.files.set(path, { type, body });
    else {
      const page = body.toString('utf8').replace('MERCHANT_ID', merchant.sandbox.merchant.id).replace('GATEWAY_URL', merchant.sandbox.url);
      merchant.files.set(`/${framework}/`, { type, body: page });
    }
  }
  return `${merchant.url}/${framework}/`;
}
