// The security review's finding 1: `payframe frames export` served by a static host. Each host (a
// stand-in serving the folder as its documentation says, e2e/support/static-hosts.ts) on its own origin
// (https://127.0.0.3:P), the sandbox standing for the live gateway, the merchant's checkout on one
// origin and a foreign page on another. The merchant's page gets working frames; the foreign page gets
// no frame that becomes ready, at the root, at an unknown path, or at a percent-encoded one, even from a
// deploy that serves the frame page without its headers. `payframe frames check` says which deploy is
// guarded and which is not.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, type Page, test } from '@playwright/test';
import type { SandboxHandle } from '../src/sandbox';
import { type Origin, startOrigin } from './support/origin';
import { type Served, serveStatic, type StaticHost } from './support/static-hosts';
import { startSandbox } from './support/tls';

const BIN = new URL('../bin/payframe.mjs', import.meta.url).pathname;
const exec = promisify(execFile);
const HOSTS: StaticHost[] = ['cloudflare', 'netlify', 'vercel'];
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A page</title>
<script src="/payframe.umd.min.js"></script></head><body><div id="n"></div><div id="e"></div><div id="c"></div></body></html>`;

let sandbox: SandboxHandle;
let shop: Origin;
let other: Origin;
const hosts = new Map<StaticHost, Served>();
let folder: string;
/** The export as it was before the review: no 404.html, and `_headers` for the pages' own paths alone. */
let unguarded: string;
let empty: string;

const run = (args: string[]) =>
  exec(process.execPath, [BIN, 'frames', ...args]).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
  );

test.beforeAll(async () => {
  [shop, other] = await Promise.all([startOrigin(), startOrigin()]);
  empty = mkdtempSync(join(tmpdir(), 'payframe-static-'));
  for (const host of HOSTS) hosts.set(host, await serveStatic(host, empty));
  const frameOrigins = [...hosts.values()].map((h) => new URL(h.url).origin);
  // The nonce call answers CORS for the frame hosts' origins, as the live service does for the merchant's.
  sandbox = await startSandbox({
    merchants: [{ id: 'shop', clientId: 'shop-client', clientSecret: 'shop-secret', origins: [shop.url, ...frameOrigins] }],
  });
  folder = mkdtempSync(join(tmpdir(), 'payframe-export-'));
  const exported = await run(['export', folder, '--gateway', sandbox.url, '--merchant-origin', shop.url]);
  expect(exported.code, exported.stdout).toBe(0);
  for (const host of hosts.values()) host.deploy(folder);
  unguarded = mkdtempSync(join(tmpdir(), 'payframe-unguarded-'));
  await exec('cp', ['-r', `${folder}/.`, unguarded]);
  rmSync(join(unguarded, '404.html'), { force: true });
  writeFileSync(join(unguarded, '_headers'), readFileSync(join(folder, '_headers'), 'utf8').replace(/^\/\*\n( {2}.*\n)+\n/, ''));
  for (const page of [shop, other]) page.files.set('/page', { type: 'text/html; charset=utf-8', body: PAGE });
});
test.afterAll(async () => {
  await Promise.all([shop?.close(), other?.close(), sandbox?.close(), ...[...hosts.values()].map((h) => h.close())]);
  for (const dir of [empty, folder, unguarded]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Mounts a full card form from `frameUrl` on a page of `origin`; answers how `ready` ended. */
async function mount(page: Page, origin: Origin, frameUrl: string) {
  await page.goto(`${origin.url}/page`);
  return page.evaluate(
    ({ gateway, frameUrl }) => {
      const P = (window as any).Payframe;
      const client = P.createClient({ merchantId: 'shop', baseUrl: gateway, authorization: 'unused' });
      const form = P.mountFields({
        client,
        frameUrl,
        timeoutMs: 20_000,
        fields: { number: { container: '#n' }, expiry: { container: '#e' }, cvv: { container: '#c' } },
      });
      return form.ready.then(
        () => ({ code: 'ready' }),
        (e: any) => ({ code: e.code, reason: e.reason, message: e.message }),
      );
    },
    { gateway: sandbox.url, frameUrl },
  );
}

for (const name of HOSTS) {
  test(`${name}: the checkout's frames become ready; a foreign page's never do, at the root, an unknown path or an encoded one`, async ({
    page,
    context,
  }) => {
    const host = hosts.get(name)!;
    expect(await mount(page, shop, host.url)).toEqual({ code: 'ready' });
    // A frame that loads and never speaks fails its mount once the load watch's silence is over (3 s,
    // SILENT_MS in src/client/form/load-watch.ts): the foreign pages wait it out side by side, a tab each.
    const paths = ['', 'x/', 'checkout/frames/', '%63vv/', '%69ndex.html/'];
    const answers = await Promise.all(paths.map(async (path) => mount(await context.newPage(), other, `${host.url}${path}`)));
    for (const [i, path] of paths.entries()) expect(answers[i]!.code, `${name} /${path}`).not.toBe('ready');
  });
}

test('a deploy that serves the frame page without its headers (no 404.html: index.html at every path) still gives a foreign page no frame: the frame refuses and says why', async ({
  page,
}) => {
  const host = hosts.get('cloudflare')!;
  host.deploy(unguarded);
  try {
    const answer = await mount(page, other, `${host.url}x/`);
    expect(answer).toMatchObject({
      code: 'invalid_config',
      message: expect.stringContaining(`not to ${other.url}: add it to the host's merchantOrigins`),
    });
    // The merchant's own page, at a path where the host serves another page than the one for it.
    const misplaced = await mount(page, shop, `${host.url}%63vv/`);
    expect(misplaced).toMatchObject({ code: 'invalid_config', message: expect.stringContaining('serves another page at /%63vv/') });
  } finally {
    host.deploy(folder);
  }
});

