// docs/frameworks.md's plain page, as written: <payframe-card-fields> from payframe.element.min.js beside
// the script-tag bundle, under the merchant's strict CSP and Trusted Types. Enter in a field pays once (the
// element's `submit` does not bubble into the page's form); the element's attributes apply in place. The
// payer's flows with Vue and Svelte run in every engine (e2e/engines/element-*.flow.ts).
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { readmeBlock } from '../test/readme';
import { type Merchant, startMerchant } from './support/merchant';
import { input, typeInto } from './support/page';

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant();
  const page = readmeBlock('frameworks/plain/page.html')
    .replace('your-merchant-id', merchant.sandbox.merchant.id)
    .replace('https://gateway.example', merchant.sandbox.url);
  const html = `<!doctype html>\n<html lang="en"><meta charset="utf-8"><title>Checkout</title>\n${page}</html>\n`;
  merchant.files.set('/plain', { type: 'text/html; charset=utf-8', body: html });
  merchant.files.set('/checkout.js', { type: 'text/javascript', body: readmeBlock('frameworks/plain/checkout.js') });
  merchant.files.set('/card.css', { type: 'text/css', body: readmeBlock('hosted/page.css') });
  merchant.files.set('/payframe.element.min.js', { type: 'text/javascript', body: await readFile('dist/payframe.element.min.js') });
});
test.afterAll(() => merchant?.close());

test('the plain page pays with Enter, once; the locale applies in place; nothing breaks its CSP', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${merchant.url}/plain`);
  const pay = page.getByRole('button', { name: 'Pay' });
  await expect(pay).toBeDisabled();
  await typeInto(page, 'number', '4111111111111111');
  await typeInto(page, 'expiry', '1234');
  await typeInto(page, 'cvv', '123');
  await expect(pay).toBeEnabled();

  // Attributes a page changes, applied by the element in place: what was typed stays.
  await page.evaluate(() => document.querySelector('payframe-card-fields')!.setAttribute('locale', 'ar'));
  await expect(input(page, 'cvv')).toHaveAttribute('dir', 'ltr'); // digits stay left to right
  await expect.poll(() => page.frameLocator('#card-cvv iframe').locator('html').getAttribute('dir')).toBe('rtl');
  await page.evaluate(() => document.querySelector('payframe-card-fields')!.setAttribute('locale', 'en'));
  await expect(input(page, 'number')).toHaveValue('4111 1111 1111 1111');

  await input(page, 'cvv').press('Enter');
  await expect(page.getByRole('status')).toHaveText('Paid: captured', { timeout: 15_000 });
  expect(merchant.requests.filter((r) => r.path === '/pay')).toHaveLength(1);
  // The element adds no style attribute (the frames' own size is mountFields', set through the CSSOM, which the CSP allows).
  expect(await page.evaluate(() => document.querySelectorAll('[style]:not(iframe)').length)).toBe(0);
  expect(problems).toEqual([]);
  expect(merchant.reports).toEqual([]);
});
