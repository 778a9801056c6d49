// Issue 21 item 2 in the browser: a frame page is one response (its script inline), and a payer's repeat
// visit revalidates each of the three pages to an empty 304 that the form starts from. The frame host is
// createFrameHost on plain http at 127.0.0.1 (a loopback origin is trusted, and Chromium keeps nothing
// it fetched with a certificate error, which every https origin of these tests has).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { createFrameHost, toNodeListener } from '../src/server';
import { type Merchant, startMerchant } from './support/merchant';
import { type Origin, startOrigin } from './support/origin';

const SHOP =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title><script src="/payframe.umd.min.js"></script></head>' +
  '<body><div id="n"></div><div id="e"></div><div id="c"></div></body></html>';

let merchant: Merchant;
let shop: Origin;
let frames: Server;
let frameUrl: string;
/** What the frame host answered, in order: the path and the status. */
const answered: { path: string; status: number; inm: boolean }[] = [];

test.beforeAll(async () => {
  [merchant, shop] = await Promise.all([startMerchant(), startOrigin()]);
  shop.files.set('/shop', { type: 'text/html; charset=utf-8', body: SHOP });
  const host = toNodeListener(createFrameHost({ gateway: merchant.sandbox.url, merchantOrigins: [shop.url] }));
  frames = createServer((req, res) => {
    res.on('finish', () =>
      answered.push({ path: new URL(req.url ?? '/', 'http://x').pathname, status: res.statusCode, inm: !!req.headers['if-none-match'] }),
    );
    void host(req, res);
  });
  await new Promise<void>((resolve) => frames.listen(0, '127.0.0.1', resolve));
  frameUrl = `http://127.0.0.1:${(frames.address() as AddressInfo).port}/`;
});
test.afterAll(async () => {
  frames?.closeAllConnections();
  await Promise.all([merchant?.close(), shop?.close(), new Promise((resolve) => (frames ? frames.close(resolve) : resolve(undefined)))]);
});

/** Mounts number, expiry and CVV from the frame host; answers how `ready` settled. */
const mount = (page: Page) =>
  page.evaluate(
    ({ gateway, merchantId, frameUrl }) => {
      const w = window as any;
      const client = w.Payframe.createClient({ merchantId, baseUrl: gateway, authorization: 'token' });
      const fields = { number: { container: '#n' }, expiry: { container: '#e' }, cvv: { container: '#c' } };
      return w.Payframe.mountFields({ client, fields, frameUrl }).ready.then(
        () => 'ready',
        (e: any) => e.code,
      );
    },
    { gateway: merchant.sandbox.url, merchantId: merchant.sandbox.merchant.id, frameUrl },
  );

test('a repeat visit revalidates the three frame pages: three 200s, then three empty 304s, and the fields take input', async ({ page }) => {
  await page.goto(`${shop.url}/shop`);
  expect(await mount(page)).toBe('ready');
  expect(answered.map((a) => a.status)).toEqual([200, 200, 200]);
  // No second request for a script: the page is the whole frame.
  expect(answered.every((a) => a.path === '/')).toBe(true);

  answered.length = 0;
  await page.reload();
  expect(await mount(page)).toBe('ready');
  expect(answered).toEqual([
    { path: '/', status: 304, inm: true },
    { path: '/', status: 304, inm: true },
    { path: '/', status: 304, inm: true },
  ]);
  const number = page.frameLocator('#n iframe').getByRole('textbox', { name: 'Card number' });
  await number.pressSequentially('4111 1111 1111 1111');
  await expect(number).toHaveValue('4111 1111 1111 1111');
});
