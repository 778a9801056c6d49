// The demo's other path: "Pay on the bank's page". The checkout's server makes a session of the
// service's own payment page (played by the sandbox), the payer types the card there, pays, and the
// demo's return page shows the order paid, as for the redirect flow.
import { expect, test } from '@playwright/test';
import { testCards } from '../src/sandbox';
import { screenshot, useDemo, watchCsp } from './support/demo';

test.use({ ignoreHTTPSErrors: false });

const demo = useDemo();

test('the checkout sends the payer to the bank’s page, and the return page shows the order paid', async ({ page }, testInfo) => {
  const violations = await watchCsp(page);
  await page.goto(`${demo.shop}/checkout`);
  await expect(page.getByRole('button', { name: 'Pay on the bank’s page' })).toBeEnabled();
  await screenshot(page, testInfo, 'checkout-with-bank-page');
  await page.getByRole('button', { name: 'Pay on the bank’s page' }).click();
  await page.waitForURL(new RegExp(`^${demo.sandbox}/v1/hosted-page/[0-9a-f]{32}`));
  const card = testCards.approved;
  await page.getByLabel('Card number').fill(card.number);
  await page.getByLabel('Expiry date').fill('12 / 34');
  await page.getByLabel('Security code (CVV)').fill(card.cvv);
  await page.getByLabel('Name on card').fill('Ada Lovelace');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await page.waitForURL(new RegExp(`^${demo.shop}/return\\?payment-session-id=[0-9a-f]{32}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment approved');
  await expect(page.getByRole('status')).toHaveText('OMR 13.750 has been charged to your card.');
  await screenshot(page, testInfo, 'return-after-hosted-page');
  expect(await violations()).toEqual([]);
});