test('the build’s bare frame page (dist/frame/, which names no merchants), served as it is, starts for no page, the merchant’s included', async ({
  page,
}) => {
  const host = hosts.get('netlify')!;
  const bare = mkdtempSync(join(tmpdir(), 'payframe-bare-'));
  await exec('cp', ['-r', `${new URL('../dist/frame/', import.meta.url).pathname}.`, bare]);
  host.deploy(bare);
  try {
    expect(await mount(page, shop, host.url)).toMatchObject({
      code: 'invalid_config',
      message: expect.stringContaining('this frame page is not one a frame host made'),
    });
  } finally {
    host.deploy(folder);
    rmSync(bare, { recursive: true, force: true });
  }
});

test('frames check: a guarded deploy passes (exit 0); the unguarded one is reported path by path (exit 1)', async () => {
  const host = hosts.get('cloudflare')!;
  const good = await run(['check', host.url, '--merchant-origin', shop.url]);
  expect(
    good.stdout
      .trim()
      .split('\n')
      .slice(0, 6)
      .every((line) => line.startsWith('ok  ')),
  ).toBe(true);
  expect(good.code, good.stdout).toBe(0);
  host.deploy(unguarded);
  try {
    const bad = await run(['check', host.url, '--merchant-origin', shop.url]);
    expect(bad.code, bad.stdout).toBe(1);
    expect(bad.stdout).toMatch(/^FAIL {2}\/payframe-check\/ +the card form's page without its headers: no Content-Security-Policy header/m);
    expect(bad.stdout).toMatch(/^ok {4}\/ +the card form's page, its headers hold/m);
    // Checking for another merchant's origin: the guarded deploy is not framed by it.
    host.deploy(folder);
    const elsewhere = await run(['check', host.url, '--merchant-origin', other.url]);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stdout).toContain(`frame-ancestors ${shop.url}, not ${other.url}`);
  } finally {
    host.deploy(folder);
  }
});
