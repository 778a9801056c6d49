// docs/frameworks.md's plain page, as written: <payframe-card-fields> from payframe.element.min.js beside
// the script-tag bundle, under the merchant's strict CSP and Trusted Types. The payer types, the page's
// `locale` attribute turns the fields in place, and Enter pays once (the element's `submit` does not bubble
// into the page's form, which the frame submits): its answer is lost on the way back, and the page, which
// posts to gateway.handlers.pay, asks for its attempt until it is paid, charged once. No style attribute added.
import { readFile } from 'node:fs/promises';
import { readmeBlock } from '../../test/readme';
import { type Merchant, startMerchant } from '../support/merchant';
import { expectNoCardData, expectNoProblems, field, textOf, typeInto, valueOf } from './harness/checkout';
import { expect, test } from './harness/test';
import { watchAll } from './harness/watch';

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant({ payAttempts: true });
  const page = readmeBlock('frameworks/plain/page.html')
    .replace('your-merchant-id', merchant.sandbox.merchant.id)
    .replace('https://gateway.example', merchant.sandbox.url);
  // The test's recorder first (what the page heard, for expectNoCardData), then the page as the doc writes it.
  const html = `<!doctype html>\n<html lang="en"><meta charset="utf-8"><title>Checkout</title>\n<script src="/record.js"></script>\n${page}</html>\n`;
  const files: [string, string, string | Buffer][] = [
    ['/plain', 'text/html; charset=utf-8', html],
    ['/checkout.js', 'text/javascript', readmeBlock('frameworks/plain/checkout.js')],
    ['/card.css', 'text/css', readmeBlock('hosted/page.css')],
    ['/record.js', 'text/javascript', await readFile('e2e/frameworks/record.js')],
    ['/payframe.element.min.js', 'text/javascript', await readFile('dist/payframe.element.min.js')],
  ];
  for (const [path, type, body] of files) merchant.files.set(path, { type, body });
});
test.afterAll(() => merchant?.close());

const CARD = { number: '4111111111111111', expiry: '1234', cvv: '123' };
const payDisabled = (driver: Parameters<typeof valueOf>[0]) => driver.run(undefined, () => document.querySelector('button')!.disabled);

test('the plain page: typed, turned to Arabic in place, paid with Enter once though its answer was lost; no style attribute added', async ({
  driver,
}) => {
  await driver.goto(`${merchant.url}/plain`);
  await expect
    .poll(() => driver.run(undefined, () => (window as any).recorded.events.some(([name]: [string]) => name === 'ready')), {
      timeout: 15_000,
    })
    .toBe(true);
  await watchAll(driver);
  expect(await payDisabled(driver)).toBe(true);
  for (const name of ['number', 'expiry', 'cvv'] as const) await typeInto(driver, name, CARD[name]);
  await expect.poll(() => payDisabled(driver)).toBe(false);

  // The page's attribute, applied by the element in place: what was typed stays.
  await driver.run(undefined, () => document.querySelector('payframe-card-fields')!.setAttribute('locale', 'ar'));
  await expect.poll(() => driver.run(field('cvv').in, () => document.documentElement.dir)).toBe('rtl');
  expect(await valueOf(driver, 'number')).toBe('4111 1111 1111 1111');

  // Enter pays, and the shop's answer is lost on its way back: the page asks by its attempt, never pays again.
  merchant.losePayAnswers = 1;
  await driver.click(field('cvv'));
  await driver.press('Enter');
  await expect.poll(() => textOf(driver, '[role=status]'), { timeout: 15_000 }).toBe('We are checking your payment. Do not pay again.');
  expect(await payDisabled(driver)).toBe(true);
  await expect.poll(() => textOf(driver, '[role=status]'), { timeout: 15_000 }).toBe('Paid');
  expect(merchant.losePayAnswers).toBe(0);
  expect(merchant.requests.filter((r) => r.method === 'POST' && r.path === '/pay')).toHaveLength(1);
  expect(merchant.requests.filter((r) => r.method === 'GET' && r.path === '/pay').length).toBeGreaterThan(0);
  expect(await payDisabled(driver)).toBe(true);
  expect(merchant.sandbox.sizes().payments).toBe(1); // one charge, at the gateway
  // The frames' own height is mountFields', set through the CSSOM, which the CSP allows: the element adds none.
  expect(await driver.run(undefined, () => document.querySelectorAll('[style]:not(iframe)').length)).toBe(0);
  expect(await driver.run(undefined, () => (window as any).recorded.errors)).toEqual([]);
  await expectNoCardData(driver, CARD);
  await expectNoProblems(driver, merchant);
});
