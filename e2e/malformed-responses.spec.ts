// Issue 12, "Malformed service responses", in the frames: the number frame asks the real sandbox for
// the nonce and gets what a broken service or proxy sends (the sandbox's `reply` fault). Each is a
// typed error on the page, nothing hangs, the card stays as typed, and the next try pays, also after
// the person types the number again. The browser client and the server companion: test/security.
import { expect, type Page, test } from '@playwright/test';
import type { Fault } from '../src/sandbox';
import { type Merchant, startMerchant } from './support/merchant';
import { fillCard, input, openCheckout, typeInto } from './support/page';

const CARD = { number: '371449635398431', spaced: '3714 496353 98431', expiry: '1234', cvv: '7391', name: 'Grace Hopper' };
const MiB = 1024 * 1024;
const nonce = {
  credit_card_nonce: '3f0c8a52-6c1e-4a4f-9d2e-0b7f1c2d3e4f',
  brand_code: 'AMEX',
  last4: '8431',
  type: 'American Express',
  expire_month: 12,
  expire_year: 2034,
  expires_on: '2034-01-01T00:00:00Z',
  issued_on: '2026-01-01T00:00:00Z',
};

/** What the nonce request gets, and the code the page must show; `times` covers the retries. */
const ANSWERS: [string, Omit<Fault, 'method' | 'path'>, string][] = [
  ['truncated JSON', { kind: 'reply', body: '{"data":{"credit_card_nonce":"3f0c8a52' }, 'invalid_response'],
  ['wrong types', { kind: 'reply', body: JSON.stringify({ data: { ...nonce, credit_card_nonce: 7, last4: 8431 } }) }, 'invalid_response'],
  [
    'an HTML error page',
    { kind: 'reply', status: 502, body: '<html><h1>502 Bad Gateway</h1></html>', type: 'text/html', times: 3 },
    'server_error',
  ],
  [
    'an HTML page with status 200',
    { kind: 'reply', body: '<!doctype html><title>Maintenance</title>', type: 'text/html' },
    'invalid_response',
  ],
  ['an empty 200', { kind: 'reply' }, 'invalid_response'],
  ['a huge body', { kind: 'reply', body: `{"data":{"pad":"${'x'.repeat(8 * MiB)}"}}` }, 'invalid_response'],
  ['a huge body, streamed', { kind: 'reply', body: `{"data":{"pad":"${'x'.repeat(8 * MiB)}"}}`, ms: 1 }, 'invalid_response'],
  // Chromium sends a request again, once, when a kept-alive connection drops under it: two drops per try.
  ['a dropped connection', { kind: 'drop', times: 6 }, 'network'],
  ['no answer within the timeout', { kind: 'delay', ms: 15_000 }, 'timeout'],
  ['a body that stops coming', { kind: 'reply', body: JSON.stringify({ data: nonce }), ms: 15_000 }, 'timeout'],
];

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant();
});
test.afterAll(() => merchant?.close());

/** Takes what is left of a fault (the browser may have used fewer drops), so that the next try gets the sandbox. */
async function drain() {
  const url = `${merchant.sandbox.url}/v1/merchants/${merchant.sandbox.merchant.id}/credit-card-nonce`;
  for (let i = 0; i < 10; i++) {
    const answer = await fetch(url, { method: 'POST' }).then(
      (r) => r.json(),
      () => undefined,
    );
    if (answer?.name === 'INVALID_CLIENT_TOKEN') return;
  }
}

async function pay(page: Page) {
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(page.locator('#status')).not.toHaveText(/^(?:Paying…)?$/, { timeout: 20_000 });
  return page.locator('#status').textContent();
}

test('every malformed answer to the frame is a typed error; the card stays, and the next try pays', async ({ page }) => {
  test.setTimeout(240_000);
  // A 5 s deadline (the client's timeoutMs, which the frame keeps): the slow answers end in time.
  await openCheckout(page, merchant, { timeout: '5000' });
  await fillCard(page, CARD);
  const shown: string[] = [];
  for (const [i, [what, fault, code]] of ANSWERS.entries()) {
    merchant.sandbox.injectFault({ ...fault, method: 'POST', path: /credit-card-nonce$/ } as Fault);
    const status = await pay(page);
    shown.push(`${what}: ${status!.split(':')[0]}`);
    expect(status, what).toMatch(new RegExp(`^${code}: `));
    await expect(input(page, 'number')).toHaveValue(CARD.spaced);
    await expect(input(page, 'cvv')).toHaveValue(CARD.cvv);
    await drain();
    // Every other time, the person types the number again before the next try.
    if (i % 2 === 1) {
      await input(page, 'number').fill('');
      await typeInto(page, 'number', CARD.number);
    }
    expect(await pay(page), `after ${what}`).toBe('Paid: captured american-express 8431');
  }
  expect(shown).toEqual(ANSWERS.map(([what, , code]) => `${what}: ${code}`));
  expect(await page.evaluate(() => (window as any).recorded.errors)).toEqual([]);
});
