// Security review "Going live without a trap", finding 2, replayed: a page points the client at a
// loopback "gateway" of its own and asks the sandbox for the frames at `/frame/%63vv/`. The frames take
// that path for a full form's (as its URL came), the sandbox took it for the CVV-only page (it decoded
// the path twice) and sent the CVV page's policy, whose connect-src admits every loopback origin: the
// page's own "gateway" received the card number and the CVV. Now the frame refuses to start (the page
// names its gateway) and the policy is the full form's.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { type Merchant, startMerchant } from './support/merchant';
import { type Origin, startOrigin } from './support/origin';

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A page</title>
<script src="/payframe.umd.min.js"></script></head><body>
<div id="card-number"></div><div id="card-expiry"></div><div id="card-cvv"></div></body></html>`;

let merchant: Merchant;
let shop: Origin;
let gateway: Server;
let gatewayUrl: string;
/** Every request the page's own "gateway" received, with its body. */
const received: { method: string; body: string }[] = [];

test.beforeAll(async () => {
  [merchant, shop] = await Promise.all([startMerchant(), startOrigin()]);
  shop.files.set('/page', { type: 'text/html; charset=utf-8', body: PAGE });
  gateway = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ method: req.method ?? 'GET', body });
      res
        .writeHead(req.method === 'OPTIONS' ? 204 : 500, {
          'access-control-allow-origin': '*',
          'access-control-allow-headers': '*',
          'access-control-allow-methods': 'POST',
        })
        .end();
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await Promise.all([merchant?.close(), shop?.close(), new Promise((resolve) => gateway?.close(resolve))]);
});

for (const path of ['%63vv/', 'cvv%2F..%2F']) {
  test(`frames from the sandbox at /frame/${path} with a gateway of the page's own: they refuse, and no card leaves`, async ({ page }) => {
    await page.goto(`${shop.url}/page`);
    const ready = await page.evaluate(
      ({ gateway, merchantId, frameUrl }) => {
        const P = (window as any).Payframe;
        const client = P.createClient({ merchantId, baseUrl: gateway, authorization: 'token' });
        const fields = { number: { container: '#card-number' }, expiry: { container: '#card-expiry' }, cvv: { container: '#card-cvv' } };
        (window as any).form = P.mountFields({ client, fields, frameUrl, timeoutMs: 15_000 });
        return (window as any).form.ready.then(
          () => 'ready',
          (e: any) => ({ code: e.code, message: e.message }),
        );
      },
      { gateway: gatewayUrl, merchantId: merchant.sandbox.merchant.id, frameUrl: `${merchant.sandbox.url}/frame/${path}` },
    );
    expect(ready).toMatchObject({ code: 'invalid_config', message: expect.stringContaining('this frame host serves the card frames of') });
    // No input to type a card into.
    await expect(page.frameLocator('#card-number iframe').locator('input')).toHaveCount(0);
    expect(received).toEqual([]);
  });
}
