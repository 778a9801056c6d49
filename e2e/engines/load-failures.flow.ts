// Issue 22 item 1 in every engine: a card form that cannot load says why within seconds, each cause
// played for real: the page's CSP without the frames in frame-src; a frame host on a closed port (said
// where the engine lets the page know: Chromium fires the frame's load, Firefox adds a resource timing
// entry for the failed navigation; WebKit tells the page nothing, so there it is timeout at timeoutMs);
// a frame URL that answers some other page; a frame host whose frame-ancestors refuses the page. And
// what still loads: a host that is merely slow (its whole page, or its body), a report-only CSP. Each
// outcome is also the form's `error` event, heard once (or never, when it loads).
import { createServer } from 'node:net';
import { createFrameHost } from '../../src/server';
import { type Merchant, startMerchant } from '../support/merchant';
import { type Origin, startOrigin } from '../support/origin';
import type { Driver } from './harness/driver';
import { expect, test } from './harness/test';

const SHOP =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title><script src="/payframe.umd.min.js"></script></head>' +
  '<body><div id="n"></div><div id="e"></div><div id="c"></div></body></html>';

let merchant: Merchant;
/** A merchant whose frames allow its own page only (frame-ancestors). */
let ownOnly: Merchant;
let shop: Origin;
/** A frame host that answers the real frame page, 4 s late, and a blank page at any other path. */
let slow: Origin;
test.beforeAll(async () => {
  [merchant, ownOnly, shop, slow] = await Promise.all([
    startMerchant(),
    startMerchant({ ownOriginOnly: true }),
    startOrigin(),
    startOrigin(),
  ]);
  // The frame page a frame host makes for this shop (the page names the merchant origins it serves).
  const page = await (
    await createFrameHost({ gateway: merchant.sandbox.url, merchantOrigins: [shop.url] })(new Request(`${slow.url}/frame/`))
  ).text();
  slow.files.set('/frame/', { type: 'text/html; charset=utf-8', body: page, delayMs: 4000 });
  // The page's head at once, its body (the frame's script) 4 s late: a cold edge worker, a slow first
  // visit. Firefox times a page's arrival before it has run its script: the watch must wait for load.
  slow.files.set('/late-body/', { type: 'text/html; charset=utf-8', body: page, lateFrom: page.indexOf('<body>'), delayMs: 4000 });
  shop.files.set('/shop', { type: 'text/html; charset=utf-8', body: SHOP });
  shop.files.set('/strict', { type: 'text/html; charset=utf-8', body: SHOP, headers: { 'content-security-policy': "frame-src 'self'" } });
  // A policy rolled out report-only first: it reports the frames and blocks nothing.
  shop.files.set('/report-only', {
    type: 'text/html; charset=utf-8',
    body: SHOP,
    headers: { 'content-security-policy-report-only': "frame-src 'self'" },
  });
});
test.afterAll(() => Promise.all([merchant?.close(), ownOnly?.close(), shop?.close(), slow?.close()]));

const iframes = (driver: Driver) => driver.run(undefined, () => document.querySelectorAll('iframe').length);

async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Mounts with a 60 s timeout and answers how `ready` settled, after how long on the page's clock, and the `error` events heard. */
function mount(driver: Driver, frameUrl?: string, timeoutMs = 60_000, of: Merchant = merchant) {
  return driver.run(
    undefined,
    (gateway: string, merchantId: string, frames: string, timeoutMs: number) => {
      const w = window as any;
      const client = w.Payframe.createClient({ merchantId, baseUrl: gateway, authorization: 'token' });
      const started = performance.now();
      const form = w.Payframe.mountFields({
        client,
        timeoutMs,
        ...(frames ? { frameUrl: frames } : {}),
        fields: { number: { container: '#n' }, expiry: { container: '#e' }, cvv: { container: '#c' } },
      });
      const heard: string[] = [];
      form.on('error', (e: any) => heard.push(e.code));
      return form.ready.then(
        () => ({ code: 'ready', reason: undefined, fields: undefined, ms: performance.now() - started, heard }),
        (e: any) => ({ code: e.code, reason: e.reason, fields: e.fields, message: e.message, ms: performance.now() - started, heard }),
      );
    },
    of.sandbox.url,
    of.sandbox.merchant.id,
    frameUrl ?? '',
    timeoutMs,
  );
}

test("the page's CSP has no frame-src for the frames: invalid_config FRAME_BLOCKED_BY_CSP, at once", async ({ driver }) => {
  await driver.goto(`${shop.url}/strict`);
  const outcome = await mount(driver);
  expect(outcome).toMatchObject({
    code: 'invalid_config',
    reason: 'FRAME_BLOCKED_BY_CSP',
    fields: ['number', 'expiry', 'cvv'],
    heard: ['invalid_config'],
  });
  expect(outcome.message).toBe(
    `the number, expiry, cvv fields blocked by the page's CSP (frame-src): add ${merchant.sandbox.url} to its frame-src`,
  );
  expect(outcome.ms).toBeLessThan(10_000);
  expect(await iframes(driver)).toBe(0);
  test.info().annotations.push({ type: 'ms to the outcome', description: outcome.ms.toFixed(0) });
});

