// The redirect flow's end: the payer finishes the one-time password on the bank's page (the
// sandbox's), comes back to the shop's return page, and reads the outcome there.
import { expect, test } from '@playwright/test';
import { testCards } from '../src/sandbox';
import { expectAccessible, pay, screenshot, useDemo, watchCsp } from './support/demo';

test.use({ ignoreHTTPSErrors: false });

const demo = useDemo();

test('a sale finished on the bank’s page ends on the return page: approved, with the amount and the order', async ({
  page,
  context,
}, testInfo) => {
  // The page's own pay call, made with this browser's cookies (the checkout's form is phase 2).
  const answer = await pay(context.request, demo, { intent: 'sale', card: testCards.redirectOnly });
  expect(answer.status).toBe('pending');
  const { sessionId, redirectUrl } = answer.pending!;
  expect(redirectUrl).toBe(`${demo.sandbox}/v1/redirect/${sessionId}`);

  const violations = await watchCsp(page);
  await page.goto(redirectUrl);
  await page.getByLabel('One-time password').fill('111111');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.waitForURL(`${demo.shop}/return?payment-session-id=${sessionId}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment approved');
  await expect(page.getByRole('status')).toHaveText('OMR 13.750 has been charged to your card.');
  await expect(page.getByText(`Order ${answer.orderId} · payment ${answer.referenceId}`)).toBeVisible();
  await screenshot(page, testInfo, 'return-approved');
  await expectAccessible(page);
  expect(await violations()).toEqual([]);

  // Another browser (no checkout cookie) is not shown this payer's outcome.
  const stranger = await context.browser()!.newContext();
  const other = await stranger.newPage();
  await other.goto(page.url());
  await expect(other.getByRole('heading', { level: 1 })).toHaveText('We could not check your payment');
  await expect(other.getByRole('status')).toHaveText('This payment was not started in this browser, so the shop does not show it here.');
  await stranger.close();
});

test('in Arabic, an authorisation: the return page answers in Arabic, right to left', async ({ page, context }, testInfo) => {
  const answer = await pay(context.request, demo, { intent: 'auth', card: testCards.redirectOnly, locale: 'ar' });
  await page.goto(answer.pending!.redirectUrl);
  await page.getByLabel('One-time password').fill('111111');
  await page.getByLabel('One-time password').press('Enter');
  await page.waitForURL(/\/return\?/);
  expect(new URL(page.url()).searchParams.get('lang')).toBe('ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('تمت الموافقة على الدفع');
  await expect(page.getByRole('status')).toContainText('تم حجز');
  await screenshot(page, testInfo, 'return-approved-ar');
  await expectAccessible(page);
});

test('a wrong one-time password: declined, with the bank’s reason', async ({ page, context }) => {
  const answer = await pay(context.request, demo, { intent: 'sale', card: testCards.redirectOnly });
  await page.goto(answer.pending!.redirectUrl);
  await page.getByLabel('One-time password').fill('000000');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.waitForURL(/\/return\?/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment declined');
  await expect(page.getByRole('status')).toHaveText(
    'Your bank declined the payment: Cardholder failed 3-D authentication (code 1202). No money was taken.',
  );
});

test('a return address without a valid session id asks nothing of the server', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (request) => asked.push(new URL(request.url()).pathname));
  await page.goto(`${demo.shop}/return?payment-session-id=../../api/payments`);
  await expect(page.getByRole('status')).toContainText('This address has none.');
  expect(asked.filter((path) => path.startsWith('/api/'))).toEqual([]);
});
