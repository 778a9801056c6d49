// A Vue 3 or Svelte 5 checkout built as its merchant builds it: docs/frameworks.md's files, as written,
// compiled by the framework's own compiler under Vite, then served by a test merchant (merchant.ts) under
// its strict CSP and Trusted Types. The doc's Checkout goes to page/; in its place main.ts mounts the
// test's harness (e2e/frameworks/Harness.*), which renders it and moves or unmounts it by the framework's means.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
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

/** The files under `at`, by their path from it (`/assets/x.js`), in a stable order. */
async function filesUnder(at: string, from = at, files = new Map<string, Buffer>()): Promise<Map<string, Buffer>> {
  const entries = await readdir(at, { withFileTypes: true });
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(at, entry.name);
    if (entry.isDirectory()) await filesUnder(path, from, files);
    else files.set(`/${relative(from, path).split('\\').join('/')}`, await readFile(path));
  }
  return files;
}

/**
 * What the build reads: the doc's blocks, the test's harness, the built package it imports and the
 * installed compilers (package-lock.json). The same inputs make the same app, so each engine's worker
 * serves the first one's build: built once per run, not once per engine.
 */
async function inputsKey(framework: Framework, blocks: AppFiles): Promise<string> {
  const hash = createHash('sha256')
    .update(framework)
    .update(PAGE)
    .update(JSON.stringify(Object.entries(blocks).sort()));
  for (const file of [`e2e/frameworks/Harness.${framework}`, 'e2e/frameworks/record.js', 'package-lock.json'])
    hash.update(await readFile(join(root, file)));
  hash.update(readmeBlock('hosted/page.css'));
  for (const [path, body] of await filesUnder(join(root, 'dist'))) if (path.endsWith('.mjs')) hash.update(path).update(body);
  return hash.digest('hex').slice(0, 16);
}

/** Builds the app (dist/ must be built: `payframe` resolves to it) and answers its files by path; about 2 s, once per run. */
export async function buildFrameworkApp(framework: Framework, blocks: AppFiles): Promise<Map<string, Buffer>> {
  const built = join(root, 'test-results', 'frameworks', `${framework}-${await inputsKey(framework, blocks)}`);
  if (!existsSync(built)) {
    const dir = join(root, 'test-results', 'frameworks', `${framework}-${process.pid}`);
    await rm(dir, { recursive: true, force: true });
    await mkdir(join(dir, 'page'), { recursive: true });
    await mkdir(join(dir, 'public'), { recursive: true });
    for (const [file, code] of Object.entries(blocks))
      await writeFile(join(dir, file.startsWith('Checkout.') ? `page/${file}` : file), code);
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
    // One move, whole: another worker reads the app complete or not at all. When one built it first, its copy stays.
    await rename(join(dir, 'out'), built).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
  return filesUnder(built);
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
