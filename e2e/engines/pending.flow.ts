// A payment the bank holds for a one-time password: the domestic card typed into the hosted form, paid,
// and finished in the page's OTP form (handlePending's default `auto`) by the keyboard, a malformed code
// refused first; an international card sent to the bank's page at once, no OTP form ever drawn (the bank
// would ask for the code again); and the OTP form in Arabic, right to left, with Arabic-Indic digits typed
// in the frames and in it. A finished form hands the focus to its status line, not to the top of the page.
import { testCards } from '../../src/sandbox';
import { checkoutUrl, type Merchant, startMerchant } from '../support/merchant';
import { expectNoCardData, expectNoProblems, field, focused, openCheckout, textOf, valueOf } from './harness/checkout';
import type { Driver } from './harness/driver';
import { expect, playedInChromiumBy, test } from './harness/test';

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant();
});
test.afterAll(() => merchant?.close());

const CARD = testCards.otp;
const toArabic = (digits: string) => digits.replace(/\d/g, (d) => '٠١٢٣٤٥٦٧٨٩'[Number(d)]!);
const otpDir = (driver: Driver) => driver.run(undefined, () => document.querySelector('#otp form')?.getAttribute('dir') ?? null);
const otpStatus = (driver: Driver) => textOf(driver, '#otp [role=status]');
const otpInvalid = (driver: Driver) =>
  driver.run(undefined, () => document.querySelector('#otp input')?.getAttribute('aria-invalid') ?? null);
const otpValue = (driver: Driver) => driver.run(undefined, () => document.querySelector<HTMLInputElement>('#otp input')?.value ?? null);

/**
 * Notes in the tab's sessionStorage, for the page's origin, whether payframe's OTP form is ever drawn,
 * even for an instant before the page leaves for the bank's: an observer's note is written before the
 * page's task ends, and the storage outlives the page in its tab.
 */
const watchOtpForm = (driver: Driver) =>
  driver.run(undefined, () => {
    sessionStorage.removeItem('otp-form-drawn');
    const observer = new MutationObserver(() => {
      if (!document.querySelector('.payframe-otp__input')) return;
      sessionStorage.setItem('otp-form-drawn', 'yes');
      observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true });
  });
const otpFormDrawn = (driver: Driver) => driver.run(undefined, () => sessionStorage.getItem('otp-form-drawn') === 'yes');

/** Opens the checkout with handlePending's default mode (the page's own is `otp`), watched for the OTP form, and pays with `card`. */
async function payAuto(driver: Driver, card: { number: string; cvv: string }) {
  await openCheckout(driver, merchant);
  await driver.run(undefined, () => void ((window as any).pendingOptions = { mode: 'auto' }));
  await watchOtpForm(driver);
  for (const [name, text] of [
    ['number', card.number],
    ['expiry', '1234'],
    ['cvv', card.cvv],
    ['name', 'Ada Lovelace'],
  ] as const) {
    await driver.click(field(name));
    await driver.type(text);
  }
  await driver.press('Enter');
}

// e2e/pending.spec.ts plays it in Chromium with the same checks or more: the Tab to Confirm, its Enter and
// the focus on the status line were moved there from here.
test.describe(() => {
  playedInChromiumBy(
    'e2e/pending.spec.ts ("OTP 111111 confirmed by the keyboard", with "a wrong OTP declines the payment" and "the domestic card in auto mode")',
  );
  test('the domestic card: the OTP form takes the focus, the code is typed and confirmed with the keyboard', async ({ driver }) => {
    await payAuto(driver, CARD);
    await expect.poll(() => focused(driver), { timeout: 15_000 }).toBe('One-time password');
    expect(await otpFormDrawn(driver)).toBe(true);
    // A code that is not 4 to 8 digits is refused in the form, which keeps the focus for the next try.
    await driver.type('abc');
    await driver.press('Enter');
    await expect.poll(() => otpStatus(driver)).toBe('Enter the 4 to 8 digit code.');
    expect(await otpInvalid(driver)).toBe('true');
    expect(await focused(driver)).toBe('One-time password');
    for (let i = 0; i < 3; i++) await driver.press('Backspace');
    await driver.type(CARD.otp);
    await driver.press('Tab');
    await expect.poll(() => focused(driver)).toBe('Confirm');
    await driver.press('Enter');
    await expect.poll(() => textOf(driver, '#status'), { timeout: 15_000 }).toBe('Paid: captured visa 1836');
    expect(await otpStatus(driver)).toBe('Payment confirmed.');
    expect(await focused(driver)).toBe('Payment confirmed.');
    expect(await otpDir(driver)).toBe('ltr');
    await expectNoCardData(driver, CARD);
    await expectNoProblems(driver, merchant);
  });
});

