// The hosted card form as a person types into it: formatting, brand, validity, paste, deletion,
// Arabic digits, the CVV's size, Enter, labels and the Tab order, in real Chromium with the frames on
// another origin than the page.
import { expect, type Page, test } from '@playwright/test';
import { type Merchant, startMerchant } from './support/merchant';
import { type Field, fillCard, frameOf, input, openCheckout, recorded, typeInto } from './support/page';
import { expectNoCardData, problemsOf, type Recorder, recordMerchant } from './support/recorder';

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant();
});
test.afterAll(() => merchant?.close());

/** What the page heard and logged, and its frames' console, while a person typed: nothing went wrong unseen. */
let recorder: Recorder;
test.beforeEach(async ({ page }) => {
  recorder = await recordMerchant(page);
});
test.afterEach(() => expect(problemsOf(recorder)).toEqual([]));

test('typing a card formats it, names the brand and reports validity, field by field', async ({ page }) => {
  await openCheckout(page, merchant);
  await typeInto(page, 'number', '4111111111111111');
  await expect(input(page, 'number')).toHaveValue('4111 1111 1111 1111');
  await typeInto(page, 'expiry', '1234');
  await expect(input(page, 'expiry')).toHaveValue('12 / 34');
  await typeInto(page, 'cvv', '123');
  await expect(input(page, 'cvv')).toHaveValue('123');

  const events = (await recorded(page)).events;
  expect(events.filter(([name]) => name === 'brandChange')).toEqual([['brandChange', 'number', 'visa']]);
  expect(events.filter(([name, field]) => name === 'change' && field === 'number')).toHaveLength(16);
  expect(events.filter(([name, field]) => name === 'validityChange' && field === 'number').length).toBeGreaterThan(0);
  const state = await page.evaluate(() => (window as any).form.getState());
  expect(state.fields).toEqual({
    number: { isEmpty: false, isValid: true, isPotentiallyValid: true, isFocused: false },
    expiry: { isEmpty: false, isValid: true, isPotentiallyValid: true, isFocused: false },
    cvv: { isEmpty: false, isValid: true, isPotentiallyValid: true, isFocused: true },
    name: { isEmpty: true, isValid: false, isPotentiallyValid: true, isFocused: false, reason: 'empty' },
  });
  expect(state.brand).toEqual({ id: 'visa', name: 'Visa', code: { name: 'CVV', size: 3 } });
  expect(state.isValid).toBe(false);
  await expect(page.locator('#card-number')).toHaveClass(/payframe-field--valid/);
  await expect(page.locator('#card-cvv')).toHaveClass(/payframe-field--focused/);
  await expect(page.locator('#card-name')).toHaveClass(/payframe-field--empty/);
});

test('an impossible number shows as invalid at once, an incomplete one when the person leaves it', async ({ page }) => {
  await openCheckout(page, merchant);
  // Mastercard numbers have 16 digits: a wrong check digit cannot be fixed by typing on.
  await typeInto(page, 'number', '5555555555554445');
  await expect(page.locator('#card-number')).toHaveClass(/payframe-field--invalid/);
  await expect(input(page, 'number')).toHaveAttribute('aria-invalid', 'true');
  await expect(input(page, 'number')).toHaveAccessibleDescription('Mastercard The card number is not valid.');
  await expect(page.locator('#number-hint')).toHaveText('Check the card number.');

  await input(page, 'number').fill('');
  await typeInto(page, 'number', '41111111');
  await expect(page.locator('#card-number')).not.toHaveClass(/payframe-field--invalid/);
  await typeInto(page, 'expiry', '00');
  await expect(page.locator('#card-number')).toHaveClass(/payframe-field--invalid/);
  await expect(input(page, 'number')).toHaveAccessibleDescription('Visa The card number is incomplete.');
  await expect(page.locator('#card-expiry')).toHaveClass(/payframe-field--invalid/);
  await expect(input(page, 'expiry')).toHaveAccessibleDescription('The expiry date is not valid.');
});

