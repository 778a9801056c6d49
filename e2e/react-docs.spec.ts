// docs/react.md's Next.js checkout, run as written without Next.js: the route handler with real
// Requests and Responses against the sandbox; the root layout around the page (a Server Component
// rendering the client component) rendered by react-dom/server, then the document hydrated in Chromium
// (React 19, <StrictMode> aside: the page is the docs'), on a shop of its own (https://localhost, strict
// CSP) whose routes are that handler. And the same checkout built for Vite, served by the docs' Node server.
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { PGlite } from '@electric-sql/pglite';
import { build } from 'esbuild';
import { createClient } from '../src';
import { type SandboxHandle, testCards } from '../src/sandbox';
import { toNodeListener } from '../src/server';
import { readmeBlock } from '../test/readme';
import { pageCsp } from './support/merchant';
import { bundle, serverRender } from './support/react';
import { startSandbox, trustedTls } from './support/tls';

type Post = (request: Request, context: { params: Promise<{ action: string }> }) => Promise<Response>;

let sandbox: SandboxHandle;
let POST: Post;
let GET: Post;
let shop: Server;
let shopUrl: string;
const dir = new URL(`../test-results/docs-react/${process.pid}/`, import.meta.url);

test.beforeAll(async () => {
  test.setTimeout(120_000); // PGlite makes its folder: seconds on a loaded machine
  sandbox = await startSandbox();
  const { id, clientId, clientSecret } = sandbox.merchant;
  Object.assign(process.env, {
    PAYFRAME_MERCHANT_ID: id,
    PAYFRAME_CLIENT_ID: clientId,
    PAYFRAME_CLIENT_SECRET: clientSecret,
    PAYFRAME_URL: sandbox.url,
    SHOP_DATA: new URL('shop-data/', dir).pathname, // the route's database, this run's own
  });
  await mkdir(dir, { recursive: true });
  await (await PGlite.create(process.env['SHOP_DATA']!)).close(); // made here, so that the first request only opens it
  // The blocks as the docs lay them out; the route's TypeScript made JavaScript, inside the package
  // (so that `payframe/server` resolves to this build).
  await mkdir(new URL('app/checkout/', dir), { recursive: true });
  await writeFile(new URL('app/checkout/checkout.tsx', dir), readmeBlock('react/next/checkout.tsx'));
  await writeFile(new URL('app/checkout/page.tsx', dir), readmeBlock('react/next/page.tsx'));
  await writeFile(new URL('app/layout.tsx', dir), readmeBlock('react/next/layout.tsx'));
  await writeFile(new URL('app/globals.css', dir), readmeBlock('react/globals.css'));
  const route = new URL('route.mjs', dir);
  const { outputFiles } = await build({
    stdin: { contents: readmeBlock('react/next/route.ts'), loader: 'ts' },
    write: false,
    format: 'esm',
    platform: 'node',
  });
  await writeFile(route, outputFiles[0]!.text);
  ({ POST, GET } = await import(route.href));

  // The page, as Next.js would serve it: the server's render of the root layout around the page, then the
  // browser's hydration of the whole document.
  const tree =
    "import RootLayout from './app/layout';\nimport Page from './app/checkout/page';\nconst tree = <RootLayout><Page /></RootLayout>;\n";
  await writeFile(
    new URL('server.tsx', dir),
    `import { renderToString } from 'react-dom/server';\n${tree}export const render = () => renderToString(tree);\n`,
  );
  await writeFile(new URL('client.tsx', dir), `import { hydrateRoot } from 'react-dom/client';\n${tree}hydrateRoot(document, tree);\n`);
  const { html, touched } = await serverRender(new URL('server.tsx', dir).pathname, '19', {});
  expect(touched).toEqual([]);
  const env = (name: string) => JSON.stringify(process.env[name]);
  const script = await bundle(new URL('client.tsx', dir).pathname, '19', {
    'process.env.PAYFRAME_MERCHANT_ID': env('PAYFRAME_MERCHANT_ID'),
    'process.env.PAYFRAME_URL': env('PAYFRAME_URL'),
    'process.env.PAYFRAME_FRAME_URL': 'undefined',
  });
  expect(html).toMatch(/^<html lang="en"><head>.*<\/head><body>/);
  // What Next.js adds to the layout's <head>: metadata's title, the <link> of the CSS import, the page's script.
  const document = `<!doctype html>${html.replace('<head>', '<head><meta charset="utf-8"><title>Checkout</title><link rel="stylesheet" href="/globals.css"><script type="module" src="/app.js"></script>')}`;
  const routes = toNodeListener((request) =>
    (request.method === 'GET' ? GET : POST)(request, {
      params: Promise.resolve({ action: new URL(request.url).pathname.split('/').pop()! }),
    }),
  );
  shop = createServer(trustedTls(), (req, res) => {
    const path = new URL(req.url ?? '/', 'https://localhost').pathname;
    if (path.startsWith('/api/payframe/') && (req.method === 'POST' || req.method === 'GET')) return void routes(req, res);
    if (path === '/app.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    if (path === '/globals.css') return void res.writeHead(200, { 'content-type': 'text/css' }).end(readmeBlock('react/globals.css'));
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    if (path !== '/') return void res.writeHead(404).end();
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': pageCsp(sandbox.url).replace(/; report-.*$/, ''),
    });
    res.end(document);
  });
  await new Promise<void>((resolve) => shop.listen(0, 'localhost', resolve));
  shopUrl = `https://localhost:${(shop.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  shop?.closeAllConnections();
  await new Promise((resolve) => shop?.close(resolve));
  await sandbox?.close();
});

/** A POST to the docs' route handler, as Next.js calls it. */
const call = (action: string, body: unknown = {}, cookie?: string) =>
  POST(
    new Request(`https://shop.example/api/payframe/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ action }) },
  );

