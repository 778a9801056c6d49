// No payment lost (docs/outcomes.md), played in Chromium on the demo as a payer and the shop's staff
// live it: the sandbox posts its notifications to the shop through a relay this test controls (to play
// a route that is down, and to learn the Authorization value a forger would need).
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { APPROVED, CheckoutPage, DECLINED, REDIRECT } from './support/demo-checkout';
import { watchOtpForm } from './support/otp-watch';
import { asStaff, expectAccessible, type Launched, launch, nonceFor, pay, screenshot } from './support/demo';

test.use({ ignoreHTTPSErrors: false });
test.describe.configure({ mode: 'serial' });

/** Stands between the sandbox and the shop's notification route: down (503) or passing each post on. */
const relay = { down: false, target: '', posts: [] as { authorization: string; body: string; status: number }[] };
let server: Server;
let demo: Launched;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', async () => {
      const authorization = req.headers.authorization ?? '';
      const status = relay.down
        ? 503
        : (
            await fetch(relay.target, {
              method: 'POST',
              headers: { authorization, 'content-type': req.headers['content-type'] ?? '' },
              body,
            })
          ).status;
      relay.posts.push({ authorization, body, status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  demo = await launch(['--test-mode', '--notify-url', `http://127.0.0.1:${port}/relay`]);
  relay.target = `${demo.shop.replace('localhost', '127.0.0.1')}/api/notifications`;
});
test.afterAll(async () => {
  demo?.child.kill('SIGTERM');
  await demo?.exited;
  server?.close();
});

interface SentNotification {
  id: string;
  kind: string;
  referenceId: string;
  state: string;
  attempts: { status?: number }[];
}
const control = (request: APIRequestContext, path: string, data?: unknown) =>
  data === undefined ? request.get(`${demo.sandbox}/__sandbox/${path}`) : request.post(`${demo.sandbox}/__sandbox/${path}`, { data });
/** What the sandbox sent, once nothing is under way or due. */
async function sent(request: APIRequestContext): Promise<SentNotification[]> {
  const response = await control(request, 'notifications/idle', {});
  return ((await response.json()) as { notifications: SentNotification[] }).notifications;
}
const loseNextPayment = (request: APIRequestContext) =>
  control(request, 'fault', { kind: 'lose', method: 'POST', path: '/v1/merchants/sandbox-merchant/payment' });
const CHECKING = 'We are checking your payment: it may have gone through. Do not pay again.';

/** The back office's list of notifications, as the staff sees it. */
async function backOffice(page: Page) {
  await page.goto(demo.backOffice);
  const notices = page.getByRole('table', { name: /as they arrive/ });
  await expect(notices).toBeVisible();
  return { notices, payments: page.getByRole('table', { name: /Newest first\. Choose a payment/ }) };
}

test('the answer to the payment is lost after the service charged: the page says it is checking, the order settles paid, one charge', async ({
  page,
  request,
}, testInfo) => {
  const before = (await sent(request)).length;
  expect((await loseNextPayment(request)).status()).toBe(200);
  const checkout = await CheckoutPage.open(page, demo, 'script');
  await checkout.typeCard(APPROVED);
  await checkout.pay();
  await expect(checkout.status).toHaveText(CHECKING);
  await expect(page.getByRole('button', { name: 'Paying…' })).toBeDisabled();
  await screenshot(page, testInfo, 'lost-answer-checking');
  const referenceId = await checkout.approved(); // settled by the notification: the page asked the shop until then
  await checkout.expectClean(APPROVED);
  const sales = (await sent(request)).slice(before).filter((n) => n.kind === 'PAYMENT.SALE.COMPLETED');
  expect(sales.map((n) => n.referenceId)).toEqual([referenceId]); // one charge at the service
});