test('a Visa number with a wrong check digit reads as a typo once the payer leaves it, and may still grow to 19 digits', async ({
  page,
}) => {
  await openCheckout(page, merchant);
  await page.evaluate(() => {
    const w = window as any;
    w.blurs = [];
    w.form.on('blur', (state: any, field: string) => w.blurs.push([field, state.fields[field].reason ?? null]));
  });
  const number = input(page, 'number');
  // A Visa may have 19 digits: while the payer types, 16 with a wrong check digit is not shown as wrong.
  await typeInto(page, 'number', '4111111111111112');
  await expect(number).toHaveValue('4111 1111 1111 1112');
  await expect(number).toHaveAttribute('aria-invalid', 'false');
  // Left there, it is a mistyped digit: the payer reads "not valid", not "incomplete".
  await page.keyboard.press('Tab');
  await expect(page.locator('#card-number')).toHaveClass(/payframe-field--invalid/);
  await expect(number).toHaveAttribute('aria-invalid', 'true');
  await expect(number).toHaveAccessibleDescription('Visa The card number is not valid.');
  expect(await page.evaluate(() => (window as any).blurs)).toEqual([['number', 'invalid']]);
  expect((await page.evaluate(() => (window as any).form.getState())).fields.number.reason).toBe('invalid');
  await page.screenshot({ path: test.info().outputPath('typo.png') });

  // Back in the field, the payer may type on to 19 digits: a valid number.
  await number.click();
  await page.keyboard.press('End');
  await page.keyboard.type('001');
  await expect(number).toHaveValue('4111 1111 1111 1112 001');
  await page.keyboard.press('Tab');
  await expect(number).toHaveAttribute('aria-invalid', 'false');
  await expect(page.locator('#card-number')).toHaveClass(/payframe-field--valid/);
});

test('a paste is regrouped, and a same-brand paste over a number is one change', async ({ page }) => {
  await openCheckout(page, merchant);
  const number = input(page, 'number');
  await number.click();
  await frameOf(page, 'number')
    .locator('input')
    .evaluate((el: HTMLInputElement) => {
      // What a paste does: the browser inserts the text, then fires input with insertFromPaste.
      el.value = '5555-5555-5555-4444';
      el.dispatchEvent(new InputEvent('input', { inputType: 'insertFromPaste', bubbles: true }));
    });
  await expect(number).toHaveValue('5555 5555 5555 4444');
  const before = (await recorded(page)).events.filter(([name]) => name === 'change').length;
  await page.keyboard.press('ControlOrMeta+a');
  await frameOf(page, 'number')
    .locator('input')
    .evaluate((el: HTMLInputElement) => {
      el.value = '5105 1051 0510 5100';
      el.dispatchEvent(new InputEvent('input', { inputType: 'insertFromPaste', bubbles: true }));
    });
  await expect(number).toHaveValue('5105 1051 0510 5100');
  const events = (await recorded(page)).events;
  expect(events.filter(([name]) => name === 'change').length).toBe(before + 1);
  expect(events.filter(([name]) => name === 'brandChange')).toEqual([['brandChange', 'number', 'mastercard']]);
});

test('a real clipboard paste with the keyboard formats the number', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: merchant.url });
  await openCheckout(page, merchant);
  // The person copied the number somewhere else; the frame itself may not touch the clipboard.
  await page.evaluate(() => navigator.clipboard.writeText('3782-822463-10005'));
  await input(page, 'number').click();
  await page.keyboard.press('ControlOrMeta+v');
  await expect(input(page, 'number')).toHaveValue('3782 822463 10005');
  await expect.poll(async () => (await page.evaluate(() => (window as any).form.getState())).brand?.id).toBe('american-express');
});

test('backspace right after a space deletes the digit before it, and the caret stays put', async ({ page }) => {
  await openCheckout(page, merchant);
  await typeInto(page, 'number', '41111');
  await expect(input(page, 'number')).toHaveValue('4111 1');
  for (let i = 0; i < 1; i++) await page.keyboard.press('ArrowLeft');
  // caret is now right after the space: "4111 |1"
  await page.keyboard.press('Backspace');
  await expect(input(page, 'number')).toHaveValue('4111');
  await page.keyboard.type('9');
  await expect(input(page, 'number')).toHaveValue('4119 1');
});

test('Arabic-Indic and Persian digits typed on an Arabic keyboard are read as the card', async ({ page }) => {
  await openCheckout(page, merchant);
  await typeInto(page, 'number', '٤١١١١١١١١١١١١١١١');
  await expect(input(page, 'number')).toHaveValue('4111 1111 1111 1111');
  await typeInto(page, 'expiry', '۱۲۳۴');
  await expect(input(page, 'expiry')).toHaveValue('12 / 34');
  await typeInto(page, 'cvv', '١٢٣');
  await expect(input(page, 'cvv')).toHaveValue('123');
  const state = await page.evaluate(() => (window as any).form.getState());
  expect([state.fields.number.isValid, state.fields.expiry.isValid, state.fields.cvv.isValid]).toEqual([true, true, true]);
});

