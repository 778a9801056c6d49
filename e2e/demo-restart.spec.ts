// The demo shop killed (SIGKILL) and started again, as a merchant's crash: its orders are kept in its
// database folder (PGlite), the sandbox (the service) lives on in the launcher, and a payment whose
// answer died with the shop is read by the page as checking, then paid: never "not paid", one charge.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { asStaff, crashShop, type Launched, launch, nonceFor, pay } from './support/demo';
import { emptyPglite } from '../test/setup/pglite';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

let demo: Launched;
let data: string;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  data = mkdtempSync(join(tmpdir(), 'payframe-restart-'));
  demo = await launch(['--test-mode', '--data', emptyPglite(join(data, 'db'))]);
});
test.afterAll(async () => {
  demo?.child.kill('SIGTERM');
  await demo?.exited;
  rmSync(data, { recursive: true, force: true });
});

const control = (request: APIRequestContext, path: string, data: unknown) => request.post(`${demo.sandbox}/__sandbox/${path}`, { data });

test('a paid order is still the shop’s after a crash: the page and the back office read it', async ({ playwright, request }) => {
  const payer = await playwright.request.newContext();
  const paid = await pay(payer, demo, { intent: 'sale' });
  expect(paid).toMatchObject({ status: 'approved', orderId: expect.stringMatching(/^ORD-/) });
  const back = await crashShop(demo);
  console.log(`the shop answered again ${Math.round(back)} ms after SIGKILL`);
  expect(await (await payer.get(`${demo.shop}/api/payment/${paid.referenceId}`)).json()).toMatchObject({
    status: 'approved',
    orderId: paid.orderId,
  });
  await asStaff(request, demo);
  const { payment } = await (await request.get(`${demo.shop}/api/payments/${paid.referenceId}`)).json();
  expect(payment).toMatchObject({ orderId: paid.orderId, state: 'captured', captured: paid.amount.total });
  // A new order after the restart takes a new number.
  const next = await pay(payer, demo, { intent: 'sale' });
  expect(Number(next.orderId.slice(4))).toBeGreaterThan(Number(paid.orderId.slice(4)));
  await payer.dispose();
});

test('the shop dies between the payment request and its answer: checking, then paid, one charge', async ({ playwright, request }) => {
  const payer = await playwright.request.newContext();
  // The service holds its answer for 8 s (it charges after): the shop is killed meanwhile.
  await control(request, 'fault', { kind: 'delay', ms: 8000, method: 'POST', path: '/v1/merchants/sandbox-merchant/payment' });
  const attempt = randomUUID();
  const nonce = await nonceFor(demo);
  const pressed = payer.post(`${demo.shop}/api/pay`, { data: { intent: 'sale', card: { nonce }, attempt } }).catch((error: Error) => error);
  const ask = async () => (await (await payer.get(`${demo.shop}/api/attempt/${attempt}`)).json()) as { status: string; orderId?: string };
  // The press reaches the shop first: an ask that came before it would close the attempt (none, nothing
  // charged), which is the page's first ask after a lost answer, not this scenario.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  // The order is kept before its payment request leaves: the page's ask says "checking".
  expect((await ask()).status).toBe('checking');
  await new Promise((resolve) => setTimeout(resolve, 500));
  await crashShop(demo);
  expect((await pressed) instanceof Error).toBe(true); // the page's request died with the shop
  // The shop knows the order again; the service's notification (retried once the shop is back) settles it.
  expect((await ask()).status).not.toBe('none');
  await control(request, 'clock', { advanceMs: 60_000 });
  await expect.poll(async () => (await ask()).status, { timeout: 60_000 }).toBe('approved');
  const { orderId } = await ask();
  const { notifications } = (await (await control(request, 'notifications/idle', {})).json()) as {
    notifications: { kind: string; referenceId: string }[];
  };
  await asStaff(request, demo);
  const { payments } = (await (await request.get(`${demo.shop}/api/payments`)).json()) as {
    payments: { orderId: string; referenceId: string; state: string }[];
  };
  const order = payments.find((p) => p.orderId === orderId)!;
  expect(order).toMatchObject({ state: 'captured', referenceId: expect.stringMatching(/^PAY-/) });
  // One charge at the service for this order.
  expect(notifications.filter((n) => n.kind === 'PAYMENT.SALE.COMPLETED' && n.referenceId === order.referenceId)).toHaveLength(1);
  await payer.dispose();
});
