// The brand's mark in the number frame and the disabled form, in Chromium, the merchant page and the
// frames on two origins: the mark and the name a screen reader hears change as a person types, in
// English and in Arabic (the mark on the other side); `brandMark: false` shows none; a disabled form
// takes no key and says so, and takes keys again once enabled.
import { expect, type Page, test } from '@playwright/test';
import { type Merchant, startMerchant } from './support/merchant';
import { frameOf, input, openCheckout, recorded, typeInto } from './support/page';
import { problemsOf, recordMerchant } from './support/recorder';

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant();
});
test.afterAll(() => merchant?.close());

const mark = (page: Page) => frameOf(page, 'number').locator('svg');
/** The mark's colour and word, as drawn. */
const drawn = (page: Page) =>
  mark(page).evaluate((svg) => ({ fill: svg.querySelector('rect')!.getAttribute('fill'), word: svg.querySelector('text')!.textContent }));
/** Which side of the input the mark is on. */
const side = async (page: Page, label?: string) => {
  const [box, field] = await Promise.all([mark(page).boundingBox(), input(page, 'number', label).boundingBox()]);
  return box!.x > field!.x ? 'right' : 'left';
};
async function remount(page: Page, extra: Record<string, unknown>): Promise<void> {
  await page.evaluate((options) => {
    const w = window as any;
    w.form = w.mount(options);
    return w.form.ready;
  }, extra);
}

test('the mark and the name a screen reader hears follow the brand as a person types a Visa, then a Mastercard', async ({ page }, info) => {
  const recorder = await recordMerchant(page);
  await openCheckout(page, merchant);
  const number = input(page, 'number');
  await expect(mark(page)).toBeVisible();
  expect(await drawn(page)).toEqual({ fill: 'none', word: '' }); // a neutral card while the brand is unknown
  await expect(number).toHaveAccessibleDescription('');
  // A 4 could still be Elo (4011…): the card stays neutral until the 1.
  await typeInto(page, 'number', '4');
  await expect(number).toHaveValue('4');
  expect(await drawn(page)).toEqual({ fill: 'none', word: '' });
  await expect(number).toHaveAccessibleDescription('');
  await page.keyboard.type('1');
  await expect.poll(() => drawn(page)).toEqual({ fill: '#127', word: 'VISA' });
  await page.keyboard.type('11 1111 1111 1111');
  expect(await drawn(page)).toEqual({ fill: '#127', word: 'VISA' });
  await expect(number).toHaveAccessibleDescription('Visa');
  // Said as it changes, in a polite live region.
  await expect(frameOf(page, 'number').locator('[aria-live=polite]')).toHaveText('Visa');
  expect(await side(page)).toBe('right');
  await page.screenshot({ path: info.outputPath('mark-visa-en.png'), fullPage: true });
  await page.evaluate(() => (window as any).form.clear('number'));
  await expect.poll(() => drawn(page)).toEqual({ fill: 'none', word: '' });
  await expect(number).toHaveAccessibleDescription('');
  // Known from its first two digits.
  await typeInto(page, 'number', '51');
  await expect.poll(() => drawn(page)).toEqual({ fill: '#e21', word: 'MC' });
  await expect(number).toHaveAccessibleDescription('Mastercard');
  await page.keyboard.type('05105105105100');
  expect(await drawn(page)).toEqual({ fill: '#e21', word: 'MC' });
  await expect(number).toHaveAccessibleDescription('Mastercard');
  await page.screenshot({ path: info.outputPath('mark-mastercard-en.png'), fullPage: true });
  // A wrong number: the brand's name, then the error.
  await page.keyboard.press('Backspace');
  await page.keyboard.type('5');
  await page.keyboard.press('Tab');
  await expect(number).toHaveAccessibleDescription('Mastercard The card number is not valid.');
  expect((await recorded(page)).violations).toEqual([]);
  expect(problemsOf(recorder)).toEqual([]);
});

test('in Arabic the mark is on the other side, and the brand is said by its own name', async ({ page }, info) => {
  await openCheckout(page, merchant, { locale: 'ar' });
  await input(page, 'number', 'رقم البطاقة').click();
  await page.keyboard.type('٤١١١١١١١١١١١١١١١');
  expect(await drawn(page)).toEqual({ fill: '#127', word: 'VISA' });
  await expect(input(page, 'number', 'رقم البطاقة')).toHaveAccessibleDescription('Visa');
  expect(await side(page, 'رقم البطاقة')).toBe('left');
  await page.screenshot({ path: info.outputPath('mark-visa-ar.png'), fullPage: true });
});

test('brandMark: false shows no mark and says no brand', async ({ page }) => {
  await openCheckout(page, merchant, { auto: '0' });
  await remount(page, { brandMark: false });
  await typeInto(page, 'number', '4111111111111111');
  await expect(input(page, 'number')).toHaveValue('4111 1111 1111 1111');
  await expect(mark(page)).toHaveCount(0);
  await expect(input(page, 'number')).toHaveAccessibleDescription('');
  // Checked by the frames, where it applies: `ready` rejects, and no field is left.
  await page.evaluate(() => (window as any).form.destroy());
  const refusals = await page.evaluate(async () => {
    const refused = (options: object) =>
      (window as any).mount(options).ready.then(
        () => null,
        (e: any) => ({ code: e.code, message: e.message }),
      );
    return [
      await refused({ brandMark: 'off' }),
      await refused({
        fields: {
          number: { container: '#card-number', label: 'x'.repeat(201) },
          expiry: { container: '#card-expiry' },
          cvv: { container: '#card-cvv' },
        },
      }),
    ];
  });
  expect(refusals[0]).toEqual({ code: 'invalid_config', message: 'mountFields: brandMark must be true or false' });
  expect(refusals[1]).toMatchObject({ code: 'invalid_config', message: expect.stringContaining('at most 200 characters') });
  await expect(page.locator('iframe')).toHaveCount(0);
});

test('a disabled form takes no key and says it is disabled; enabled again, it takes keys and kept what was typed', async ({
  page,
}, info) => {
  const recorder = await recordMerchant(page);
  await openCheckout(page, merchant);
  await typeInto(page, 'expiry', '12');
  const expiry = '12 / ';
  await expect(input(page, 'expiry')).toHaveValue(expiry);
  await page.evaluate(() => (window as any).form.setDisabled(true));
  for (const field of ['number', 'expiry', 'cvv', 'name'] as const) await expect(input(page, field)).toBeDisabled();
  await expect(frameOf(page, 'number').locator('body')).toMatchAriaSnapshot('- textbox "Card number" [disabled]');
  // A click and keys reach nothing, nor does Tab to the next field: the field stays empty, the expiry keeps its two digits.
  await input(page, 'number').click({ force: true });
  await page.keyboard.type('4111');
  await page.keyboard.press('Tab');
  await page.keyboard.type('9');
  await expect(input(page, 'number')).toHaveValue('');
  await expect(input(page, 'expiry')).toHaveValue(expiry);
  await expect(input(page, 'number')).toHaveCSS('color', 'rgb(110, 119, 129)');
  await page.screenshot({ path: info.outputPath('disabled.png'), fullPage: true });
  await page.evaluate(() => (window as any).form.setDisabled(false));
  for (const field of ['number', 'expiry', 'cvv', 'name'] as const) await expect(input(page, field)).toBeEnabled();
  await typeInto(page, 'number', '4111');
  await expect(input(page, 'number')).toHaveValue('4111');
  await expect(input(page, 'expiry')).toHaveValue(expiry);
  expect((await recorded(page)).violations).toEqual([]);
  expect(problemsOf(recorder)).toEqual([]);
});
