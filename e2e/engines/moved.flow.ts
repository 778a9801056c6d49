// A field's container moved in the document (the merchant's layout drawn again): every engine makes
// the iframe anew, in a new window, empty. The page hears the new frame, says the field is empty and
// refuses a Pay naming it; typed again, the card pays (e2e/moved-fields.spec.ts: the races, in Chromium).
import { type Merchant, startMerchant } from '../support/merchant';
import { expectNoCardData, formState, openCheckout, textOf, typeInto, valueOf } from './harness/checkout';
import { expect, playedInChromiumBy, test } from './harness/test';

// Chromium plays it in e2e/moved-fields.spec.ts, which checks the refusal more closely (no nonce asked)
// and now also that the page never holds the card typed into the new frame. Here, the other engines alone.
playedInChromiumBy('e2e/moved-fields.spec.ts ("the CVV moved: the page says it is empty")');

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant();
});
test.afterAll(() => merchant?.close());

const CARD = { number: '4111111111111111', expiry: '1234', cvv: '123', name: 'Ada Lovelace' };

test('the CVV moved: empty, a Pay names it; typed again into the new frame, the card pays', async ({ driver }) => {
  await openCheckout(driver, merchant);
  for (const name of ['number', 'expiry', 'cvv', 'name'] as const) await typeInto(driver, name, CARD[name]);
  await expect.poll(async () => (await formState(driver)).isValid).toBe(true);

  await driver.run(undefined, () => {
    const container = document.querySelector('#card-cvv')!;
    container.parentElement!.append(container);
  });
  await expect.poll(async () => (await formState(driver)).fields.cvv.isEmpty).toBe(true);
  await expect.poll(() => valueOf(driver, 'cvv').catch(() => 'not loaded')).toBe('');
  await driver.click({ role: 'button', name: 'Pay 25.00 USD' });
  await expect.poll(() => textOf(driver, '#status')).toBe('invalid_card: cvv');

  await typeInto(driver, 'cvv', '456');
  await expect.poll(async () => (await formState(driver)).isValid).toBe(true);
  await driver.click({ role: 'button', name: 'Pay 25.00 USD' });
  await expect.poll(() => textOf(driver, '#status'), { timeout: 15_000 }).toBe('Paid: captured visa 1111');
  await expectNoCardData(driver, { ...CARD, cvv: '456' });
});