// e2e/pending.spec.ts plays it in Chromium with the same checks, the bank's exact address among them.
test.describe(() => {
  playedInChromiumBy('e2e/pending.spec.ts ("the redirect-only card in auto mode goes to the bank’s page at once")');
  test("the international card goes to the bank's page at once: no OTP form is ever drawn", async ({ driver }) => {
    await payAuto(driver, testCards.redirectOnly);
    const bank = `${merchant.sandbox.url}/v1/redirect/`;
    // Read while the tab may be between two documents: a read that fails then is read again.
    const at = () => driver.run(undefined, () => location.href).catch(() => '');
    await expect.poll(async () => (await at()).startsWith(bank), { timeout: 15_000 }).toBe(true);
    expect((await at()).slice(bank.length)).toMatch(/^[\w-]+$/);
    await expect.poll(() => textOf(driver, 'h1').catch(() => null)).toBe('Confirm your payment');
    await expectNoProblems(driver);
    // Back on the merchant's origin, whose storage holds the note.
    await driver.goto(checkoutUrl(merchant, { auto: '0' }));
    expect(await otpFormDrawn(driver)).toBe(false);
    expect(merchant.reports).toEqual([]);
  });
});

test('Arabic: the frames and the OTP form right to left, Arabic-Indic digits typed, paid', async ({ driver }, testInfo) => {
  await openCheckout(driver, merchant, { locale: 'ar' });
  const labels = { number: 'رقم البطاقة', expiry: 'تاريخ الانتهاء', cvv: 'رمز الأمان', name: 'الاسم على البطاقة' };
  for (const [name, text] of [
    ['number', CARD.number],
    ['expiry', '1234'],
    ['cvv', CARD.cvv],
  ] as const) {
    await driver.click(field(name, labels[name]));
    await driver.type(toArabic(text));
  }
  await driver.click(field('name', labels.name));
  await driver.type('آدا');
  await expect.poll(() => valueOf(driver, 'number')).toBe('4644 2605 8166 1836');
  expect(await valueOf(driver, 'expiry')).toBe('12 / 34');
  expect(await driver.run(field('number').in, () => [document.documentElement.dir, document.documentElement.lang])).toEqual(['rtl', 'ar']);

  await driver.click({ role: 'button', name: 'ادفع 25.00 دولار' });
  await expect.poll(() => focused(driver), { timeout: 15_000 }).toBe('رمز التحقق لمرة واحدة');
  expect(await otpDir(driver)).toBe('rtl');
  await driver.type(toArabic(CARD.otp));
  expect(await otpValue(driver)).toBe(toArabic(CARD.otp));
  await driver.click({ role: 'button', name: 'تأكيد' });
  await expect.poll(() => textOf(driver, '#status'), { timeout: 15_000 }).toBe('Paid: captured visa 1836');
  expect(await otpStatus(driver)).toBe('تم تأكيد الدفع.');
  expect(await focused(driver)).toBe('تم تأكيد الدفع.');
  await driver.screenshot(testInfo.outputPath('otp-ar-approved.png'));
  await expectNoCardData(driver, CARD);
  await expectNoProblems(driver, merchant);
});
