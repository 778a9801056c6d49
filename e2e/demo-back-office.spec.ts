// The back office driven as a merchant's staff would: by the names on the page, the keyboard, and
// what the page says back. Payments are made through the shop's own pay route with nonces from
// payframe's client (the checkouts' own flows are in demo-pay-*.spec.ts).
import { expect, type Page, test } from '@playwright/test';
import { testCards } from '../src/sandbox';
import { expectAccessible, fact, openPayment as openIn, pay, row, screenshot, useDemo, watchCsp } from './demo-support';

test.use({ ignoreHTTPSErrors: false });

const demo = useDemo(['--test-mode']);

const openPayment = (page: Page, referenceId: string) => openIn(page, demo, referenceId);

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

test('an authorisation captured in part, typed with the keyboard; a wrong amount and one above the hold are refused', async ({ page, request }) => {
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
  await expect(panel.getByRole('button', { name: 'Charge kept card' })).toHaveCount(0);

  panel = await openPayment(page, first.referenceId);
  await expect(fact(panel, 'Kept card')).toContainText(/CARD-\w+ \(the payer asked to keep it\)/);
  await panel.getByLabel('Amount to charge (OMR)').fill('2.500');
  await panel.getByRole('button', { name: 'Charge kept card' }).click();
  const charged = page.getByRole('region', { name: /^Payment PAY-/ });
  await expect(charged.getByRole('status')).toHaveText(/^Charged OMR 2\.500 on the kept card \(PAY-\w+\)\.$/);
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
