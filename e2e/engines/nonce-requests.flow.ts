// Issue 31: every nonce request that delivered its nonce ends as finished in the browser, counted over
// 100 tokenizes, where the engine reports network events to its driver: Chromium (Playwright) and
// Firefox (puppeteer-core over BiDi). WebKitWebDriver (selenium) reports none, so WebKit is skipped.
// A deadline's cancel of a request really running: e2e/nonce-requests.spec.ts.
import { type Merchant, startMerchant } from '../support/merchant';
import { formState, openCheckout, typeInto } from './harness/checkout';
import { expect, test } from './harness/test';

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant();
});
test.afterAll(() => merchant?.close());

const CARD = { number: '4111111111111111', expiry: '1234', cvv: '123', name: 'Ada Lovelace' };
const atSandbox = () => merchant.sandbox.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/credit-card-nonce')).length;

test('100 tokenizes on one page: each nonce request finished in the browser, none was cancelled', async ({ driver }) => {
  test.skip(!driver.watchRequests, `${driver.version}: its driver reports no network events`);
  test.setTimeout(120_000);
  const ends = driver.watchRequests!((method, url) => method === 'POST' && url.endsWith('/credit-card-nonce'));
  await openCheckout(driver, merchant);
  for (const [name, text] of Object.entries(CARD)) await typeInto(driver, name as keyof typeof CARD, text);
  await expect.poll(async () => (await formState(driver)).isValid).toBe(true);
  const before = atSandbox();

  const nonces = await driver.run(undefined, async () => {
    const got: string[] = [];
    for (let i = 0; i < 100; i++) got.push((await (window as any).form.tokenize()).nonce);
    return got;
  });

  expect(new Set(nonces).size).toBe(100);
  expect(atSandbox() - before).toBe(100);
  await expect.poll(() => ends.finished + ends.failed.length).toBe(100);
  expect(ends).toEqual({ finished: 100, failed: [] });
});