test('the payer pays on the bank’s page and closes the tab: the order becomes paid by its notification', async ({ page, context }) => {
  const drawn = await watchOtpForm(page);
  const checkout = await CheckoutPage.open(page, demo, 'script');
  await checkout.typeCard(REDIRECT);
  await checkout.pay();
  // This card's OTP is taken on the bank's page only: the shop's page goes there at once, without its form.
  await page.waitForURL(new RegExp(`^${demo.sandbox}/v1/redirect/`), { timeout: 15_000 });
  expect(drawn()).toBe(false);
  // The payer confirms on the bank's page and closes the tab: the bank's answer, which would send them
  // back to the shop's return page, is never followed.
  let back = '';
  await page.route(
    (url) => url.href.startsWith(`${demo.sandbox}/v1/redirect/`),
    async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      back = (await route.fetch({ maxRedirects: 0 })).headers()['location'] ?? '';
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'the payer closed this tab' });
    },
  );
  await page.getByLabel('One-time password').fill('111111');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect.poll(() => back).toMatch(new RegExp(`^${demo.shop}/return\\?`));
  const order = (await sent(page.request)).filter((n) => n.kind === 'PAYMENT.SALE.COMPLETED').at(-1)!;
  await page.close();

  const { notices, payments } = await backOffice(await context.newPage());
  const notice = notices.getByRole('row').filter({ hasText: order.referenceId });
  await expect(notice).toContainText('PAYMENT.SALE.COMPLETED');
  await expect(notice).toContainText(/ORD-\d+/);
  await expect(notice).toContainText('captured');
  await expect(payments.getByRole('row').filter({ hasText: order.referenceId })).toContainText('captured');
});

test('the notification route is down for a while: the order stays being checked, then settles once it is back', async ({
  page,
  context,
  request,
}) => {
  relay.down = true;
  await loseNextPayment(request);
  const checkout = await CheckoutPage.open(page, demo, 'script');
  await checkout.typeCard(APPROVED);
  await checkout.pay();
  await expect(checkout.status).toHaveText(CHECKING);
  await expect.poll(() => relay.posts.filter((p) => p.status === 503).length).toBeGreaterThan(0);
  const office = await context.newPage();
  const { payments } = await backOffice(office);
  await expect(payments.getByRole('row').filter({ hasText: 'being checked' })).toHaveCount(1);
  await page.waitForTimeout(3000);
  await expect(checkout.status).toHaveText(CHECKING); // still: never "not paid", never a second payment

  relay.down = false;
  await control(request, 'clock', { advanceMs: 60_000 }); // the sandbox's first retry is due
  const referenceId = await checkout.approved();
  await office.reload();
  await expect(payments.getByRole('row').filter({ hasText: referenceId })).toContainText('captured');
  await expect(payments.getByRole('row').filter({ hasText: 'being checked' })).toHaveCount(0);
});

test('duplicate and reordered notifications have one effect each', async ({ page, context, request }) => {
  await control(request, 'notifications/chaos', { duplicate: true, reorder: true });
  try {
    const checkout = await CheckoutPage.open(page, demo, 'script');
    const referenceId = await checkout.payApproved('auth');
    const staff = context.request;
    await asStaff(staff, demo);
    expect((await staff.post(`${demo.shop}/api/payments/${referenceId}/capture`, { data: {} })).status()).toBe(200);
    expect((await staff.post(`${demo.shop}/api/payments/${referenceId}/refund`, { data: { amount: '1.000' } })).status()).toBe(200);
    const mine = (await sent(request)).filter((n) => n.referenceId === referenceId);
    expect(mine.map((n) => n.kind).sort()).toEqual([
      'PAYMENT.AUTHORIZATION.CREATED',
      'PAYMENT.CAPTURE.COMPLETED',
      'PAYMENT.REFUND.COMPLETED',
    ]);
    // Each came twice (the same id), and the route answered both.
    const idOf = (body: string) =>
      (JSON.parse(Buffer.from(new URLSearchParams(body).get('pg_payload') ?? '', 'base64').toString()) as { id: string }).id;
    for (const n of mine) expect(relay.posts.filter((p) => idOf(p.body) === n.id && p.status === 204)).toHaveLength(2);
    // The shop handled each notification once, whatever came twice or out of order, and read the state as it is now.
    const { notifications } = (await (await staff.get(`${demo.shop}/api/notifications`)).json()) as {
      notifications: { id: string; referenceId: string; state: string }[];
    };
    const handled = notifications.filter((n) => n.referenceId === referenceId);
    expect(handled.map((n) => n.id).sort()).toEqual(mine.map((n) => n.id).sort());
    expect(handled.at(0)!.state).toBe('captured'); // the newest read: captured, part refunded
  } finally {
    await control(request, 'notifications/chaos', {});
  }
});

