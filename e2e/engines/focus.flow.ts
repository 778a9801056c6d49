// The keyboard through the hosted form, as a person moves: Tab and Shift-Tab through the frames and
// out to the page, and focus handed to a field by the page (its <label>, form.focus()) followed by a
// click into another field and Tab (e2e/hosted-typing.spec.ts has more orders, in Chromium). Each key
// waits until the focus shows where the last one should have taken it, as a person sees the caret.
// Issue 17: after a click on the expiry's label and then into the number, 4, Tab, 2, Tab, 3 lost the 2
// in Chromium, and in WebKit left the page's activeElement on the expiry's iframe: the page had
// called iframe.focus().
import { type Merchant, startMerchant } from '../support/merchant';
import { expectNoProblems, field, focused, openCheckout, valueOf } from './harness/checkout';
import type { Driver } from './harness/driver';
import { expect, playedInChromiumBy, test } from './harness/test';

// Chromium plays these in e2e/hosted-typing.spec.ts with the same checks or more. Moved there from here:
// the Tab from the page through the four fields to Pay and back, and a key typed after form.focus().
playedInChromiumBy(
  'e2e/hosted-typing.spec.ts ("Tab through every field to Pay and back", "clicking the page\'s label", "the page focuses, clears")',
);

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant();
});
test.afterAll(() => merchant?.close());

const FIELDS = ['Card number', 'Expiry date', 'Security code', 'Name on card'];

/** Presses each key once the focus is where the person expects it. */
async function keys(driver: Driver, steps: [key: string, focusedBefore: string][]) {
  for (const [key, before] of steps) {
    await expect.poll(() => focused(driver), { message: `before ${key}` }).toBe(before);
    await driver.press(key);
  }
}
const values = (driver: Driver) => Promise.all((['number', 'expiry', 'cvv'] as const).map((f) => valueOf(driver, f)));

test('Tab and Shift-Tab move through the fields in order and out to the page', async ({ driver }) => {
  await openCheckout(driver, merchant);
  await driver.click({ label: 'Email' });
  await keys(driver, [
    ['Tab', 'Email'],
    ['Tab', FIELDS[0]!],
    ['Tab', FIELDS[1]!],
    ['Tab', FIELDS[2]!],
    ['Tab', FIELDS[3]!],
  ]);
  await keys(driver, [
    ['Shift+Tab', 'Pay 25.00 USD'],
    ['Shift+Tab', FIELDS[3]!],
    ['Shift+Tab', FIELDS[2]!],
    ['Shift+Tab', FIELDS[1]!],
    ['Shift+Tab', FIELDS[0]!],
  ]);
  await expect.poll(() => focused(driver)).toBe('Email');
  await expectNoProblems(driver, merchant);
});

test("the expiry's label, then a click into the number: 4, Tab, 2, Tab, 3 land in three fields", async ({ driver }) => {
  await openCheckout(driver, merchant);
  await driver.click({ text: 'Expiry date' });
  await expect.poll(() => focused(driver)).toBe('Expiry date');
  await driver.click(field('number'));
  await keys(driver, [
    ['4', 'Card number'],
    ['Tab', 'Card number'],
    ['2', 'Expiry date'],
    ['Tab', 'Expiry date'],
    ['3', 'Security code'],
  ]);
  expect(await values(driver)).toEqual(['4', '02 / ', '3']);
  await expectNoProblems(driver, merchant);
});

test('form.focus() outside a user gesture: Chromium and Firefox focus the field; WebKit lets no cross-origin frame take the focus', async ({
  driver,
}) => {
  await openCheckout(driver, merchant);
  await driver.run(undefined, () => (window as any).form.focus('expiry'));
  if (driver.engine === 'webkit') {
    // Nor did it with the page's iframe.focus() before the message: the iframe had the page's focus, its input not.
    await driver.type('1');
    await expect.poll(() => focused(driver)).toBe(null);
    expect(await valueOf(driver, 'expiry')).toBe('');
    return;
  }
  await keys(driver, [
    ['1', 'Expiry date'],
    ['Tab', 'Expiry date'],
    ['9', 'Security code'],
  ]);
  await driver.click(field('number'));
  await keys(driver, [
    ['4', 'Card number'],
    ['Tab', 'Card number'],
    ['2', 'Expiry date'],
  ]);
  expect(await values(driver)).toEqual(['4', '02 / ', '9']);
  await expectNoProblems(driver, merchant);
});