test('the CVV takes the size of the brand, and a full number refuses an extra digit', async ({ page }) => {
  await openCheckout(page, merchant);
  await typeInto(page, 'number', '3782822463100059');
  await expect(input(page, 'number')).toHaveValue('3782 822463 10005');
  await typeInto(page, 'cvv', '12345');
  await expect(input(page, 'cvv')).toHaveValue('1234');
  await expect.poll(async () => (await page.evaluate(() => (window as any).form.getState())).fields.cvv.isValid).toBe(true);

  // A digit typed in the middle of a full Mastercard number is refused too; the caret stays where it was.
  await input(page, 'number').fill('');
  await typeInto(page, 'number', '5555555555554444');
  await page.keyboard.type('4');
  await expect(input(page, 'number')).toHaveValue('5555 5555 5555 4444');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.type('5');
  await expect(input(page, 'number')).toHaveValue('5555 5555 5555 4444');
  expect(await input(page, 'number').evaluate((el: HTMLInputElement) => el.selectionStart)).toBe(1);
  // The CVV now takes 3 digits: the 4-digit value left from Amex shows as invalid.
  await expect(page.locator('#card-cvv')).toHaveClass(/payframe-field--invalid/);
});

test('Enter in a field submits: an invalid card is refused first, its fields named; corrected, the form pays', async ({ page }) => {
  await openCheckout(page, merchant);
  await fillCard(page, { number: '4111111111111112', expiry: '1234', cvv: '123' });
  await page.keyboard.press('Enter');
  await expect(page.locator('#status')).toHaveText('invalid_card: number, name');
  await expect(page.locator('#number-hint')).toHaveText('Check the card number.');
  // The last digit corrected as a person does it: a click after it (the brand's mark takes the input's end), Backspace.
  await input(page, 'number').click({ position: { x: 300, y: 20 } });
  await page.keyboard.press('Backspace');
  await page.keyboard.type('1');
  await typeInto(page, 'name', 'Ada Lovelace');
  await page.keyboard.press('Enter');
  await expect(page.locator('#status')).toHaveText('Paid: captured visa 1111', { timeout: 15_000 });
  await expect(page.locator('#number-hint')).toHaveText('');
  expect((await recorded(page)).events.filter(([name]) => name === 'submit')).toEqual([
    ['submit', 'cvv', 'visa'],
    ['submit', 'name', 'visa'],
  ]);
  for (const number of ['4111111111111112', '4111111111111111']) await expectNoCardData(recorder, { number, cvv: '123' });
});

test("clicking the page's label, or the container, focuses the field inside the frame", async ({ page }) => {
  await openCheckout(page, merchant);
  await page.getByText('Expiry date', { exact: true }).click();
  await expect(input(page, 'expiry')).toBeFocused();
  await page.keyboard.type('1');
  await expect(input(page, 'expiry')).toHaveValue('1');
  await page.locator('#card-number').click({ position: { x: 2, y: 2 } });
  await expect(input(page, 'number')).toBeFocused();
  await expect(page.locator('#card-number')).toHaveClass(/payframe-field--focused/);
});

test('a label in a shadow root focuses a field whose container is in that shadow root', async ({ page }) => {
  await openCheckout(page, merchant, { auto: '0' });
  await page.evaluate(() => {
    const host = document.createElement('div');
    document.querySelector('main')!.prepend(host);
    const root = host.attachShadow({ mode: 'open' });
    const make = (tag: string, props: Record<string, string>) => Object.assign(document.createElement(tag), props);
    for (const name of ['number', 'expiry', 'cvv']) {
      root.append(make('label', { htmlFor: `shadow-${name}`, textContent: `Shadow ${name}` }), make('div', { id: `shadow-${name}` }));
    }
    const w = window as any;
    w.form = w.Payframe.mountFields({
      client: w.client,
      fields: {
        number: { container: root.getElementById('shadow-number') },
        expiry: { container: root.getElementById('shadow-expiry') },
        cvv: { container: root.getElementById('shadow-cvv') },
      },
    });
    return w.form.ready;
  });
  await page.getByText('Shadow cvv').click();
  await expect(page.frameLocator('#shadow-cvv iframe').getByLabel('Shadow cvv')).toBeFocused();
});