test('a forged notification changes nothing: without or with a wrong Authorization, or claiming captured for a declined payment', async ({
  page,
  context,
  request,
}) => {
  const checkout = await CheckoutPage.open(page, demo, 'script');
  await checkout.typeCard(DECLINED);
  await checkout.pay();
  await expect(checkout.status).toContainText('Payment declined');
  const referenceId = /PAY-\w+/.exec((await checkout.status.textContent())!)![0];
  const authorization = relay.posts.at(-1)!.authorization; // what the service adds: a forger who learnt it
  expect(authorization).toMatch(/^Bearer [0-9a-f]{32}$/);
  const payload = Buffer.from(
    JSON.stringify({
      id: 'WH-FORGED',
      create_time: new Date().toISOString(),
      resource_type: 'payment',
      kind: 'PAYMENT.CAPTURE.COMPLETED',
      resource: { reference_id: referenceId, state: 'captured', result: { code: '0000' } },
    }),
  ).toString('base64');
  const form = `pg_signature=forged&pg_payload=${encodeURIComponent(payload)}`;
  const forge = (headers: Record<string, string>) =>
    request.post(`${demo.shop}/api/notifications`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      data: form,
    });
  expect((await forge({})).status()).toBe(401);
  expect((await forge({ authorization: 'Bearer wrong' })).status()).toBe(401);
  expect((await forge({ authorization })).status()).toBe(204); // taken, and the payment read from the service

  const { notices, payments } = await backOffice(await context.newPage());
  await expect(payments.getByRole('row').filter({ hasText: referenceId })).toContainText('declined');
  await expect(notices.getByRole('row').filter({ hasText: 'PAYMENT.CAPTURE.COMPLETED' }).filter({ hasText: referenceId })).toContainText(
    'declined',
  );
});

test('the books follow the record the service answers, never the posted kind: a "refund" naming a capture refunds nothing', async ({
  playwright,
  request,
}) => {
  const payer = await playwright.request.newContext();
  const { referenceId } = await pay(payer, demo, { intent: 'auth' });
  await payer.dispose();
  await asStaff(request, demo);
  const captured = await request.post(`${demo.shop}/api/payments/${referenceId}/capture`, { data: { amount: '5.000' } });
  expect(captured.status(), await captured.text()).toBe(200);
  const shown = async () => (await (await request.get(`${demo.shop}/api/payments/${referenceId}`)).json()).payment;
  const capture = (await shown()).history.find((h: { kind: string }) => h.kind === 'capture');
  expect(capture).toMatchObject({ id: expect.any(String), total: '5.000' });
  await sent(request); // the capture's own notification is in
  // One who learnt the Authorization value posts a refund of the payment, naming its capture's record.
  const payload = Buffer.from(
    JSON.stringify({
      id: 'WH-FORGED-REFUND',
      create_time: new Date().toISOString(),
      resource_type: 'payment',
      kind: 'PAYMENT.REFUND.COMPLETED',
      resource: {
        id: capture.id,
        reference_id: referenceId,
        state: 'refunded',
        transaction: { amount: { currency: 'OMR', total: '5.000' } },
      },
    }),
  ).toString('base64');
  const forged = await request.post(`${demo.shop}/api/notifications`, {
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: relay.posts.at(-1)!.authorization },
    data: `pg_signature=forged&pg_payload=${encodeURIComponent(payload)}`,
  });
  expect(forged.status()).toBe(204);
  expect(await shown()).toMatchObject({ state: 'captured', captured: '5.000', refunded: '0.000' });
  expect((await shown()).history.filter((h: { kind: string }) => h.kind === 'refund')).toEqual([]);
});

test('a press of Pay the page asked about before its POST arrived is closed: told "none", the late POST charges nothing', async ({
  playwright,
  request,
}) => {
  const payer = await playwright.request.newContext();
  const before = (await sent(request)).length;
  const attempt = randomUUID();
  const nonce = await nonceFor(demo);
  // The page's first ask comes before its POST (a slow network): nothing is known, and nothing may be paid later.
  expect(await (await payer.get(`${demo.shop}/api/attempt/${attempt}`)).json()).toEqual({ status: 'none' });
  const late = await payer.post(`${demo.shop}/api/pay`, { data: { intent: 'sale', card: { nonce }, attempt } });
  expect(await late.json()).toEqual({ status: 'none' });
  expect((await sent(request)).length).toBe(before); // no payment at the service
  // The nonce was never spent: a new press of Pay with it pays.
  const again = await payer.post(`${demo.shop}/api/pay`, { data: { intent: 'sale', card: { nonce }, attempt: randomUUID() } });
  expect(await again.json()).toMatchObject({ status: 'approved' });
  await payer.dispose();
});

