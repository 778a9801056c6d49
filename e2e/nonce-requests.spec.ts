// Issue 31: every nonce request that delivered its nonce ends as finished in the browser, counted over 100
// tokenizes in Chromium and Firefox by e2e/engines/nonce-requests.flow.ts (read to its end through a stream
// reader, Chromium cancelled some after their nonce had been read: shared/body.ts). Here, what only the
// Chromium suite sets up: a deadline still cancels a request that is really running.
import { expect, type Page, type Request, test } from '@playwright/test';
import { type Merchant, startMerchant } from './support/merchant';
import { fillCard, openCheckout } from './support/page';

const CARD = { number: '4111111111111111', expiry: '1234', cvv: '123', name: 'Ada Lovelace' };

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant();
});
test.afterAll(() => merchant?.close());

/** How the browser reports the number frame's nonce requests: finished, or failed with its error text. */
function watchNonceRequests(page: Page) {
  const seen = { finished: 0, failed: [] as string[] };
  const isNonce = (r: Request) => r.method() === 'POST' && r.url().endsWith('/credit-card-nonce');
  page.on('requestfinished', (r) => void (isNonce(r) && seen.finished++));
  page.on('requestfailed', (r) => void (isNonce(r) && seen.failed.push(r.failure()?.errorText ?? 'failed')));
  return seen;
}

test('a nonce answer that does not come in time: the deadline cancels the request, and the page sees timeout', async ({ page }) => {
  test.setTimeout(60_000);
  const seen = watchNonceRequests(page);
  await openCheckout(page, merchant, { timeout: '2000' });
  await fillCard(page, CARD);
  // No answer at all, then headers with a body that stops coming.
  for (const fault of [
    { kind: 'delay', ms: 15_000 },
    { kind: 'reply', body: '{"data":', ms: 15_000 },
  ] as const) {
    const failed = seen.failed.length;
    merchant.sandbox.injectFault({ ...fault, method: 'POST', path: /credit-card-nonce$/ });
    const code = await page.evaluate(() =>
      (window as any).form.tokenize().then(
        () => 'paid',
        (error: { code: string }) => error.code,
      ),
    );
    expect(code, fault.kind).toBe('timeout');
    await expect.poll(() => seen.failed.slice(failed), { message: fault.kind }).toEqual(['net::ERR_ABORTED']);
  }
  expect(seen.finished).toBe(0);
});
