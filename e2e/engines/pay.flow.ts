// A payer types a card into the hosted form and pays: typed key by key, formatted, tokenised by the
// frames, paid by the merchant's server; and the merchant's page never held the card.
import { type Merchant, startMerchant } from '../support/merchant';
import {
  expectNoCardData,
  expectNoProblems,
  field,
  focused,
  formState,
  openCheckout,
  recorded,
  textOf,
  typeInto,
  valueOf,
} from './harness/checkout';
import { expect, test } from './harness/test';

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant();
});
test.afterAll(() => merchant?.close());

const CARD = { number: '4111111111111111', expiry: '1234', cvv: '123', name: 'Ada Lovelace' };

test('a card typed into the hosted form is formatted, tokenised and paid; the page never holds it', async ({ driver }) => {
  await openCheckout(driver, merchant);
  await typeInto(driver, 'number', CARD.number);
  await expect.poll(() => valueOf(driver, 'number')).toBe('4111 1111 1111 1111');
  await typeInto(driver, 'expiry', CARD.expiry);
  await expect.poll(() => valueOf(driver, 'expiry')).toBe('12 / 34');
  await typeInto(driver, 'cvv', CARD.cvv);
  await typeInto(driver, 'name', CARD.name);
  await expect.poll(() => focused(driver)).toBe('Name on card');
  await expect.poll(async () => (await formState(driver)).isValid).toBe(true);
  expect((await formState(driver)).brand).toEqual({ id: 'visa', name: 'Visa', code: { name: 'CVV', size: 3 } });

  await driver.click({ role: 'button', name: 'Pay 25.00 USD' });
  await expect.poll(() => textOf(driver, '#status'), { timeout: 15_000 }).toBe('Paid: captured visa 1111');
  expect((await recorded(driver)).events.filter(([name]) => name === 'brandChange')).toEqual([['brandChange', 'number', 'visa']]);
  await expectNoCardData(driver, CARD);
  await expectNoProblems(driver, merchant);
});

test('Enter in the last field pays; an invalid card is refused first, its fields marked', async ({ driver }) => {
  await openCheckout(driver, merchant);
  await typeInto(driver, 'number', '4111111111111112');
  await typeInto(driver, 'expiry', CARD.expiry);
  await typeInto(driver, 'cvv', CARD.cvv);
  await driver.press('Enter');
  await expect.poll(() => textOf(driver, '#status')).toBe('invalid_card: number, name');
  await expect.poll(() => textOf(driver, '#number-hint')).toBe('Check the card number.');

  // After the last digit, as a person clicks to correct it (the input's centre is inside the number: the brand's mark takes its end).
  await driver.click({ label: 'Card number', in: '#card-number iframe', at: { x: 300, y: 20 } });
  await driver.press('Backspace');
  await driver.type('1');
  await typeInto(driver, 'name', CARD.name);
  await driver.press('Enter');
  await expect.poll(() => textOf(driver, '#status'), { timeout: 15_000 }).toBe('Paid: captured visa 1111');
  await expect.poll(() => textOf(driver, '#number-hint')).toBe('');
  await expectNoCardData(driver, { ...CARD, number: '4111111111111112' });
  await expectNoProblems(driver, merchant);
});

test("the CVV's last digit, then tokenize at once: the frames send the card with it (issue 21 item 4)", async ({ driver }) => {
  await openCheckout(driver, merchant);
  await typeInto(driver, 'number', CARD.number);
  await typeInto(driver, 'expiry', CARD.expiry);
  await typeInto(driver, 'cvv', CARD.cvv.slice(0, -1));
  await typeInto(driver, 'name', CARD.name);
  await driver.click(field('cvv')); // the caret after its two digits: the click is past their end
  // The last key and the page's call, with nothing in between: the page has not heard the CVV complete
  // yet (its state may lag the key); the page's tokenize asks the CVV frame to share its value as it is then.
  await driver.type(CARD.cvv.slice(-1));
  const { heard, outcome } = await driver.run(undefined, async () => {
    const form = (window as any).form;
    const heard = form.getState().fields.cvv.isValid as boolean;
    const outcome = await form.tokenize().then(
      (r: any) => ({ last4: r.last4 }),
      (e: any) => ({ code: e.code, fields: e.fields }),
    );
    return { heard, outcome };
  });
  test.info().annotations.push({ type: 'the page had heard the last digit when it called tokenize()', description: String(heard) });
  expect(outcome).toEqual({ last4: '1111' });
  await expectNoCardData(driver, CARD);
});
