// Card data stays in the frames: everything the merchant's page can see (messages, DOM, storage, URL,
// console, its own requests) is recorded through a whole checkout and searched for the card number,
// with and without spaces, and the CVV. The page runs under a strict CSP with Trusted Types, and not
// one violation may happen, on the page or in the frames.
import { expect, type Page, test } from '@playwright/test';
import { type Merchant, startMerchant } from './support/merchant';
import { fillCard, input, openCheckout, recorded } from './support/page';

const CARD = { number: '371449635398431', spaced: '3714 496353 98431', expiry: '1234', cvv: '7391', name: 'Grace Hopper' };
/** The CVV as a value of its own (a random hex id could hold these four digits inside it). */
const CVV = new RegExp(`(?<![0-9a-f])${CARD.cvv}(?![0-9a-f])`, 'i');

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant();
});
test.afterAll(() => merchant?.close());

function leaks(text: string): string[] {
  const found: string[] = [];
  if (text.replace(/[\s-]/g, '').includes(CARD.number)) found.push('card number');
  if (text.includes(CARD.spaced)) found.push('spaced card number');
  if (CVV.test(text)) found.push('cvv');
  return found;
}

/** Everything a script on the merchant's page can read without the frames' help. */
async function pageView(page: Page) {
  return page.evaluate(() => {
    const storage = (s: Storage) => Object.keys(s).map((k) => `${k}=${s.getItem(k)}`).join('\n');
    const frames = [...document.querySelectorAll('iframe')].map((f) => {
      let windowDocument = 'null';
      try {
        windowDocument = String((f.contentWindow as any).document);
      } catch (error) {
        windowDocument = (error as Error).name;
      }
      return { contentDocument: f.contentDocument === null ? null : 'readable', windowDocument };
    });
    return {
      html: document.documentElement.outerHTML,
      storage: `${storage(localStorage)}\n${storage(sessionStorage)}\n${document.cookie}`,
      url: location.href,
      messages: (window as any).recorded.messages.map((m: { data: string }) => m.data).join('\n'),
      violations: (window as any).recorded.violations as string[],
      errors: (window as any).recorded.errors as string[],
      frames,
    };
  });
}

test('a whole checkout: the page sees a nonce, the brand, the last four and the expiry, never the card', async ({ page }) => {
  const consoleText: string[] = [];
  const pageRequests: string[] = [];
  page.on('console', (m) => consoleText.push(`${m.type()}: ${m.text()}`));
  page.on('request', (r) => {
    if (r.frame() === page.mainFrame()) pageRequests.push(`${r.method()} ${r.url()} ${r.postData() ?? ''} ${JSON.stringify(r.headers())}`);
  });
  await openCheckout(page, merchant);
  // A hostile script on the page listens on the frames' channel name from its own origin.
  await page.evaluate(() => {
    const channel = new URLSearchParams(document.querySelector('iframe')!.src.split('#')[1]).get('channel');
    const heard: string[] = ((window as any).heard = []);
    new BroadcastChannel(`payframe:${channel}`).onmessage = (e) => heard.push(JSON.stringify(e.data));
  });
  const noncesBefore = merchant.sandbox.requests().filter((r) => r.path.endsWith('/credit-card-nonce')).length;

  await fillCard(page, CARD);
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(page.locator('#status')).toHaveText('Paid: captured american-express 8431', { timeout: 15_000 });

  const view = await pageView(page);
  const card = await page.evaluate(() => (window as any).lastCard);
  expect(Object.keys(card).sort()).toEqual(['brand', 'expireMonth', 'expireYear', 'expiresAt', 'last4', 'name', 'nonce']);
  expect(card).toMatchObject({ brand: 'american-express', last4: '8431', expireMonth: 12, expireYear: 2034, name: 'Grace Hopper' });
  for (const [what, text] of Object.entries({ ...view, frames: '', card: JSON.stringify(card), console: consoleText.join('\n'), requests: pageRequests.join('\n') })) {
    expect(leaks(String(text)), what).toEqual([]);
  }
  expect(view.messages.length).toBeGreaterThan(1000); // the recorder did hear the frames
  expect(await page.evaluate(() => (window as any).heard)).toEqual([]);
  expect(view.frames).toEqual(Array(4).fill({ contentDocument: null, windowDocument: 'SecurityError' }));
  expect(view.violations).toEqual([]);
  expect(view.errors).toEqual([]);
  expect(merchant.reports).toEqual([]);
  expect(consoleText.filter((t) => /security policy|trusted type/i.test(t))).toEqual([]);

  // One nonce request, from the frame's own origin (same origin as the gateway: no preflight).
  const nonces = merchant.sandbox.requests().filter((r) => r.path.endsWith('/credit-card-nonce')).slice(noncesBefore);
  expect(nonces.map((r) => [r.method, r.headers.origin, r.headers.authorization])).toEqual([['POST', merchant.sandbox.url, 'Bearer [redacted]']]);
});

test('the CSP checks of this suite do catch a violation (so that zero means zero)', async ({ page }) => {
  await openCheckout(page, merchant);
  const before = merchant.reports.length;
  await page.evaluate(() => document.body.setAttribute('style', 'color: red'));
  await expect.poll(async () => (await recorded(page)).violations).toEqual(['style-src-attr inline']);
  await expect.poll(() => merchant.reports.length, { timeout: 10_000 }).toBeGreaterThan(before);
});

test('the frames refuse to be framed by a page on an origin the merchant has not configured', async ({ page }) => {
  const other = await startMerchant({ merchants: [{ id: 'shop', clientId: 'c', clientSecret: 's', origins: ['https://shop.example'] }] });
  try {
    const blocked: string[] = [];
    page.on('console', (m) => blocked.push(m.text()));
    await page.goto(`${other.url}/?${new URLSearchParams({ merchant: 'shop', gateway: other.sandbox.url, auto: '0' })}`);
    const error = await page.evaluate(async () => {
      const w = window as any;
      const form = w.mount({ timeoutMs: 3000 });
      return form.ready.then(() => 'ready', (e: any) => ({ code: e.code, fields: e.fields }));
    });
    expect(error).toEqual({ code: 'timeout', fields: ['number', 'expiry', 'cvv', 'name'] });
    expect(blocked.some((t) => t.includes("frame-ancestors https://shop.example"))).toBe(true);
    await expect(page.locator('iframe')).toHaveCount(0);
  } finally {
    await other.close();
  }
});

test('after a refused request the form is still usable, and the values are still there', async ({ page }) => {
  await openCheckout(page, merchant);
  await fillCard(page, CARD);
  merchant.sandbox.injectFault({ method: 'POST', path: /credit-card-nonce$/, kind: 'error', times: 3 });
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(page.locator('#status')).toHaveText(/^server_error: /, { timeout: 15_000 });
  await expect(input(page, 'number')).toHaveValue(CARD.spaced);
  await expect(input(page, 'cvv')).toHaveValue(CARD.cvv);
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(page.locator('#status')).toHaveText('Paid: captured american-express 8431', { timeout: 15_000 });
});
