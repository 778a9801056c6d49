// The service's hosted payment page in Chromium, played by the sandbox: a shop with no card on its
// pages sends the payer there; its fields named for autofill, a wrong number, the bank's page, a page
// that expires, a payer who closes the tab, Arabic and a phone, with the screenshots, and paying back to
// a paid order. The OTP in the page is a flow of every engine (e2e/engines/hosted-page.flow.ts), which
// plays paying and returning in Firefox and WebKit.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { testCards, type TestCard } from '../src/sandbox';
import { type HostedShop, startHostedShop } from './support/hosted-shop';

let shop: HostedShop;
test.beforeAll(async () => {
  shop = await startHostedShop();
});
test.afterAll(async () => {
  await shop?.close();
});

/** CSP violations and page errors, on the sandbox's page and the shop's alike. */
let problems: string[];
test.beforeEach(async ({ page }) => {
  problems = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(`console: ${message.text()}`);
  });
});
test.afterEach(() => expect(problems).toEqual([]));

/** From the shop's checkout to the service's page. */
async function toHostedPage(page: Page): Promise<string> {
  await page.goto(shop.url);
  await page.getByRole('button', { name: "Pay on the bank's page" }).click();
  await expect(page).toHaveURL(new RegExp(`^${shop.sandbox.url}/v1/hosted-page/[0-9a-f]{32}`));
  return [...shop.orders.keys()].at(-1)!;
}

/** Types the card as a payer does: each field found by its label, Tab from one to the next. */
async function typeCard(
  page: Page,
  card: TestCard,
  labels = { number: 'Card number', expiry: 'Expiry date', cvv: 'Security code (CVV)', name: 'Name on card' },
) {
  await page.getByLabel(labels.number).click();
  await page.keyboard.type(card.number.replace(/(\d{4})(?=\d)/g, '$1 '));
  await page.keyboard.press('Tab');
  await expect(page.getByLabel(labels.expiry)).toBeFocused();
  await page.keyboard.type(`${String(card.expireMonth).padStart(2, '0')} / ${String(card.expireYear).slice(2)}`);
  await page.keyboard.press('Tab');
  await page.keyboard.type(card.cvv);
  await page.keyboard.press('Tab');
  await page.keyboard.type('Ada Lovelace');
}

const status = (page: Page) => page.getByRole('status');

test('the fields are named for autofill and labelled; the page looks right in English; Enter pays, back to a paid order', async ({
  page,
}, testInfo) => {
  await toHostedPage(page);
  for (const [label, auto] of [
    ['Card number', 'cc-number'],
    ['Expiry date', 'cc-exp'],
    ['Security code (CVV)', 'cc-csc'],
    ['Name on card', 'cc-name'],
  ] as const) {
    await expect(page.getByLabel(label)).toHaveAttribute('autocomplete', auto);
  }
  await typeCard(page, testCards.approved);
  await page.screenshot({ path: testInfo.outputPath('hosted-page-en.png'), fullPage: true });
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  // Enter in the last field pays, and the payer is back on this shop's own page, the order paid.
  await page.keyboard.press('Enter');
  await expect(status(page)).toHaveText('Thank you: your order is paid.', { timeout: 15_000 });
  expect(page.url()).toMatch(new RegExp(`^${shop.url}/checkout/return\\?payment-session-id=[0-9a-f]{32}$`));
  expect([...shop.orders.values()].at(-1)).toBe('captured');
});

test('a wrong card number is shown on the page, and nothing is charged', async ({ page }, testInfo) => {
  const invoice = await toHostedPage(page);
  await typeCard(page, { ...testCards.approved, number: '4111111111111112' });
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByRole('alert')).toContainText('Check the details below.');
  await expect(page.getByLabel('Card number')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Enter a valid card number.')).toBeVisible();
  await expect(page.getByLabel('Card number')).toHaveValue('');
  await page.screenshot({ path: testInfo.outputPath('hosted-page-error.png'), fullPage: true });
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  expect(shop.orders.get(invoice)).toBe('sent to the page');
});

test("the redirect-only card confirms on the bank's page, and a wrong OTP declines", async ({ page }) => {
  const invoice = await toHostedPage(page);
  await typeCard(page, testCards.redirectOnly);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`^${shop.sandbox.url}/v1/redirect/[0-9a-f]{32}$`));
  await page.getByLabel('One-time password').fill('000000');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(status(page)).toHaveText('The payment was declined: nothing was charged.');
  expect(shop.orders.get(invoice)).toBe('declined');
});

test('a page left for an hour has expired: the payer is told, and the order is not paid', async ({ page }) => {
  const invoice = await toHostedPage(page);
  shop.sandbox.advanceClock(3600_000);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'This payment page has expired.' })).toBeVisible();
  await page.getByRole('link', { name: 'Return to the shop' }).click();
  await expect(status(page)).toHaveText('The payment page expired: nothing was charged.');
  expect(shop.orders.get(invoice)).toBe('sent to the page');
});

test('a payer who closes the tab after paying: the order settles by the notification', async ({ page, context }) => {
  const invoice = await toHostedPage(page);
  // The tab is closed before the return page loads: the shop never sees the payer again.
  await context.route(`${shop.url}/checkout/return**`, (route) => route.abort());
  await typeCard(page, testCards.approved);
  const leaving = page.waitForRequest(`${shop.url}/checkout/return**`);
  await page.keyboard.press('Enter');
  await leaving;
  await page.close();
  await expect.poll(() => shop.orders.get(invoice), { timeout: 10_000 }).toBe('captured');
});

test.describe('in Arabic, right to left', () => {
  test.use({ locale: 'ar-OM' });
  test('the page follows the browser language; digits stay left to right', async ({ page }, testInfo) => {
    await toHostedPage(page);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await typeCard(page, testCards.approved, {
      number: 'رقم البطاقة',
      expiry: 'تاريخ الانتهاء',
      cvv: 'رمز الأمان (CVV)',
      name: 'الاسم على البطاقة',
    });
    await expect(page.getByLabel('رقم البطاقة')).toHaveAttribute('dir', 'ltr');
    await page.screenshot({ path: testInfo.outputPath('hosted-page-ar.png'), fullPage: true });
    expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  test('one column, nothing wider than the screen', async ({ page }, testInfo) => {
    await toHostedPage(page);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    const number = await page.getByLabel('Card number').boundingBox();
    const cvv = await page.getByLabel('Security code (CVV)').boundingBox();
    expect(cvv!.y).toBeGreaterThan(number!.y);
    expect(number!.width).toBeGreaterThan(300);
    await page.screenshot({ path: testInfo.outputPath('hosted-page-phone.png'), fullPage: true });
  });
});