test('react/next/route.ts: a client token with the shopper’s cookie, a payment from a nonce, and its OTP by its own shopper only', async () => {
  const token = await call('client-token');
  expect(token.status).toBe(200);
  const cookie = /^shopper=[\w-]+/.exec(token.headers.get('set-cookie') ?? '')?.[0];
  expect(cookie).toBeDefined();
  expect(await token.json()).toEqual({ clientToken: expect.any(String), expiresAt: expect.any(String) });
  // Another call with the cookie keeps it.
  expect((await call('client-token', {}, cookie)).headers.get('set-cookie')).toBeNull();

  // The nonce as the frames get it: a client whose token comes from the route.
  const client = createClient({
    merchantId: sandbox.merchant.id,
    baseUrl: sandbox.url,
    authorization: async () => (await call('client-token', {}, cookie)).json(),
  });
  const nonce = async (card: { number: string; expireMonth: number; expireYear: number; cvv: string }) =>
    (await client.tokenize({ number: card.number, expireMonth: card.expireMonth, expireYear: card.expireYear, cvv: card.cvv })).nonce;

  const attempt = () => crypto.randomUUID();
  const paid = { nonce: await nonce(testCards.approved), attempt: attempt() };
  expect(await (await call('pay', paid, cookie)).json()).toMatchObject({ status: 'approved', code: '0000', text: 'Approved' });
  const charges = () => sandbox.requests().filter((r) => r.method === 'POST' && /\/payment$/.test(r.path)).length;
  const before = charges();
  // The same attempt again (its answer lost on the way back): nothing charged, the same outcome.
  expect(await (await call('pay', { ...paid, nonce: await nonce(testCards.approved) }, cookie)).json()).toMatchObject({
    status: 'approved',
  });
  expect(charges()).toBe(before);
  expect(await (await call('pay', { nonce: await nonce(testCards.declined), attempt: attempt() }, cookie)).json()).toMatchObject({
    status: 'declined',
    code: '1005',
  });
  // Asked for before its POST came: none, and that attempt can no longer charge.
  const ask = (id: string, who?: string) =>
    GET(new Request(`https://shop.example/api/payframe/pay?attempt=${id}`, { headers: who ? { cookie: who } : {} }), {
      params: Promise.resolve({ action: 'pay' }),
    });
  const early = attempt();
  expect(await (await ask(early, cookie)).json()).toEqual({ status: 'none' });
  expect(await (await call('pay', { nonce: await nonce(testCards.approved), attempt: early }, cookie)).json()).toEqual({ status: 'none' });
  expect(charges()).toBe(before + 1);
  expect((await ask(paid.attempt, 'shopper=someone-else')).status).toBe(403);

  const { pending } = await (await call('pay', { nonce: await nonce(testCards.otp), attempt: attempt() }, cookie)).json();
  expect(pending).toEqual({
    referenceId: expect.stringMatching(/^PAY-/),
    sessionId: expect.stringMatching(/^[0-9a-f]{32}$/),
    redirectUrl: expect.any(String),
    otp: true,
  });
  const otp = { referenceId: pending.referenceId, sessionId: pending.sessionId, otp: testCards.otp.otp };
  expect((await call('authenticate', otp)).status).toBe(403);
  expect((await call('authenticate', otp, 'shopper=someone-else')).status).toBe(403);
  expect(await (await call('authenticate', otp, cookie)).json()).toMatchObject({
    status: 'approved',
    state: 'captured',
    referenceId: pending.referenceId,
  });
  expect((await call('refund')).status).toBe(404);
});