test('a frame host on a closed port: network FRAME_NOT_ANSWERING within seconds (WebKit: timeout at timeoutMs)', async ({ driver }) => {
  await driver.goto(`${shop.url}/shop`);
  const base = `https://127.0.0.1:${await closedPort()}/frames/`;
  // Elsewhere a timeout beyond the 10 s the outcome must come in, so that it cannot be the timeout's.
  // WebKit can only time out: there a merchant's shorter timeoutMs, which it must wait out whole.
  const timeoutMs = driver.engine === 'webkit' ? 5000 : 12_000;
  const outcome = await mount(driver, base, timeoutMs);
  test.info().annotations.push({ type: 'ms to the outcome', description: outcome.ms.toFixed(0) });
  if (driver.engine === 'webkit') {
    // WebKit leaves the iframe on its first about:blank, as while a slow host answers: no load, no
    // resource entry, so nothing can fail before timeoutMs; the message names the unreachable host.
    expect(outcome).toMatchObject({ code: 'timeout', fields: ['number', 'expiry', 'cvv'] });
    expect(outcome.message).toContain(`check that ${base} opens from the payer's browser`);
    expect(outcome.message).toContain(`in ${timeoutMs} ms`);
    expect(outcome.ms).toBeGreaterThanOrEqual(timeoutMs);
  } else {
    expect(outcome).toMatchObject({ code: 'network', reason: 'FRAME_NOT_ANSWERING', fields: ['number', 'expiry', 'cvv'] });
    expect(outcome.message).toContain('is unreachable');
    expect(outcome.ms).toBeLessThan(10_000);
    if (driver.engine === 'chromium') {
      // Chromium fires the frame's load on its error page: the page knows the host answered nothing of payframe's.
      const host = base.replace('/frames/', '');
      expect(outcome.message).toContain(`the page arrived from ${host}, but no payframe frame spoke in it`);
      expect(outcome.message).toContain(`the host is unreachable (open ${base} in a tab)`);
    }
  }
  expect(await iframes(driver)).toBe(0);
});

test('a frame URL that answers some other page: network FRAME_NOT_ANSWERING within seconds', async ({ driver }) => {
  await driver.goto(`${shop.url}/shop`);
  const outcome = await mount(driver, `${slow.url}/not-the-frames/`); // a blank page of another site
  test.info().annotations.push({ type: 'ms to the outcome', description: outcome.ms.toFixed(0) });
  expect(outcome).toMatchObject({ code: 'network', reason: 'FRAME_NOT_ANSWERING', fields: ['number', 'expiry', 'cvv'] });
  expect(outcome.ms).toBeLessThan(10_000);
});

test("a frame host that refuses this page's origin (frame-ancestors): network FRAME_NOT_ANSWERING within seconds", async ({ driver }) => {
  await driver.goto(`${shop.url}/shop`);
  const outcome = await mount(driver, undefined, 20_000, ownOnly);
  test.info().annotations.push({ type: 'ms to the outcome', description: outcome.ms.toFixed(0) });
  expect(outcome).toMatchObject({ code: 'network', reason: 'FRAME_NOT_ANSWERING', fields: ['number', 'expiry', 'cvv'] });
  expect(outcome.message).toContain(`refuses this page's origin ${shop.url}`);
  expect(outcome.ms).toBeLessThan(10_000);
});

test('a frame host that is merely slow (4 s a page) still loads: nothing fails before timeoutMs', async ({ driver }) => {
  await driver.goto(`${shop.url}/shop`);
  const outcome = await mount(driver, `${slow.url}/frame/`);
  test.info().annotations.push({ type: 'ms to the outcome', description: outcome.ms.toFixed(0) });
  expect(outcome).toMatchObject({ code: 'ready', heard: [] });
  expect(outcome.ms).toBeGreaterThan(4000);
  expect(await iframes(driver)).toBe(3);
});

test('a frame host whose page arrives slowly (its head at once, its body and script 4 s late) still loads', async ({ driver }) => {
  await driver.goto(`${shop.url}/shop`);
  const outcome = await mount(driver, `${slow.url}/late-body/`);
  test.info().annotations.push({ type: 'ms to the outcome', description: outcome.ms.toFixed(0) });
  expect(outcome).toMatchObject({ code: 'ready', heard: [] });
  expect(outcome.ms).toBeGreaterThan(4000);
});

test('a page whose CSP for frames is report-only: the frames load (it blocks nothing)', async ({ driver }) => {
  await driver.goto(`${shop.url}/report-only`);
  expect(await mount(driver)).toMatchObject({ code: 'ready', heard: [] });
  expect(await iframes(driver)).toBe(3);
});
