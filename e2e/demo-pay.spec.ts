// Every payment flow of the demo on one checkout (the script-tag page or the React app in StrictMode),
// as a payer and then the shop's staff live it: by labels, roles and the keyboard, inside the card
// frames too, checking what the person sees. Run once per checkout: the demo-script and demo-react
// projects (playwright.config.ts) set `checkout`. `npm start`'s launcher runs on random ports and the
// pages open without ignoring certificate errors. In every flow the merchant page is recorded
// (messages, DOM, storage, console, its requests): no card number, no CVV.
import { expect, type Page } from '@playwright/test';

import { APPROVED, type Checkout, CheckoutPage, checkoutTest as test, DECLINED, OTP, REDIRECT } from './support/demo-checkout';
import { expectAccessible, fact, openPayment, screenshot, useDemo } from './support/demo';
import { watchOtpForm } from './support/otp-watch';
import { expectNoCardData } from './support/recorder';

test.use({ ignoreHTTPSErrors: false });
test.describe.configure({ timeout: 120_000 });
const demo = useDemo(['--test-mode']);
let kind: Checkout;
test.beforeAll(({ checkout }) => {
  kind = checkout;
});
let opened: CheckoutPage | undefined;
const open = async (page: Page, lang?: 'en' | 'ar') => (opened = await CheckoutPage.open(page, demo, kind, lang));
// A failure says what the page was showing: its URL, what it threw or logged, and what a screen reader reads.
test.afterEach(async ({ page }, testInfo) => {
  const checkout = opened;
  opened = undefined;
  if (testInfo.status === testInfo.expectedStatus || page.isClosed()) return;
  console.log(`page at ${page.url()}`);
  if (checkout) console.log(`page said: ${JSON.stringify([...checkout.recorder.console, ...(await checkout.csp().catch(() => []))])}`);
  console.log(
    await page
      .locator('body')
      .ariaSnapshot({ timeout: 2_000 })
      .catch((e: Error) => `no snapshot: ${e.message}`),
  );
});