test('an authorisation left seven days is cancelled, notified, and shown in the back office', async ({
  page,
  context,
  request,
}, testInfo) => {
  const referenceId = await (await CheckoutPage.open(page, demo, 'script')).payApproved('auth');
  await control(request, 'clock', { advanceMs: 7 * 24 * 3600_000 });
  const cancelled = (await sent(request)).filter((n) => n.referenceId === referenceId && n.kind === 'PAYMENT.AUTHORIZATION.VOIDED');
  expect(cancelled).toHaveLength(1);
  const office = await context.newPage();
  const { notices, payments } = await backOffice(office);
  await expect(notices.getByRole('row').filter({ hasText: referenceId }).filter({ hasText: 'PAYMENT.AUTHORIZATION.VOIDED' })).toContainText(
    'cancelled',
  );
  await expect(payments.getByRole('row').filter({ hasText: referenceId })).toContainText('cancelled');
  await screenshot(office, testInfo, 'back-office-notifications');
  await expectAccessible(office);
});

test("the shop charged, and its answer to /api/pay was lost on the way to the browser: the page never says 'Not paid'", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const checkout = await CheckoutPage.open(page, demo, 'script');
  await checkout.typeCard(APPROVED);
  let charged: { status?: string; referenceId?: string } | undefined;
  await page.route('**/api/pay', async (route) => {
    const response = await route.fetch(); // the shop gets the request and pays
    charged = (await response.json()) as typeof charged;
    await route.abort('connectionreset'); // its answer is lost on the way back
  });
  await checkout.pay();
  await expect.poll(() => charged?.status, { timeout: 15_000 }).toBe('approved');
  // What the page ends on: "Not paid" (a refusal), or that it is checking / the payment's outcome.
  await expect(checkout.status).toHaveText(/Not paid|checking your payment|Payment approved/, { timeout: 15_000 });
  expect(await checkout.status.textContent()).not.toMatch(/Not paid/);
});

test('a refund whose answer was lost reaches the back office by its notification: staff never see the money as still to refund', async ({
  request,
}) => {
  test.setTimeout(60_000);
  const { referenceId, status } = await pay(request, demo, { intent: 'sale' });
  expect(status).toBe('approved');
  await asStaff(request, demo);
  // The service refunds OMR 5.000; its answer never comes back.
  const fault = await request.post(`${demo.sandbox}/__sandbox/fault`, {
    data: { kind: 'lose', method: 'POST', path: `/v1/merchants/sandbox-merchant/payment/${referenceId}/refund` },
  });
  expect(fault.status()).toBe(200);
  const refund = await request.post(`${demo.shop}/api/payments/${referenceId}/refund`, { data: { amount: '5.000' } });
  expect(((await refund.json()) as { error?: { code: string } }).error?.code).toBe('outcome_unknown');
  // Its notification (PAYMENT.REFUND.COMPLETED) reached the shop's route and was answered 2xx.
  const idle = (await (await request.post(`${demo.sandbox}/__sandbox/notifications/idle`, { data: {} })).json()) as {
    notifications: { kind: string; referenceId: string; state: string }[];
  };
  expect(idle.notifications.filter((n) => n.referenceId === referenceId).map((n) => [n.kind, n.state])).toContainEqual([
    'PAYMENT.REFUND.COMPLETED',
    'delivered',
  ]);
  // What the staff read of the payment: OMR 5.000 refunded, so only 8.750 left (not 13.750, which invites a second refund).
  const row = (await (await request.get(`${demo.shop}/api/payments/${referenceId}`)).json()) as {
    payment: { refunded: string; captured: string };
  };
  expect(row.payment.captured).toBe('13.750');
  expect(row.payment.refunded).toBe('5.000');
});