test('react/next/checkout.tsx and page.tsx: rendered on the server, hydrated, paid; a one-time password in the page’s own form', async ({
  page,
}) => {
  test.setTimeout(90_000); // two payments across frames: slow on a loaded machine
  const problems: string[] = [];
  page.on('console', (m) => ['error', 'warning'].includes(m.type()) && problems.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${shopUrl}/`);
  const pay = page.getByRole('button', { name: 'Pay' });
  await expect(pay).toBeDisabled();
  await expectVisibleBoxes(page);
  await page.screenshot({ path: test.info().outputPath('next-checkout.png') });
  await payWith(page, testCards.approved.number, testCards.approved.cvv);
  await expect(page.getByRole('status')).toHaveText('Paid', { timeout: 15_000 });

  // Again, with a card whose bank asks for a one-time password.
  await page.reload();
  await payWith(page, testCards.otp.number, testCards.otp.cvv);
  const otp = page.getByLabel('One-time password');
  await expect(otp).toBeFocused({ timeout: 15_000 });
  await page.keyboard.type(testCards.otp.otp);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').first()).toHaveText('Paid', { timeout: 15_000 });
  expect(problems).toEqual([]);
});

test('react/next/checkout.tsx: a lost answer says it is checking and never offers to pay again; one charge', async ({ page }) => {
  test.setTimeout(60_000);
  const charges = () => sandbox.requests().filter((r) => r.method === 'POST' && /\/payment$/.test(r.path)).length;
  await page.goto(`${shopUrl}/`);
  const before = charges();
  sandbox.injectFault({ kind: 'lose', method: 'POST', path: `/v1/merchants/${sandbox.merchant.id}/payment` });
  await payWith(page, testCards.approved.number, testCards.approved.cvv);
  await expect(page.getByRole('status')).toHaveText('We are checking your payment. Do not pay again.', { timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Pay' })).toBeDisabled();
  await page.waitForTimeout(2_500); // one ask at least: still checking (no notification reaches this shop), still disabled
  await expect(page.getByRole('status')).toHaveText('We are checking your payment. Do not pay again.');
  await expect(page.getByRole('button', { name: 'Pay' })).toBeDisabled();
  await page.screenshot({ path: test.info().outputPath('next-checking.png') });
  expect(charges() - before).toBe(1);
});

test('react/vite/main.tsx and server.mjs: a Vite build of the same checkout, served with its routes by the docs’ Node server, paid', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const vite = new URL('vite/', dir);
  await mkdir(new URL('src/', vite), { recursive: true });
  await mkdir(new URL('dist/assets/', vite), { recursive: true });
  await writeFile(new URL('src/checkout.tsx', vite), readmeBlock('react/next/checkout.tsx'));
  await writeFile(new URL('src/globals.css', vite), readmeBlock('react/globals.css'));
  await writeFile(new URL('src/main.tsx', vite), readmeBlock('react/vite/main.tsx'));
  // What `vite build` writes: the entry bundled with the VITE_ variables in it, its CSS, and an index.html naming both.
  const env = { VITE_PAYFRAME_MERCHANT_ID: sandbox.merchant.id, VITE_PAYFRAME_URL: sandbox.url };
  await writeFile(
    new URL('dist/assets/index-1a2b.js', vite),
    await bundle(new URL('src/main.tsx', vite).pathname, '19', { 'import.meta.env': JSON.stringify(env) }),
  );
  await writeFile(new URL('dist/assets/index-3c4d.css', vite), readmeBlock('react/globals.css'));
  await writeFile(
    new URL('dist/index.html', vite),
    `<!doctype html>
<html lang="en"><head><meta charset="UTF-8"><title>Checkout</title>
<script type="module" crossorigin src="/assets/index-1a2b.js"></script><link rel="stylesheet" crossorigin href="/assets/index-3c4d.css">
</head><body><div id="root"></div></body></html>`,
  );
  // route.mjs: route.ts made JavaScript, as the docs say (esbuild); the server beside it.
  const { outputFiles } = await build({
    stdin: { contents: readmeBlock('react/next/route.ts'), loader: 'ts' },
    write: false,
    format: 'esm',
    platform: 'node',
  });
  await writeFile(new URL('route.mjs', vite), outputFiles[0]!.text);
  await writeFile(new URL('server.mjs', vite), readmeBlock('react/vite/server.mjs'));
  process.env['PORT'] = '0';
  const { server } = await import(new URL('server.mjs', vite).href);
  try {
    if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${server.address().port}`;
    const answer = await fetch(`${url}/checkout/anywhere`);
    expect(answer.headers.get('content-security-policy')).toContain(`frame-src ${new URL(sandbox.url).origin};`);
    // Only dist/'s files: a path that climbs out of assets/ gets the page, never the server's code.
    for (const path of ['/assets/..%2fserver.mjs', '/assets/%2e%2e/server.mjs', '/server.mjs'])
      expect(await (await fetch(`${url}${path}`)).text(), path).toContain('<div id="root">');
    expect((await fetch(`${url}/api/payframe/client-token`)).status).toBe(405);

    const problems: string[] = [];
    page.on('console', (m) => ['error', 'warning'].includes(m.type()) && problems.push(`${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    await page.goto(`${url}/`);
    await expect(page.getByRole('button', { name: 'Pay' })).toBeDisabled();
    await expectVisibleBoxes(page);
    await page.screenshot({ path: test.info().outputPath('vite-checkout.png') });
    await payWith(page, testCards.otp.number, testCards.otp.cvv);
    await expect(page.getByLabel('One-time password')).toBeFocused({ timeout: 15_000 });
    await page.keyboard.type(testCards.otp.otp);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').first()).toHaveText('Paid', { timeout: 15_000 });
    expect(problems).toEqual([]);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    delete process.env['PORT'];
  }
});

/** What a person sees of the card fields: each box has a border and is tall enough to type in (the frames' inputs have none). */
async function expectVisibleBoxes(page: Page): Promise<void> {
  await expect(page.frameLocator('#card-cvv iframe').getByLabel('Security code')).toBeEditable({ timeout: 15_000 });
  for (const id of ['card-number', 'card-expiry', 'card-cvv']) {
    expect(await page.locator(`#${id}`).evaluate((el) => getComputedStyle(el).borderTopStyle), id).toBe('solid');
    expect((await page.locator(`#${id}`).boundingBox())!.height, id).toBeGreaterThanOrEqual(40);
  }
}

async function payWith(page: Page, number: string, cvv: string): Promise<void> {
  for (const [id, label, text] of [
    ['card-number', 'Card number', number],
    ['card-expiry', 'Expiry date', '1234'],
    ['card-cvv', 'Security code', cvv],
  ]) {
    const input = page.frameLocator(`#${id} iframe`).getByLabel(label!);
    await input.click({ timeout: 15_000 });
    await page.keyboard.type(text!);
  }
  await page.getByRole('button', { name: 'Pay' }).click();
}

test('react/next/route.ts: a server started again on its database still has an attempt whose answer was lost: checking, never none, one charge', async () => {
  test.setTimeout(60_000);
  const token = await call('client-token');
  const cookie = /^shopper=[\w-]+/.exec(token.headers.get('set-cookie') ?? '')![0];
  const client = createClient({
    merchantId: sandbox.merchant.id,
    baseUrl: sandbox.url,
    authorization: async () => (await call('client-token', {}, cookie)).json(),
  });
  const { number, expireMonth, expireYear, cvv } = testCards.approved;
  const nonce = async () => (await client.tokenize({ number, expireMonth, expireYear, cvv })).nonce;
  const path = `/v1/merchants/${sandbox.merchant.id}/payment`;
  const charges = () => sandbox.requests().filter((r) => r.method === 'POST' && r.path === path).length;
  const before = charges();
  sandbox.injectFault({ kind: 'lose', method: 'POST', path }); // charged; the answer never comes
  const attempt = crypto.randomUUID();
  expect(await (await call('pay', { nonce: await nonce(), attempt }, cookie)).json()).toEqual({ status: 'checking' });

  // The process's memory gone, its folder kept: the database closed, and the route loaded again as a new process would.
  const shared = globalThis as { shopDb?: Promise<PGlite> };
  await (await shared.shopDb!).close();
  delete shared.shopDb;
  const restarted = (await import(`${new URL('route.mjs', dir).href}?restarted`)) as { GET: Post; POST: Post };
  const params = { params: Promise.resolve({ action: 'pay' }) };
  const ask = await restarted.GET(new Request(`https://shop.example/api/payframe/pay?attempt=${attempt}`, { headers: { cookie } }), params);
  expect(await ask.json()).toEqual({ status: 'checking' }); // with the memory store: `none`, "Not paid", while charged
  const again = await restarted.POST(
    new Request('https://shop.example/api/payframe/pay', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ nonce: await nonce(), attempt }),
    }),
    params,
  );
  expect(await again.json()).toEqual({ status: 'checking' });
  expect(charges() - before).toBe(1);
});
