// The merchant's own words, as a person meets them in Chromium, the frames on another origin than the
// page: error texts and a placeholder of its own over payframe's English, a French locale payframe
// does not ship (given whole, with its direction), a locale given with a text missing refused, and the
// OTP form in the merchant's words.
import { expect, type Page, test, type TestInfo } from '@playwright/test';
import { testCards } from '../src/sandbox';
import { type Merchant, startMerchant } from './support/merchant';
import { fillCard, frameOf, input, openCheckout, recorded, typeInto } from './support/page';
import { FR } from './support/fr-texts';
import { problemsOf, recordMerchant } from './support/recorder';

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant();
});
test.afterAll(() => merchant?.close());

/** Mounts the checkout's form with these options and waits for `ready`. */
async function mount(page: Page, options: Record<string, unknown>): Promise<void> {
  await openCheckout(page, merchant, { auto: '0' });
  await page.waitForFunction(() => typeof (window as any).mount === 'function');
  await page.evaluate((o) => {
    (window as any).form = (window as any).mount(o);
  }, options);
  await expect.poll(async () => (await recorded(page)).events.some(([name]) => name === 'ready'), { timeout: 15_000 }).toBe(true);
}

async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

test("a field says the merchant's own error text, and shows its placeholder, over payframe's English", async ({ page }, testInfo) => {
  const recorder = await recordMerchant(page);
  const numberInvalid = 'That is not a card number we know <b>yet</b>.';
  const expiryExpired = 'This card is past its date.';
  const numberUnsupportedBrand = 'We take Visa, Mastercard, Amex and Discover.';
  await mount(page, { texts: { en: { numberInvalid, expiryExpired, numberUnsupportedBrand, expiryPlaceholder: 'month / year' } } });
  await expect(input(page, 'expiry')).toHaveAttribute('placeholder', 'month / year');
  await screenshot(page, testInfo, 'merchant-placeholder');
  // Mastercard numbers have 16 digits: a wrong check digit shows as invalid at once.
  await typeInto(page, 'number', '5555555555554445');
  await expect(input(page, 'number')).toHaveAttribute('aria-invalid', 'true');
  // The markup is the characters typed: no element was made of it.
  // The brand's name first (the mark's live text), then the error.
  await expect(input(page, 'number')).toHaveAccessibleDescription(`Mastercard ${numberInvalid}`);
  await expect(frameOf(page, 'number').locator('b')).toHaveCount(0);
  // A card past its date, said once the person leaves the field, and a brand the merchant does not take.
  await typeInto(page, 'expiry', '0120');
  await input(page, 'number').click();
  await expect(input(page, 'expiry')).toHaveAccessibleDescription(expiryExpired);
  await input(page, 'number').fill('');
  await typeInto(page, 'number', '35');
  await expect(input(page, 'number')).toHaveAccessibleDescription(`JCB ${numberUnsupportedBrand}`);
  // The other texts are payframe's.
  await input(page, 'expiry').fill('');
  await typeInto(page, 'expiry', '00');
  await expect(input(page, 'expiry')).toHaveAccessibleDescription('The expiry date is not valid.');
  expect((await recorded(page)).violations).toEqual([]);
  // Nor in a frame.
  expect(problemsOf(recorder)).toEqual([]);
});

test('a French locale given whole: its texts and direction, and a right-to-left one of its own applied in place', async ({
  page,
}, testInfo) => {
  await mount(page, { locale: 'fr', texts: { fr: FR, fa: { ...FR, dir: 'rtl', expiryPlaceholder: 'ماه / سال' } } });
  const html = frameOf(page, 'expiry').locator('html');
  await expect(html).toHaveAttribute('lang', 'fr');
  await expect(html).toHaveAttribute('dir', 'ltr');
  await expect(input(page, 'expiry')).toHaveAttribute('placeholder', 'MM / AA');
  await typeInto(page, 'expiry', '13');
  await typeInto(page, 'cvv', '1');
  // 13 is no month: read as 01 / 3, a year not finished: incomplete, in the merchant's words.
  await expect(input(page, 'expiry')).toHaveValue('01 / 3');
  await expect(input(page, 'expiry')).toHaveAccessibleDescription("La date d'expiration est incomplète.");
  await screenshot(page, testInfo, 'merchant-locale-fr');

  await page.evaluate(() => (window as any).form.setLocale('fa'));
  await expect(html).toHaveAttribute('dir', 'rtl');
  await expect(html).toHaveAttribute('lang', 'fa');
  await expect(input(page, 'expiry')).toHaveValue('01 / 3');
  await expect(input(page, 'cvv')).toHaveValue('1');
  await input(page, 'expiry').fill('');
  await expect(input(page, 'expiry')).toHaveAttribute('placeholder', 'ماه / سال');
  await screenshot(page, testInfo, 'merchant-locale-fa');
  expect((await recorded(page)).violations).toEqual([]);
});

test('a locale given without one of its texts is refused with invalid_config naming it, and no field is left', async ({ page }) => {
  const { cvvInvalid: _, ...partial } = FR;
  await openCheckout(page, merchant, { auto: '0' });
  await page.waitForFunction(() => typeof (window as any).mount === 'function');
  const error = await page.evaluate(
    async (texts) => {
      const form = (window as any).mount({ locale: 'fr', texts });
      return form.ready.then(
        () => null,
        (e: any) => ({ code: e.code, message: e.message }),
      );
    },
    { fr: partial },
  );
  expect(error).toEqual({
    code: 'invalid_config',
    message: 'mountFields: texts["fr"]: a new locale needs every text; it lacks cvvInvalid',
  });
  await expect(page.locator('#card-number iframe')).toHaveCount(0);
});

test("the OTP form speaks the merchant's words", async ({ page }, testInfo) => {
  await mount(page, {});
  await page.evaluate(() => {
    (window as any).pendingOptions = {
      texts: {
        en: {
          label: 'Code from your bank',
          submit: 'Finish payment',
          ready: 'Your bank texted you a code: type it here.',
          approved: 'All done, thank you!',
        },
      },
    };
  });
  const otp = testCards.otp;
  await fillCard(page, { number: otp.number, expiry: `12${String(otp.expireYear).slice(2)}`, cvv: otp.cvv, name: 'Ada Lovelace' });
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  const code = page.getByRole('textbox', { name: 'Code from your bank' });
  await expect(code).toBeFocused({ timeout: 15_000 });
  await expect(page.getByRole('status').filter({ hasText: 'Your bank texted you a code: type it here.' })).toBeVisible();
  await screenshot(page, testInfo, 'merchant-otp-form');
  await code.fill(otp.otp);
  await page.getByRole('button', { name: 'Finish payment' }).click();
  await expect(page.getByText('All done, thank you!')).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('#status')).toHaveText('Paid: captured visa 1836');
  expect((await recorded(page)).violations).toEqual([]);
});