test('the page focuses, clears and sets a placeholder of a field through the form', async ({ page }) => {
  await openCheckout(page, merchant);
  await typeInto(page, 'number', '4111111111111111');
  await page.evaluate(() => (window as any).form.focus('cvv'));
  await expect(input(page, 'cvv')).toBeFocused();
  // Focused with no gesture of the person's, the field takes the keys too, not only the focus.
  await page.keyboard.type('7');
  await expect(input(page, 'cvv')).toHaveValue('7');
  await expect.poll(async () => (await page.evaluate(() => (window as any).form.getState())).fields.cvv.isEmpty).toBe(false);
  const before = (await recorded(page)).events.length;
  await page.evaluate(() => (window as any).form.clear('number'));
  await expect(input(page, 'number')).toHaveValue('');
  await expect.poll(async () => (await page.evaluate(() => (window as any).form.getState())).fields.number.isEmpty).toBe(true);
  expect((await recorded(page)).events.slice(before)).toEqual([
    ['change', 'number', null],
    ['validityChange', 'number', null],
    ['brandChange', 'number', null],
  ]);
  await page.evaluate(() => (window as any).form.setPlaceholder('name', 'As on the card'));
  await expect(input(page, 'name')).toHaveAttribute('placeholder', 'As on the card');
});

// Issue 17: focus handed to a field by the page (its <label>, its container, form.focus()), then a
// click into another field and the keyboard. The page once called iframe.focus() before asking the frame
// to focus its input; Chromium kept that iframe as the page's focused element after the click into
// another frame, so the next Tab "moved" to it and the key after was lost: 4, Tab, 2, Tab, 3 gave 4, (nothing), 3.
// Each key waits until the focus shows where the last one took it, as a person sees the caret.
type Step = [key: string, focusedBefore: Field | 'email' | 'pay'];
const target = (page: Page, name: Step[1]) =>
  name === 'email' ? page.locator('#email') : name === 'pay' ? page.getByRole('button', { name: 'Pay 25.00 USD' }) : input(page, name);
async function keys(page: Page, steps: Step[]) {
  for (const [key, before] of steps) {
    await expect(target(page, before)).toBeFocused();
    await page.keyboard.press(key);
  }
}
const values = (page: Page) => Promise.all((['number', 'expiry', 'cvv'] as const).map((f) => input(page, f).inputValue()));

test("a field's label, then typing, Tab and Shift-Tab", async ({ page }) => {
  await openCheckout(page, merchant);
  await page.getByText('Card number', { exact: true }).click();
  await keys(page, [
    ['4', 'number'],
    ['Tab', 'number'],
    ['1', 'expiry'],
    ['2', 'expiry'],
    ['Tab', 'expiry'],
    ['3', 'cvv'],
    ['Shift+Tab', 'cvv'],
    ['Shift+Tab', 'expiry'],
  ]);
  await expect(input(page, 'number')).toBeFocused();
  expect(await values(page)).toEqual(['4', '12 / ', '3']);
});

test("a click on a field's container, typing, then a click into another field, Tab and Shift-Tab out to the page, and Tab through every field to Pay and back", async ({
  page,
}) => {
  await openCheckout(page, merchant);
  await page.locator('#card-expiry').click({ position: { x: 2, y: 2 } });
  await keys(page, [
    ['1', 'expiry'],
    ['2', 'expiry'],
  ]);
  await input(page, 'number').click();
  // Tab selects the expiry's text: the 0 and 9 replace it.
  await keys(page, [
    ['4', 'number'],
    ['Tab', 'number'],
    ['0', 'expiry'],
    ['9', 'expiry'],
    ['Shift+Tab', 'expiry'],
    ['Shift+Tab', 'number'],
  ]);
  await expect(page.locator('#email')).toBeFocused();
  expect(await values(page)).toEqual(['4', '09 / ', '']);
  // From the page's own field into the frames, through all four in order, out onto its Pay button and back.
  await keys(page, [
    ['Tab', 'email'],
    ['Tab', 'number'],
    ['Tab', 'expiry'],
    ['Tab', 'cvv'],
    ['Tab', 'name'],
    ['Shift+Tab', 'pay'],
    ['Shift+Tab', 'name'],
  ]);
  await expect(input(page, 'cvv')).toBeFocused();
});

test('form.focus() from a click of the page, typing, then a click into another field and Tab', async ({ page }) => {
  await openCheckout(page, merchant);
  // The merchant's page focuses a field when the person clicks something of its own (say, "Edit card").
  await page.evaluate(() => document.getElementById('shop')!.addEventListener('click', () => (window as any).form.focus('expiry')));
  await page.getByText('Corner Bookshop').click();
  await keys(page, [
    ['1', 'expiry'],
    ['2', 'expiry'],
  ]);
  await input(page, 'number').click();
  await keys(page, [
    ['4', 'number'],
    ['Tab', 'number'],
    ['0', 'expiry'],
    ['9', 'expiry'],
    ['Tab', 'expiry'],
    ['3', 'cvv'],
  ]);
  expect(await values(page)).toEqual(['4', '09 / ', '3']);
});
