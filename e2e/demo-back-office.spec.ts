// The back office driven as a merchant's staff would: by the names on the page, the keyboard, and
// what the page says back. Payments are made through the shop's own pay route with nonces from
// payframe's client (the checkouts' own flows are in demo-pay-*.spec.ts).
import { expect, type Page, test } from '@playwright/test';
import { testCards } from '../src/sandbox';
import { expectAccessible, fact, openPayment as openIn, pay, row, screenshot, staffKey, useDemo, watchCsp } from './support/demo';

test.use({ ignoreHTTPSErrors: false });

const demo = useDemo(['--test-mode']);

const openPayment = (page: Page, referenceId: string) => openIn(page, demo, referenceId);

const NO_KEY = 'This back office is for the shop’s staff: open the Back office address that npm start printed (it ends in #key=…).';

test('only the printed address opens the back office: a payer’s browser gets 401 on every route and one line on the page', async ({
  page,
}, testInfo) => {
  // A payer who paid and kept a card: their browser holds the checkout cookie.
  const payer = page.context().request;
  const email = `victim-${Date.now()}@example.com`;
  const { referenceId } = await pay(payer, demo, { intent: 'sale', email, saveCard: true });
  const routes: [string, string, Record<string, string>?][] = [
    ['GET', '/api/payments'],
    ['GET', `/api/payments/${referenceId}`],
    ['POST', `/api/payments/${referenceId}/capture`, {}],
    ['POST', `/api/payments/${referenceId}/void`, {}],
    ['POST', `/api/payments/${referenceId}/refund`, {}],
    ['POST', `/api/payments/${referenceId}/charge`, { amount: '99.000' }],
    ['GET', `/api/payers?email=${encodeURIComponent(email)}`],
    ['GET', '/api/payers/PAYER-1'],
    ['GET', '/api/payers/PAYER-1/cards/CARD-1'],
  ];
  const unauthorized = {
    error: {
      code: 'unauthorized',
      message: 'The back office is for the shop’s staff: open the Back office address that npm start printed.',
    },
  };
  const cookies = [undefined, `staff=${'0'.repeat(64)}`, `staff=${staffKey(demo)}`]; // none, a guess, the key itself as a cookie
  for (const [method, path, data] of routes) {
    for (const cookie of cookies) {
      const response = await payer.fetch(`${demo.shop}${path}`, {
        method,
        ...(data ? { data } : {}),
        ...(cookie ? { headers: { cookie } } : {}),
      });
      expect(response.status(), `${method} ${path} ${cookie}`).toBe(401);
      expect(await response.json(), `${method} ${path}`).toEqual(unauthorized);
    }
  }
  // A wrong key is refused and sets no cookie.
  const wrong = await payer.post(`${demo.shop}/api/staff/session`, { data: { key: 'f'.repeat(32) } });
  expect(wrong.status()).toBe(401);
  expect(wrong.headers()['set-cookie']).toBeUndefined();
  expect((await wrong.json()).error.code).toBe('unauthorized');

  // The page without the key: one clear line, no payment, no control.
  const violations = await watchCsp(page);
  await page.goto(`${demo.shop}/back-office`);
  await expect(page.getByRole('heading', { level: 1, name: 'Back office' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText(NO_KEY);
  await expect(page.getByRole('table').first()).toBeHidden();
  await expect(page.getByRole('button')).toHaveCount(0);
  await screenshot(page, testInfo, 'back-office-without-key');
  await expectAccessible(page);
  // An old or mistyped key says so, and leaves the address.
  await page.goto(`${demo.shop}/back-office#key=${'a'.repeat(32)}`);
  await expect(page.getByRole('status')).toHaveText(
    'This key is not this run’s: open the Back office address that npm start printed this time.',
  );
  expect(page.url()).toBe(`${demo.shop}/back-office`);
  await expect(page.getByRole('table').first()).toBeHidden();

  // The printed address: the key leaves the URL at once, the cookie is HttpOnly and SameSite=Strict,
  // the data shows, and none of the refused calls did anything (captured, nothing refunded, no charge).
  await page.goto(demo.backOffice);
  await expect(row(page, referenceId)).toContainText('captured');
  expect(page.url()).toBe(`${demo.shop}/back-office`);
  await expect(page.getByRole('status')).toHaveCount(0);
  const [staff] = (await page.context().cookies(`${demo.shop}/api/payments`)).filter((c) => c.name === 'staff');
  expect(staff).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api' });
  expect(staff!.value).not.toContain(staffKey(demo));
  const { payments } = await (await payer.get(`${demo.shop}/api/payments`)).json();
  expect(payments.filter((p: { email: string | null }) => p.email === email)).toEqual([
    // the charge would be a second row
    expect.objectContaining({ referenceId, state: 'captured', refunded: '0.000', history: [] }),
  ]);
  expect(await page.evaluate(() => document.cookie)).not.toContain('staff');
  expect(await violations()).toEqual([]);
});

test('an authorisation captured in full', async ({ page, request }) => {
  const { referenceId } = await pay(request, demo, { intent: 'auth' });
  const violations = await watchCsp(page);
  const panel = await openPayment(page, referenceId);
  await expect(row(page, referenceId)).toContainText('authorised');
  await expect(fact(panel, 'State')).toHaveText('authorised');
  await expect(fact(panel, 'Type')).toHaveText('Authorisation');
  await expect(panel.getByLabel('Amount to capture (OMR)')).toHaveValue('13.750');
  await expect(panel.getByRole('button', { name: 'Refund' })).toBeDisabled();

  await panel.getByRole('button', { name: 'Capture' }).click();
  await expect(panel.getByRole('status')).toHaveText('Captured OMR 13.750.');
  await expect(fact(panel, 'State')).toHaveText('captured');
  await expect(fact(panel, 'Captured')).toHaveText('OMR 13.750');
  await expect(panel.getByRole('button', { name: 'Capture' })).toBeDisabled();
  await expect(panel.getByRole('button', { name: 'Void authorisation' })).toBeDisabled();
  await expect(panel.getByLabel('Amount to refund (OMR)')).toHaveValue('13.750');
  await expect(row(page, referenceId)).toContainText('captured');
  expect(await violations()).toEqual([]);
});

test('an authorisation captured in part, typed with the keyboard; a wrong amount and one above the hold are refused', async ({
  page,
  request,
}) => {
  const { referenceId } = await pay(request, demo, { intent: 'auth' });
  const panel = await openPayment(page, referenceId);
  const amount = panel.getByLabel('Amount to capture (OMR)');
  const status = panel.getByRole('status');

  await amount.fill('5.0001');
  await amount.press('Enter');
  await expect(status).toHaveText('Enter an amount above zero such as 5.000: OMR has 3 decimals.');
  await amount.fill('20.000');
  await amount.press('Enter');
  await expect(status).toHaveText('Refused: a capture cannot be above the authorised OMR 13.750.');
  await expect(fact(panel, 'State')).toHaveText('authorised');

  await amount.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('5.000');
  await page.keyboard.press('Enter');
  await expect(status).toHaveText('Captured OMR 5.000 of OMR 13.750; the rest of the hold is released.');
  await expect(fact(panel, 'State')).toHaveText('captured');
  await expect(fact(panel, 'Captured')).toHaveText('OMR 5.000');
  await expect(fact(panel, 'Capture')).toContainText('OMR 5.000');
  await expect(panel.getByLabel('Amount to refund (OMR)')).toHaveValue('5.000');
});

test('an authorisation voided', async ({ page, request }) => {
  const { referenceId } = await pay(request, demo, { intent: 'auth' });
  const panel = await openPayment(page, referenceId);
  await panel.getByRole('button', { name: 'Void authorisation' }).click();
  await expect(panel.getByRole('status')).toHaveText('Voided: the hold of OMR 13.750 is released.');
  await expect(fact(panel, 'State')).toHaveText('voided');
  await expect(panel.getByRole('button', { name: 'Capture' })).toBeDisabled();
  await expect(row(page, referenceId)).toContainText('voided');
});

test('a sale refunded twice in part, then a refund over the rest refused with the amount left', async ({ page, request }, testInfo) => {
  const { referenceId } = await pay(request, demo, { intent: 'sale' });
  const panel = await openPayment(page, referenceId);
  const amount = panel.getByLabel('Amount to refund (OMR)');
  const status = panel.getByRole('status');
  await expect(panel.getByRole('button', { name: 'Capture' })).toBeDisabled();

  await amount.fill('3.000');
  await panel.getByRole('button', { name: 'Refund' }).click();
  await expect(status).toHaveText('Refunded OMR 3.000; OMR 10.750 is left to refund.');
  await amount.fill('4.000');
  await amount.press('Enter');
  await expect(status).toHaveText('Refunded OMR 4.000; OMR 6.750 is left to refund.');
  await expect(fact(panel, 'Refunded')).toHaveText('OMR 7.000');
  await expect(amount).toHaveValue('6.750');

  await amount.fill('7.000');
  await amount.press('Enter');
  await expect(status).toHaveText('Refused: only OMR 6.750 is left to refund (OMR 13.750 captured, OMR 7.000 refunded).');
  await expect(status).toHaveClass(/bad/);
  await expect(fact(panel, 'State')).toHaveText('captured');
  await expect(fact(panel, 'Refunded')).toHaveText('OMR 7.000');
  await screenshot(page, testInfo, 'back-office-refund-refused');
  await expectAccessible(page);

  await amount.press('Enter'); // the field offers what is left
  await expect(status).toHaveText('Refunded OMR 6.750; the payment is now refunded in full.');
  await expect(fact(panel, 'State')).toHaveText('refunded');
  await expect(panel.getByRole('button', { name: 'Refund' })).toBeDisabled();
});

test('a merchant-initiated charge of the card the payer asked to keep; payer and card lookups', async ({ page, request }, testInfo) => {
  const email = `keeper-${Date.now()}@example.com`;
  const first = await pay(request, demo, { intent: 'sale', email, saveCard: true });
  const once = await pay(request, demo, { intent: 'sale' });
  const violations = await watchCsp(page);

  // A payment whose payer did not ask to keep the card offers no charge.
  let panel = await openPayment(page, once.referenceId);
  await expect(panel.getByRole('button', { name: 'Charge saved card' })).toHaveCount(0);

  panel = await openPayment(page, first.referenceId);
  await expect(fact(panel, 'Saved card')).toContainText(/CARD-\w+ \(the payer asked to keep it\)/);
  await panel.getByLabel('Amount to charge (OMR)').fill('2.500');
  await panel.getByRole('button', { name: 'Charge saved card' }).click();
  const charged = page.getByRole('region', { name: /^Payment PAY-/ });
  await expect(charged.getByRole('status')).toHaveText(/^Charged OMR 2\.500 on the saved card \(PAY-\w+\)\.$/);
  const chargeId = /\((PAY-\w+)\)/.exec((await charged.getByRole('status').textContent())!)![1]!;
  await expect(page.getByRole('heading', { name: `Payment ${chargeId}` })).toBeFocused();
  await expect(fact(charged, 'Type')).toHaveText('Sale, merchant-initiated');
  await expect(fact(charged, 'State')).toHaveText('captured');
  await expect(fact(charged, 'Amount')).toHaveText('OMR 2.500');
  await expect(fact(charged, 'Series')).toHaveText(`charged on the card kept by ${first.referenceId}`);
  await charged.getByText('The service’s record (JSON)').click();
  await expect(charged.locator('pre')).toContainText('"merchant_initiated": true');
  await expect(charged.locator('pre')).toContainText(`"previous_payment_id": "${first.referenceId}"`);
  await expect(row(page, chargeId)).toContainText('Sale, merchant-initiated');
  await screenshot(page, testInfo, 'back-office');
  await expectAccessible(page);

  // The payer, by email, then by id; and one of their cards. No full number anywhere.
  const query = page.getByLabel('Payer email or payer id');
  await query.fill(email.toUpperCase());
  await query.press('Enter');
  const payerStatus = page.locator('#payer-status');
  await expect(payerStatus).toHaveText(/^Found PAYER-\w+ with 1 card\.$/);
  const payerId = /PAYER-\w+/.exec((await payerStatus.textContent())!)![0];
  const cards = page.getByRole('table').filter({ hasText: 'Cards in the vault' });
  await expect(cards.getByRole('row').nth(1)).toContainText('Visa 411111 •••• 1111 (default)');
  await expect(cards.getByRole('row').nth(1)).toContainText('12/2034');
  await expect(cards.getByRole('row').nth(1)).toContainText('yes');
  await cards.getByRole('button', { name: /^Look up card CARD-/ }).click();
  await expect(page.getByRole('heading', { name: /^Card CARD-/ })).toBeVisible();
  await expect(page.locator('#payer-result pre')).toContainText('"last4": "1111"');
  await expect(page.locator('#payer-result pre')).toContainText('"expire_year": 2034');
  await query.fill(payerId);
  await page.getByRole('button', { name: 'Find payer' }).click();
  await expect(page.locator('#payer-result')).toContainText(email);
  await query.fill('nobody@example.com');
  await query.press('Enter');
  await expect(payerStatus).toHaveText('No payer found for nobody@example.com.');
  expect(await page.content()).not.toContain(testCards.approved.number);
  await expectAccessible(page);
  expect(await violations()).toEqual([]);
});

test('retrieve: a payment of this run, a capture record by its own id, and an unknown id', async ({ page, request }) => {
  const { referenceId } = await pay(request, demo, { intent: 'auth' });
  const panel = await openPayment(page, referenceId);
  await panel.getByRole('button', { name: 'Capture' }).click();
  await expect(fact(panel, 'State')).toHaveText('captured');
  const captureId = /PAY-\w+/.exec((await fact(panel, 'Capture').textContent())!)![0];

  const id = page.getByLabel('Payment id');
  await id.fill(captureId);
  await id.press('Enter');
  const record = page.getByRole('region', { name: `Record ${captureId}` });
  await expect(record).toBeVisible();
  await expect(fact(record, 'Payment acted on')).toHaveText(referenceId);
  await expect(fact(record, 'State')).toHaveText('captured');
  await expect(fact(record, 'Amount')).toHaveText('OMR 13.750');
  await expect(record).toContainText('Not a payment of this run');

  await id.fill(referenceId);
  await page.getByRole('button', { name: 'Retrieve' }).click();
  await expect(page.getByRole('region', { name: `Payment ${referenceId}` })).toBeVisible();

  await id.fill('PAY-000000000000000000000000');
  await id.press('Enter');
  await expect(page.locator('#retrieve-status')).toHaveText('No payment with this id');
});

// Last: moving the sandbox's clock ages every authorisation of this run.
test('an authorisation left seven days is cancelled, and its capture refused with the reason', async ({ page, request }) => {
  const { referenceId } = await pay(request, demo, { intent: 'auth' });
  const panel = await openPayment(page, referenceId);
  await expect(fact(panel, 'State')).toHaveText('authorised');

  const clock = await request.post(`${demo.sandbox}/__sandbox/clock`, { data: { advanceMs: 8 * 24 * 3600_000 } });
  expect(clock.status()).toBe(200);

  await panel.getByRole('button', { name: 'Capture' }).click();
  await expect(panel.getByRole('status')).toHaveText(
    'Refused: this authorisation is more than seven days old, so the bank has cancelled it. It can no longer be captured or voided.',
  );
  await expect(fact(panel, 'State')).toHaveText('cancelled');
  await expect(panel.getByRole('button', { name: 'Capture' })).toBeDisabled();
  await expect(row(page, referenceId)).toContainText('cancelled');
});

test('a refund the bank defers shows as pending until it completes; one it denies shows as not refunded', async ({
  page,
  request,
}, testInfo) => {
  const idle = async () => expect((await request.post(`${demo.sandbox}/__sandbox/notifications/idle`, { data: {} })).status()).toBe(200);
  const { referenceId } = await pay(request, demo, { intent: 'sale' });
  let panel = await openPayment(page, referenceId);
  const amount = panel.getByLabel('Amount to refund (OMR)');
  // The sandbox's test amounts (docs/sandbox.md): …91 minor units deferred a day, …92 denied after it was accepted.
  await amount.fill('2.091');
  await amount.press('Enter');
  await expect(panel.getByRole('status')).toHaveText('Refunded OMR 2.091; OMR 11.659 is left to refund.');
  await amount.fill('1.092');
  await amount.press('Enter');
  await expect(panel.getByRole('status')).toHaveText(/^Refunded OMR 1\.092/);
  await idle();

  panel = await openPayment(page, referenceId);
  const refunds = fact(panel, 'Refund');
  await expect(refunds.nth(0)).toHaveText(/^OMR\s2\.091 \(pending at the bank\) · /);
  await expect(refunds.nth(1)).toHaveText(/^OMR\s1\.092 \(denied by the bank: not done\) · /);
  await expect(fact(panel, 'Refunded')).toHaveText('OMR 2.091');
  await screenshot(page, testInfo, 'back-office-refund-deferred-denied');

  expect((await request.post(`${demo.sandbox}/__sandbox/clock`, { data: { advanceMs: 24 * 3600_000 } })).status()).toBe(200);
  await idle();
  panel = await openPayment(page, referenceId);
  await expect(fact(panel, 'Refund').nth(0)).toHaveText(/^OMR\s2\.091 · /);
  await expect(fact(panel, 'Refunded')).toHaveText('OMR 2.091');
});
