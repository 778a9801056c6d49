// The control of every flow's "zero CSP violations": in this engine, a violation on the merchant's page
// and one in a frame are seen by the watch, and the page's violation reaches its report-uri.
import { type Merchant, startMerchant } from '../support/merchant';
import { field, openCheckout } from './harness/checkout';
import { expect, test } from './harness/test';
import { problems } from './harness/watch';

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant();
});
test.afterAll(() => merchant?.close());

test('the CSP watch sees a violation on the page and in a frame (so that zero means zero)', async ({ driver }) => {
  await openCheckout(driver, merchant);
  expect(await problems(driver)).toEqual([]);
  await driver.run(undefined, () => document.body.setAttribute('style', 'color: red'));
  await driver.run(field('cvv').in, () => document.body.setAttribute('style', 'color: red'));
  const seen = async () => (await problems(driver)).map((p) => p.replace(/ style-src(-attr)? .*/, ' style-src')).sort();
  // The frame's twice: under its host's header and its own page's meta policy (docs/security.md).
  await expect.poll(seen).toEqual([`${merchant.sandbox.url} style-src`, `${merchant.sandbox.url} style-src`, `${merchant.url} style-src`]);
  await expect.poll(() => merchant.reports.length, { timeout: 10_000 }).toBeGreaterThan(0);
});