// axe-core on each checkout in both languages, with the frames loaded, and their screenshots at 1280 px:
// e2e/demo-start.spec.ts. Here what the payer's typing adds: the frames follow the page into Arabic and
// keep what was typed across a switch, at 360 px.
test(`English and Arabic right to left, at 360 px: the frames follow, Arabic-Indic digits typed`, async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const checkout = await open(page);
  await expect(checkout.payButton).toBeDisabled(); // until the form is complete
  await expect(page.locator('#card-number iframe')).toHaveAttribute('title', 'Card number');

  await page.getByRole('button', { name: 'العربية' }).click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  // The frames follow: their labels are the page's, in Arabic; Arabic-Indic digits are read as digits.
  const number = checkout.field('number', 'رقم البطاقة');
  await number.click();
  await page.keyboard.type('٤١١١١١١١١١١١١١١١');
  await expect(number).toHaveValue('4111 1111 1111 1111');
  await expect(page.frameLocator('#card-number iframe').locator('html')).toHaveAttribute('dir', 'rtl');

  await page.setViewportSize({ width: 360, height: 780 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await screenshot(page, testInfo, `${kind}-ar-360`);
  await page.getByRole('button', { name: 'English' }).click();
  await expect(checkout.field('number')).toHaveValue('4111 1111 1111 1111'); // the switch keeps what was typed
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await screenshot(page, testInfo, `${kind}-en-360`);
  await checkout.expectClean({ number: '4111111111111111' });
});

test(`auth, then captured in full in the back office`, async ({ page }, testInfo) => {
  const referenceId = await (await open(page)).payApproved('auth');
  await screenshot(page, testInfo, `${kind}-approved`);

  const panel = await openPayment(page, demo, referenceId);
  await expect(fact(panel, 'State')).toHaveText('authorised');
  await panel.getByRole('button', { name: 'Capture' }).click();
  await expect(panel.getByRole('status')).toHaveText('Captured OMR 13.750.');
  await expect(fact(panel, 'State')).toHaveText('captured');
});

// The back office's other flows (a capture in part, a void, refunds, an authorisation that ages) are
// e2e/demo-back-office.spec.ts's, on payments it makes through the shop's API: a payment made on this
// page is the same record there, and the flow above proves the way from one to the other.

test(`a declined card is said with the bank's reason, and the payer can try again`, async ({ page }, testInfo) => {
  const checkout = await open(page);
  await checkout.typeCard(DECLINED);
  await checkout.pay();
  await expect(checkout.status).toHaveText(
    /^Payment declined Your bank declined the payment: Do not honor \(code 1005\)\. No money was taken\. Order ORD-\d+ · payment PAY-\w+$/,
    { timeout: 15_000 },
  );
  await expect(checkout.status).toBeFocused();
  await expect(checkout.payButton).toBeEnabled();
  await expect(checkout.field('number')).toHaveValue('4000 0000 0000 0002');
  await screenshot(page, testInfo, `${kind}-declined`);
  await checkout.expectClean(DECLINED);
});

test(`a form the payer must correct: Enter in a field says which fields, and nothing is sent`, async ({ page }, testInfo) => {
  const checkout = await open(page);
  const sent: string[] = [];
  page.on('request', (r) => /\/api\/pay|credit-card-nonce/.test(r.url()) && sent.push(r.url()));
  await checkout.field('number').click();
  await page.keyboard.type(APPROVED.number);
  await page.keyboard.press('Tab');
  // As a person sees the caret move before typing on: focus crosses into another frame's process.
  await expect(checkout.field('expiry')).toBeFocused();
  await page.keyboard.type('13');
  await expect(checkout.field('expiry')).toHaveValue('01 / 3'); // no month 13: the 1 is January
  await page.keyboard.press('Enter'); // Enter in a field submits the page's form, as in any input
  await expect(checkout.status).toHaveText('Check your card details Correct these fields: Expiry date, Security code, and Name on card.');
  for (const id of ['card-expiry', 'card-cvv', 'card-name']) await expect(page.locator(`#${id}`)).toHaveClass(/payframe-field--invalid/);
  await expect(checkout.field('expiry')).toHaveAttribute('aria-invalid', 'true');
  expect(sent).toEqual([]);
  await screenshot(page, testInfo, `${kind}-correct`);
  await checkout.expectClean({ number: APPROVED.number });
});

test(`a network failure, of the payment service and of the shop's server, is said; paying again works`, async ({
  page,
  request,
}, testInfo) => {
  const checkout = await open(page);
  await checkout.typeCard(APPROVED);
  // The nonce request and both of its retries are dropped by the sandbox.
  const fault = await request.post(`${demo.sandbox}/__sandbox/fault`, {
    data: { kind: 'drop', path: '/v1/merchants/sandbox-merchant/credit-card-nonce', times: 3 },
  });
  expect(fault.status()).toBe(200);
  await checkout.pay();
  await expect(checkout.status).toHaveText('Not paid The payment service did not answer. Check your connection and try again.', {
    timeout: 20_000,
  });
  await screenshot(page, testInfo, `${kind}-network`);
  // The shop's own server does not answer.
  await page.route('**/api/pay', (route) => route.abort('connectionrefused'));
  await checkout.pay();
  await expect(checkout.status).toHaveText('Not paid The shop’s server did not answer. Check your connection and try again.');
  await page.unroute('**/api/pay');
  await checkout.pay();
  await checkout.approved();
  await checkout.expectClean(APPROVED);
});

test(`the bank asks for a one-time password: typed in the page's own form, approved`, async ({ page }, testInfo) => {
  const drawn = await watchOtpForm(page);
  const checkout = await open(page);
  await checkout.typeCard(OTP);
  await checkout.pay();
  await expect(checkout.status).toHaveText('Your bank asks for a one-time password: enter it below.', { timeout: 15_000 });
  const otp = page.getByLabel('One-time password');
  await expect(otp).toBeFocused();
  // The payment runs: the card fields take no input meanwhile.
  await expect(checkout.field('number')).toBeDisabled();
  await screenshot(page, testInfo, `${kind}-otp`);
  await expectAccessible(page);
  await page.keyboard.type('111111');
  await page.keyboard.press('Enter');
  await checkout.approved();
  await expect(otp).toBeHidden();
  await expect(checkout.field('number')).toBeEnabled();
  await expect(checkout.field('cvv')).toHaveValue(''); // paid: the security code has left its frame
  expect(drawn()).toBe(true); // the watcher below sees a form when there is one
  await checkout.expectClean(OTP);
});

test(`a card whose bank takes the password on its own page: straight there, then the return page`, async ({ page }, testInfo) => {
  const drawn = await watchOtpForm(page);
  const checkout = await open(page);
  await checkout.typeCard(REDIRECT);
  // The shop's page is looked at while it is still there: it leaves as soon as the payment is made.
  await checkout.expectClean(REDIRECT);
  await checkout.pay();
  // `auto`: the service offers no OTP call for this card (toPending's `otp: false`), so the page goes
  // to the bank's at once: the payer types the code once, there, and never sees the page's form.
  await page.waitForURL(new RegExp(`^${demo.sandbox}/v1/redirect/`), { timeout: 15_000 });
  expect(drawn()).toBe(false);
  // What the shop's page heard and sent until it left (its DOM is gone: the bank's page is shown now).
  await expectNoCardData({ ...checkout.recorder, snapshot: async () => ({}) }, REDIRECT);
  await page.getByLabel('One-time password').fill('111111');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.waitForURL(new RegExp(`^${demo.shop}/return\\?payment-session-id=[0-9a-f]{32}`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment approved');
  await expect(page.getByRole('status')).toHaveText('OMR 13.750 has been charged to your card.');
  await screenshot(page, testInfo, `${kind}-return`);
});

test(`a saved card paid again with its security code alone, which the page never sees`, async ({ page, context }, testInfo) => {
  const email = `kept-${kind}-${Date.now()}@example.com`;
  const shopCalls: string[] = [];
  page.on('request', (r) => r.url().includes('/api/') && shopCalls.push(`${r.method()} ${new URL(r.url()).pathname}`));
  const first = await open(page);
  // The form fetched its client token once ready, before Pay: Pay waits for none.
  await expect.poll(() => shopCalls.filter((c) => c === 'POST /api/client-token')).toHaveLength(1);
  await saveCard(first, email);
  await first.expectClean(APPROVED);
  expect(shopCalls.filter((c) => c === 'POST /api/client-token' || c === 'POST /api/pay')).toEqual([
    'POST /api/client-token',
    'POST /api/pay', // paid once, with the token fetched before
  ]);

  const again = await open(await context.newPage());
  const posts: string[] = [];
  const paying: string[] = [];
  again.page.on('request', (r) => {
    if (r.url().endsWith('/api/saved-card/pay') && r.method() === 'POST')
      posts.push(`${r.frame() === again.page.mainFrame() ? 'page' : 'frame'} ${r.postData()}`);
    if (/\/api\/(?:saved-card|payment|order)\//.test(r.url())) paying.push(`${r.method()} ${new URL(r.url()).pathname}`);
  });
  await again.page.getByRole('textbox', { name: 'Email' }).fill(email);
  await again.page.getByRole('button', { name: 'Find my saved cards' }).click();
  await again.page.getByRole('radio', { name: /Visa ending in 1111/ }).check();
  const cvv = again.page.frameLocator('#saved-card-cvv iframe').getByLabel('Security code of the Visa ending in 1111');
  await cvv.click();
  await again.page.keyboard.type('4152');
  await expect(cvv).toHaveValue('415'); // a Visa's code has three digits
  await expect(again.payButton).toBeEnabled();
  await screenshot(again.page, testInfo, `${kind}-saved-card`);
  await expectAccessible(again.page);
  await again.page.keyboard.press('Enter');
  await again.approved();
  await expect(cvv).toHaveValue(''); // paid: the security code has left its frame
  // The CVV went from its frame to the shop's server, with the page's one-time ticket; never from the page.
  expect(posts).toEqual([expect.stringMatching(/^frame \{"ticket":"[0-9a-f]{32}","savedCardId":"CARD-\w+","cvv":"415"\}$/)]);
  // The approval, its order and amount, shown from the CVV post's answer: no read of the payment after it.
  expect(paying.filter((c) => c !== 'OPTIONS /api/saved-card/pay')).toEqual(['POST /api/saved-card/ticket', 'POST /api/saved-card/pay']);
  await again.expectClean({ cvv: '415' });
});

test(`a merchant-initiated charge of the card the payer asked to keep`, async ({ page }, testInfo) => {
  const checkout = await open(page);
  const referenceId = await saveCard(checkout, `charged-${kind}-${Date.now()}@example.com`);
  await checkout.expectClean(APPROVED);
  const panel = await openPayment(page, demo, referenceId);
  await panel.getByLabel('Amount to charge (OMR)').fill('2.500');
  await panel.getByRole('button', { name: 'Charge saved card' }).click();
  const charged = page.getByRole('region', { name: /^Payment PAY-/ });
  await expect(charged.getByRole('status')).toHaveText(/^Charged OMR 2\.500 on the saved card \(PAY-\w+\)\.$/);
  await expect(fact(charged, 'Type')).toHaveText('Sale, merchant-initiated');
  await expect(fact(charged, 'Series')).toHaveText(`charged on the card kept by ${referenceId}`);
  await screenshot(page, testInfo, `${kind}-back-office`);
});

/** Pays a sale with "save this card" under `email`: the first payment of a stored series. */
async function saveCard(checkout: CheckoutPage, email: string): Promise<string> {
  await checkout.page.getByRole('textbox', { name: 'Email' }).fill(email);
  await checkout.typeCard(APPROVED);
  await checkout.page.getByRole('checkbox', { name: /Save this card/ }).check();
  await checkout.pay();
  return checkout.approved();
}
