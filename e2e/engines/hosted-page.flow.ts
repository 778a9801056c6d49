// The service's own payment page, in every engine: a shop with no card on its pages sends the payer to
// the page (played by the sandbox), the payer types the card field by field, found by their labels,
// Tab from one to the next, pays with Enter, and comes back to a paid order. The OTP card confirms in
// the page. Screenshots, a page that expires and a closed tab: e2e/hosted-page.spec.ts (Chromium).
import { testCards } from '../../src/sandbox';
import { type HostedShop, startHostedShop } from '../support/hosted-shop';
import type { Driver } from './harness/driver';
import { expect, playedInChromiumBy, test } from './harness/test';

let shop: HostedShop;
test.beforeAll(async () => {
  shop = await startHostedShop();
});
test.afterAll(() => shop?.close());

// Read while the tab navigates: a page torn down mid-read answers nothing, and the poll asks again.
const here = (driver: Driver) => driver.run(undefined, () => location.href).catch(() => '');
const statusText = (driver: Driver) =>
  driver.run(undefined, () => document.querySelector('[role=status]')?.textContent ?? null).catch(() => null);
const focusedLabel = (driver: Driver) =>
  driver.run(undefined, () => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ?? null);

/** From the shop's checkout to the service's page, then the card typed as a payer types it. */
async function payOnPage(driver: Driver, card: { number: string; cvv: string }) {
  await driver.goto(shop.url);
  await driver.click({ role: 'button', name: "Pay on the bank's page" });
  await expect.poll(() => here(driver), { timeout: 10_000 }).toMatch(new RegExp(`^${shop.sandbox.url}/v1/hosted-page/[0-9a-f]{32}`));
  await driver.click({ label: 'Card number' });
  await driver.type(card.number);
  await driver.press('Tab');
  expect(await focusedLabel(driver)).toBe('Expiry date');
  await driver.type('12/34');
  await driver.press('Tab');
  expect(await focusedLabel(driver)).toBe('Security code (CVV)');
  await driver.type(card.cvv);
  await driver.press('Tab');
  await driver.type('Ada Lovelace');
  await driver.press('Enter');
}

// Chromium plays it in e2e/hosted-page.spec.ts, which also checks the fields' autofill names and axe-core.
test.describe(() => {
  playedInChromiumBy('e2e/hosted-page.spec.ts ("the fields are named for autofill and labelled")');
  test('a payer types the card by label on the hosted page, pays, and returns to a paid order', async ({ driver }) => {
    await payOnPage(driver, testCards.approved);
    await expect.poll(() => statusText(driver), { timeout: 15_000 }).toBe('Thank you: your order is paid.');
    expect(await here(driver)).toMatch(new RegExp(`^${shop.url}/checkout/return\\?payment-session-id=[0-9a-f]{32}$`));
    expect([...shop.orders.values()].at(-1)).toBe('captured');
  });
});

test('the OTP card confirms on the hosted page, by the keyboard', async ({ driver }) => {
  await payOnPage(driver, testCards.otp);
  await driver.click({ label: 'One-time password' });
  await driver.type(testCards.otp.otp);
  await driver.press('Enter');
  await expect.poll(() => statusText(driver), { timeout: 15_000 }).toBe('Thank you: your order is paid.');
  expect([...shop.orders.values()].at(-1)).toBe('captured');
});
