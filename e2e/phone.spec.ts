// The demo's checkout on a phone, in Chromium with a Pixel 7's screen, touch and user agent: the payer
// taps each card field and the OTP form's input, the keyboard the fields ask for is the numeric one,
// the brand's mark shows, nothing is wider than the screen, and the payment is confirmed. An on-screen
// keyboard (Android's) sends no key codes: text arrives as input events alone, as `insertText` gives it.
// What only a real iPhone can tell is in docs/browsers.md ("On a phone").
import { devices, expect, type FrameLocator, type Page, test } from '@playwright/test';
import { testCards } from '../src/sandbox';
import { APPROVED, CheckoutPage } from './support/demo-checkout';
import { screenshot, useDemo } from './support/demo';
import { watchOtpForm } from './support/otp-watch';

const { viewport, deviceScaleFactor, isMobile, hasTouch, userAgent } = devices['Pixel 7'];
test.use({ viewport, deviceScaleFactor, isMobile, hasTouch, userAgent, ignoreHTTPSErrors: false });
test.describe.configure({ timeout: 120_000 });

const demo = useDemo(['--test-mode']);
const OTP_CARD = { number: testCards.otp.number, cvv: '461' };

/** What each card field asks of the phone: its keyboard (inputmode) and what autofill may offer (autocomplete). */
const HINTS = {
  number: ['numeric', 'cc-number'],
  expiry: ['numeric', 'cc-exp'],
  cvv: ['numeric', 'cc-csc'],
  name: ['text', 'cc-name'],
} as const;

const frameOf = (page: Page, name: keyof typeof HINTS): FrameLocator => page.frameLocator(`#card-${name} iframe`);

/** Text as an on-screen keyboard gives it: one character at a time, no key events. */
async function tapAndType(checkout: CheckoutPage, name: keyof typeof HINTS, text: string): Promise<void> {
  const field = checkout.field(name);
  await field.tap();
  await expect(field).toBeFocused();
  for (const character of text) await checkout.page.keyboard.insertText(character);
}

/**
 * How much wider than the screen the page is: 0 when nothing scrolls sideways. Measured against the
 * device's width, not `innerWidth`: a phone's browser zooms out to show a page wider than its screen,
 * and `innerWidth` grows with it (474 for a 474 px wide page on this 412 px screen).
 */
const overflow = async (page: Page) => (await page.evaluate(() => document.documentElement.scrollWidth)) - page.viewportSize()!.width;

/** The card fields whose frame reaches past the page's inside or the screen's edge: none when each fits. */
const fieldsPastTheEdge = (page: Page) =>
  page.evaluate((screen) => {
    const width = Math.min(document.documentElement.clientWidth, screen);
    return ['number', 'expiry', 'cvv', 'name'].filter((name) => {
      const box = document.querySelector(`#card-${name} iframe`)!.getBoundingClientRect();
      return Math.floor(box.left) < 0 || Math.ceil(box.right) > width;
    });
  }, page.viewportSize()!.width);

/** Nothing scrolls sideways, and each card field lies whole inside the screen. */
async function expectFits(page: Page): Promise<void> {
  expect(await overflow(page), 'the page scrolls sideways').toBe(0);
  expect(await fieldsPastTheEdge(page)).toEqual([]);
}

async function typeCard(checkout: CheckoutPage, card: { number: string; cvv: string }): Promise<void> {
  await tapAndType(checkout, 'number', card.number);
  await expect(checkout.field('number')).toHaveValue(card.number.replace(/(\d{4})(?=\d)/g, '$1 '));
  await tapAndType(checkout, 'expiry', '1234');
  await expect(checkout.field('expiry')).toHaveValue('12 / 34');
  await tapAndType(checkout, 'cvv', card.cvv);
  await tapAndType(checkout, 'name', 'Ada Lovelace');
  await expect(checkout.field('name')).toHaveValue('Ada Lovelace');
}

test('phone: each field tapped, a numeric keyboard, the brand mark, no sideways scroll; paid', async ({ page }, testInfo) => {
  const checkout = await CheckoutPage.open(page, demo, 'script');
  expect(page.viewportSize()!.width).toBe(412);
  expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(true); // a touch screen, as the page sees it
  await expectFits(page);
  for (const [name, [inputMode, autocomplete]] of Object.entries(HINTS) as [keyof typeof HINTS, (typeof HINTS)['number']][]) {
    await expect(checkout.field(name)).toHaveAttribute('inputmode', inputMode);
    await expect(checkout.field(name)).toHaveAttribute('autocomplete', autocomplete);
    // Under 16 px, Safari on an iPhone zooms the page into a field when it takes the focus.
    expect(await checkout.field(name).evaluate((input) => parseFloat(getComputedStyle(input).fontSize))).toBeGreaterThanOrEqual(16);
  }

  await typeCard(checkout, APPROVED);
  const mark = frameOf(page, 'number').locator('svg');
  await expect(mark).toBeVisible();
  await expect(mark.locator('text')).toHaveText('VISA');
  await expect(checkout.field('number')).toHaveAccessibleDescription('Visa');
  // The mark sits inside the number's box, beside the digits, not past the screen's edge.
  const [box, input] = await Promise.all([page.locator('#card-number').boundingBox(), checkout.field('number').boundingBox()]);
  const markBox = (await mark.boundingBox())!;
  expect(markBox.x).toBeGreaterThan(input!.x + input!.width - 1);
  expect(markBox.x + markBox.width).toBeLessThanOrEqual(box!.x + box!.width);
  await expectFits(page);
  await screenshot(page, testInfo, 'phone-checkout');

  await checkout.payButton.tap();
  await checkout.approved();
  await expectFits(page);
  await screenshot(page, testInfo, 'phone-approved');
  await checkout.expectClean(APPROVED);
});

test('phone: the bank asks for a one-time password: the form asks for a numeric one-time code, tapped, typed, confirmed', async ({
  page,
}, testInfo) => {
  const drawn = await watchOtpForm(page);
  const checkout = await CheckoutPage.open(page, demo, 'script');
  await typeCard(checkout, OTP_CARD);
  await checkout.payButton.tap();
  await expect(checkout.status).toHaveText('Your bank asks for a one-time password: enter it below.', { timeout: 15_000 });
  const otp = page.getByLabel('One-time password');
  await expect(otp).toHaveAttribute('autocomplete', 'one-time-code'); // what lets a phone offer the code from the SMS
  await expect(otp).toHaveAttribute('inputmode', 'numeric');
  expect(await otp.evaluate((input) => parseFloat(getComputedStyle(input).fontSize))).toBeGreaterThanOrEqual(16);
  await expect(otp).toBeInViewport();
  expect(await overflow(page)).toBe(0);
  await screenshot(page, testInfo, 'phone-otp');

  await otp.tap();
  await expect(otp).toBeFocused();
  for (const digit of testCards.otp.otp) await page.keyboard.insertText(digit);
  await expect(otp).toHaveValue(testCards.otp.otp);
  await page.getByRole('button', { name: 'Confirm' }).tap();
  await checkout.approved();
  await expect(otp).toBeHidden();
  expect(drawn()).toBe(true);
  expect(await overflow(page)).toBe(0);
  await checkout.expectClean(OTP_CARD);
});
