// Issue 12, "Framing": the merchant is configured with exactly its checkout's origin. A page on an
// origin it has not configured (the same host on another port: another origin, the same site) cannot
// embed the card frames (their frame-ancestors), neither directly, nor around the real checkout
// (clickjacking), nor inside it; and it cannot drive a tokenisation, not even with a real client token.
import { expect, type Frame, type Page, test } from '@playwright/test';
import { checkoutUrl, type Merchant, pageCsp, startMerchant } from './support/merchant';
import { type Origin, startOrigin } from './support/origin';
import { fillCard, openCheckout } from './support/page';

const CARD = { number: '4111111111111111', expiry: '1234', cvv: '123', name: 'Ada Lovelace' };
const SHOP = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not the merchant</title>
<script src="/payframe.full.umd.min.js"></script></head><body>
<div id="card-number"></div><div id="card-expiry"></div><div id="card-cvv"></div></body></html>`;

let merchant: Merchant;
let other: Origin;
test.beforeAll(async () => {
  [merchant, other] = await Promise.all([startMerchant({ ownOriginOnly: true }), startOrigin()]);
  other.files.set('/shop', { type: 'text/html; charset=utf-8', body: SHOP });
  // The checkout with room for a frame from the other origin in its CSP (an ad slot, or a widget).
  const csp = pageCsp(merchant.sandbox.url).replace('frame-src ', `frame-src ${other.url} `);
  merchant.files.set('/with-ads', { ...merchant.files.get('/')!, headers: { 'content-security-policy': csp } });
});
test.afterAll(async () => {
  await Promise.all([merchant?.close(), other?.close()]);
});

const nonceRequests = () => merchant.sandbox.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/credit-card-nonce')).length;

/** Mounts the card fields in a page or frame that has the UMD bundle, with a real client token; answers how `ready` ended. */
function mountIn(where: Page | Frame, token: string) {
  return where.evaluate(
    ({ gateway, merchantId, token }) => {
      const w = window as any;
      w.client = w.Payframe.createClient({ merchantId, baseUrl: gateway, authorization: token });
      const fields = { number: { container: '#card-number' }, expiry: { container: '#card-expiry' }, cvv: { container: '#card-cvv' } };
      // A long timeout: a refused frame is said within seconds of its page's arrival, not at the timeout.
      w.attempt = w.Payframe.mountFields({ client: w.client, fields, timeoutMs: 60_000 });
      return w.attempt.ready.then(
        () => 'ready',
        (e: any) => ({ code: e.code, reason: e.reason, fields: e.fields }),
      );
    },
    { gateway: merchant.sandbox.url, merchantId: merchant.sandbox.merchant.id, token },
  );
}

/** Console lines that say a frame was refused by its frame-ancestors. */
function refusals(page: Page): string[] {
  const lines: string[] = [];
  page.on('console', (m) => /frame-ancestors/.test(m.text()) && lines.push(m.text()));
  return lines;
}

const token = async () => (await merchant.gateway.clientToken()).accessToken;
const refused = { code: 'network', reason: 'FRAME_NOT_ANSWERING', fields: ['number', 'expiry', 'cvv'] };

test("the merchant's own origin, configured exactly, embeds the frames and pays", async ({ page }) => {
  await openCheckout(page, merchant);
  await fillCard(page, CARD);
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(page.locator('#status')).toHaveText('Paid: captured visa 1111', { timeout: 15_000 });
});

test('a page on an origin the merchant has not configured cannot embed the frames, nor tokenise a card', async ({ page }) => {
  const blocked = refusals(page);
  const nonces = nonceRequests();
  await page.goto(`${other.url}/shop`);
  expect(await mountIn(page, await token())).toEqual(refused);
  await expect(page.locator('iframe')).toHaveCount(0);
  expect(blocked.filter((t) => t.includes(`frame-ancestors ${merchant.url}`))).toHaveLength(3);

  // Nor by hand: the frame page framed directly (naming this page's origin), and the client's own
  // nonce call, whose preflight the gateway refuses for an origin the merchant has not configured.
  await page.evaluate(
    (src) => document.body.append(Object.assign(document.createElement('iframe'), { src })),
    (await framePage(page)).replace(/origin=[^&]+/, `origin=${encodeURIComponent(other.url)}`),
  );
  await expect.poll(() => blocked.length).toBe(4);
  const direct = await page.evaluate(() =>
    (window as any).client.tokenize({ number: '4111111111111111', expireMonth: 12, expireYear: 2034, cvv: '123' }).then(
      () => 'tokenised',
      (e: any) => e.code,
    ),
  );
  expect(direct).toBe('network');
  expect(
    merchant.sandbox
      .requests()
      .filter((r) => r.method === 'OPTIONS' && r.path.endsWith('/credit-card-nonce'))
      .at(-1)?.headers.origin,
  ).toBe(other.url);
  expect(nonceRequests()).toBe(nonces);
});

test('the real checkout inside a page of another origin (clickjacking): its card frames refuse to load', async ({ page }) => {
  const blocked = refusals(page);
  await page.goto(other.url);
  await page.evaluate(
    (src) => document.body.append(Object.assign(document.createElement('iframe'), { src })),
    checkoutUrl(merchant, { auto: '0' }),
  );
  await expect.poll(() => page.frames().length).toBe(2);
  const checkout = page.frames()[1]!;
  await checkout.waitForLoadState();
  // The checkout's own script mounts as it always does; every ancestor of a card frame must be allowed.
  const ready = await checkout.evaluate(() =>
    (window as any).mount({ timeoutMs: 60_000 }).ready.then(
      () => 'ready',
      (e: any) => ({ code: e.code, reason: e.reason, fields: e.fields }),
    ),
  );
  expect(ready).toEqual({ ...refused, fields: ['number', 'expiry', 'cvv', 'name'] });
  expect(blocked.length).toBeGreaterThanOrEqual(4);
});

test('a page of another origin inside the real checkout: the card frames it mounts refuse to load', async ({ page }) => {
  const blocked = refusals(page);
  await page.goto(checkoutUrl(merchant, { auto: '0' }).replace('/?', '/with-ads?'));
  await page.evaluate((src) => document.body.append(Object.assign(document.createElement('iframe'), { src })), `${other.url}/shop`);
  await expect.poll(() => page.frames().some((f) => f.url() === `${other.url}/shop`)).toBe(true);
  const inner = page.frames().find((f) => f.url() === `${other.url}/shop`)!;
  await inner.waitForLoadState();
  expect(await mountIn(inner, await token())).toEqual(refused);
  expect(blocked.length).toBeGreaterThanOrEqual(3);
});

test("a frame URL naming an unknown merchant is framed by no one, not even the merchant's own page", async ({ page }) => {
  const blocked = refusals(page);
  await openCheckout(page, merchant);
  const src = (await framePage(page)).replace(/merchant=[^&]+/, 'merchant=someone-else');
  await page.evaluate((s) => document.body.append(Object.assign(document.createElement('iframe'), { src: s, id: 'unknown' })), src);
  await expect.poll(() => blocked.some((t) => t.includes("frame-ancestors 'none'"))).toBe(true);
});

/** The live number frame's URL, from the merchant's checkout (opened in another tab when needed). */
async function framePage(page: Page): Promise<string> {
  const checkout = page.url().startsWith(merchant.url) ? page : await page.context().newPage();
  if (checkout !== page) await openCheckout(checkout, merchant);
  const src = await checkout.evaluate(() => document.querySelector<HTMLIFrameElement>('#card-number iframe')!.src);
  if (checkout !== page) await checkout.close();
  return src;
}
