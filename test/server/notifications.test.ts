import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createGateway, memoryNotificationStore, type GatewayEvent, type Notification, type Payment } from '../../src/server';
import { hex } from '../../src/sandbox/model/state';
import { EUR, expectNoSecrets, fullCard, refusal, testCards, useSandbox } from './helpers';

const ctx = useSandbox();
const AUTH = 'Bearer notify-7f3a9c';

/** The body the service posts: a form of pg_signature and pg_payload (base64 of JSON). */
function body(payload: unknown, extra: Record<string, string> = {}): string {
  const json = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return new URLSearchParams({ pg_signature: 'f00d', pg_payload: Buffer.from(json).toString('base64'), ...extra }).toString();
}
const notice = (resource: Record<string, unknown>, id = `WH-${hex(12).toUpperCase()}`, kind = 'PAYMENT.SALE.COMPLETED') => ({
  id,
  create_time: new Date().toISOString(),
  resource_type: 'payment',
  kind,
  resource,
});
const post = (
  text: string,
  headers: Record<string, string> = { authorization: AUTH, 'content-type': 'application/x-www-form-urlencoded' },
) => new Request('https://shop.example/payframe/notify', { method: 'POST', headers, body: text });

/** A notification route whose onPayment records what it was given, and the gateway's events. */
function route(onPayment?: (payment: Payment, n: Notification) => void | Promise<void>, store = memoryNotificationStore()) {
  const calls: { payment: Payment; notification: Notification }[] = [];
  const events: GatewayEvent[] = [];
  const gateway = createGateway({ ...ctx.options, onEvent: (e) => events.push(e) });
  const handler = gateway.handlers.notification({
    authorization: AUTH,
    store,
    onPayment: async (payment, notification) => {
      await onPayment?.(payment, notification);
      calls.push({ payment, notification });
    },
  });
  return { handler, calls, events, gateway, store };
}

const sale = (card = testCards.approved, invoiceNumber?: string) =>
  ctx.gateway.payments.create({ intent: 'sale', amount: EUR('12.00'), card: fullCard(card), ...(invoiceNumber && { invoiceNumber }) });

describe('handlers.notification', () => {
  it('reads the payment from the service and hands it to onPayment, then answers 204', async () => {
    const { handler, calls, events } = route();
    const payment = await sale();
    const response = await handler(post(body(notice({ reference_id: payment.reference_id, state: 'captured' }))));
    expect(response.status).toBe(204);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.payment.reference_id).toBe(payment.reference_id);
    expect(calls[0]!.payment.state).toBe('captured');
    expect(calls[0]!.notification.kind).toBe('PAYMENT.SALE.COMPLETED');
    // The sandbox's ids (and this test's, made as it makes them) never hold twelve digits in a row: whole.
    expect(events.filter((e) => e.type === 'notification').map((e) => e.message)).toEqual([
      expect.stringMatching(new RegExp(`^notification WH-\\w+ PAYMENT.SALE.COMPLETED ${payment.reference_id}: handled$`)),
    ]);
  });

  it('refuses a missing or wrong Authorization with 401, reading nothing and calling nothing', async () => {
    const { handler, calls, events } = route();
    const payment = await sale();
    const before = ctx.sandbox.requests().length;
    const valid = body(notice({ reference_id: payment.reference_id }));
    for (const headers of <Record<string, string>[]>[
      { 'content-type': 'application/x-www-form-urlencoded' },
      { authorization: `${AUTH}x`, 'content-type': 'application/x-www-form-urlencoded' },
      { authorization: AUTH.toLowerCase(), 'content-type': 'application/x-www-form-urlencoded' },
      { authorization: '', 'content-type': 'application/x-www-form-urlencoded' },
    ]) {
      const response = await handler(post(valid, headers));
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
    }
    expect(calls).toHaveLength(0);
    expect(ctx.sandbox.requests().length).toBe(before);
    expect(events.map((e) => e.type === 'notification' && e.outcome)).toEqual(['refused', 'refused', 'refused', 'refused']);
  });

  it('answers 400 (415, 405) to a body that is not the documented shape, and calls nothing', async () => {
    const { handler, calls } = route();
    const payment = await sale();
    const good = notice({ reference_id: payment.reference_id });
    const form = { authorization: AUTH, 'content-type': 'application/x-www-form-urlencoded' };
    const cases: [Request, number][] = [
      [post(JSON.stringify(good), { authorization: AUTH, 'content-type': 'application/json' }), 415],
      [post(new URLSearchParams({ pg_payload: Buffer.from(JSON.stringify(good)).toString('base64') }).toString()), 400],
      [post(body(good, { extra: '1' })), 400],
      [post(`${body(good)}&pg_payload=e30=`), 400],
      [post('pg_signature=1&pg_payload=%%%not-base64'), 400],
      [post(body('{"id": "WH-1", "not json')), 400],
      [post(body({ ...good, resource_type: 'refund' })), 400],
      [post(body({ ...good, id: 'WH 1; drop' })), 400],
      [post(body({ ...good, kind: 'payment.sale' })), 400],
      [post(body({ ...good, resource: {} })), 400],
      [post(body({ ...good, resource: 'PAY-1' })), 400],
      [new Request('https://shop.example/n', { method: 'GET', headers: form }), 405],
    ];
    for (const [request, status] of cases) {
      const response = await handler(request);
      expect(response.status, await response.clone().text()).toBe(status);
    }
    expect(calls).toHaveLength(0);
  });

  it('never believes the payload: a declined payment that claims to be captured reaches onPayment declined', async () => {
    const { handler, calls } = route();
    const declined = await sale(testCards.declined);
    expect(declined.state).toBe('declined');
    const lie = notice(
      { reference_id: declined.reference_id, state: 'captured', result: { code: '0000' } },
      undefined,
      'PAYMENT.CAPTURE.COMPLETED',
    );
    expect((await handler(post(body(lie)))).status).toBe(204);
    expect(calls.map((c) => c.payment.state)).toEqual(['declined']);
    // An older snapshot arriving after a newer one cannot move an order back: both read the payment as it is now.
    const auth = await ctx.gateway.payments.create({ intent: 'auth', amount: EUR('3.00'), card: fullCard(testCards.approved) });
    await ctx.gateway.payments.capture(auth.reference_id);
    const older = notice({ reference_id: auth.reference_id, state: 'authorised' }, undefined, 'PAYMENT.AUTHORIZATION.CREATED');
    expect((await handler(post(body(older)))).status).toBe(204);
    expect(calls.at(-1)!.payment.state).toBe('captured');
  });

  it('answers 404 for a payment the service does not know, and calls nothing', async () => {
    const { handler, calls } = route();
    const response = await handler(post(body(notice({ reference_id: 'PAY-FORGED0000' }))));
    expect(response.status).toBe(404);
    expect(calls).toHaveLength(0);
  });

  it('handles a notification once: a duplicate, even a concurrent one, is answered 204 without a second call', async () => {
    const { handler, calls, events } = route(() => new Promise((r) => setTimeout(r, 50)));
    const payment = await sale();
    const n = body(notice({ reference_id: payment.reference_id }, 'WH-DUP-1'));
    const answers = await Promise.all([handler(post(n)), handler(post(n))]);
    expect(answers.map((a) => a.status)).toEqual([204, 204]);
    expect((await handler(post(n))).status).toBe(204);
    expect(calls).toHaveLength(1);
    expect(
      events
        .filter((e) => e.type === 'notification')
        .map((e) => e.type === 'notification' && e.outcome)
        .sort(),
    ).toEqual(['duplicate', 'duplicate', 'handled']);
  });

  it('answers 500 while onPayment fails, and handles the same notification once it succeeds', async () => {
    let down = true;
    const { handler, calls, events } = route(() => {
      if (down) throw new Error('database is down');
    });
    const payment = await sale();
    const n = body(notice({ reference_id: payment.reference_id }, 'WH-RETRY-1'));
    expect((await handler(post(n))).status).toBe(500);
    expect((await handler(post(n))).status).toBe(500);
    down = false;
    expect((await handler(post(n))).status).toBe(204);
    expect((await handler(post(n))).status).toBe(204);
    expect(calls).toHaveLength(1);
    const failed = events.filter((e) => e.type === 'notification' && e.outcome === 'failed');
    expect(failed).toHaveLength(2);
    expectNoSecrets(events, [ctx.sandbox.merchant.clientSecret]);
  });

  it('ignores a notification about something other than a payment (204, nothing called)', async () => {
    const { handler, calls } = route();
    const response = await handler(post(body({ ...notice({}), resource_type: 'subscription', kind: 'SUBSCRIPTION.CREATED' })));
    expect(response.status).toBe(204);
    expect(calls).toHaveLength(0);
  });

  it('refuses options it cannot work with (invalid_config)', async () => {
    const n = ctx.gateway.handlers.notification;
    expect(() => n({ onPayment: () => {} } as never)).toThrow(/authorization is required/);
    expect(() => n({ authorization: ' ', onPayment: () => {} })).toThrow(/authorization is required/);
    expect(() => n({ authorization: AUTH } as never)).toThrow(/onPayment must be a function/);
    expect(() => n({ authorization: AUTH, onPayment: () => {}, store: {} as never })).toThrow(/store must have/);
  });
});

describe('memoryNotificationStore', () => {
  it('gives an id to one delivery at a time: a second waits, then sees it handled, or takes it when the first gave it back', async () => {
    const store = memoryNotificationStore();
    expect(await store.claim('x')).toBe('new');
    const second = store.claim('x');
    const third = store.claim('x');
    await store.release('x'); // the first failed: one of the waiters takes it, the other waits for that one
    expect(await second).toBe('new');
    await store.finish('x', { referenceId: 'PAY-x', invoiceNumber: undefined });
    expect(await third).toBe('handled');
  });

  it('keeps the newest notifications only, within its limit', async () => {
    const store = memoryNotificationStore(2);
    for (const id of ['a', 'b', 'c']) {
      expect(await store.claim(id)).toBe('new');
      await store.finish(id, { referenceId: `PAY-${id}`, invoiceNumber: `INV-${id}` });
    }
    // 'a' was forgotten (the oldest past the limit): taken anew; the newest two are handled.
    expect([await store.claim('b'), await store.claim('c'), await store.claim('a')]).toEqual(['handled', 'handled', 'new']);
    expect([await store.referenceOf!('INV-a'), await store.referenceOf!('INV-c')]).toEqual([undefined, 'PAY-c']);
  });
});

describe('an answer that never came back', () => {
  const path = () => `/v1/merchants/${ctx.sandbox.merchant.id}/payment`;
  const count = () => ctx.sandbox.requests().filter((r) => r.method === 'POST' && r.path === path()).length;

  it('is outcome_unknown, not network, when the service acted and the answer was lost; settle says unknown until notified', async () => {
    const { store } = route();
    const before = count();
    ctx.sandbox.injectFault({ kind: 'lose', method: 'POST', path: path() });
    const invoiceNumber = `INV-LOST-${Date.now()}`;
    const error = await refusal(sale(testCards.approved, invoiceNumber), 'outcome_unknown');
    expect(error.message).toMatch(/answer was lost.*Do not send it again/);
    expect(count()).toBe(before + 1);
    expect(await ctx.gateway.payments.settle({ invoiceNumber }, { store })).toEqual({ status: 'unknown', invoiceNumber });
  });

  it('is outcome_unknown for a timeout after the request left, and for a connection closed before the answer', async () => {
    const slow = createGateway({ ...ctx.options, timeoutMs: 300 });
    ctx.sandbox.injectFault({ kind: 'delay', ms: 1500, method: 'POST', path: path() });
    await refusal(slow.payments.create({ intent: 'sale', amount: EUR('1.00'), card: fullCard(testCards.approved) }), 'outcome_unknown');
    ctx.sandbox.injectFault({ kind: 'drop', method: 'POST', path: path() });
    await refusal(sale(), 'outcome_unknown');
  });

  it('stays network when the request certainly never left (connection refused), and timeout for the client token', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = server.address() as AddressInfo;
        server.close(() => resolve(p));
      });
    });
    const closed = createGateway({ ...ctx.options, baseUrl: `https://127.0.0.1:${port}` });
    await refusal(closed.payments.create({ intent: 'sale', amount: EUR('1.00'), card: fullCard(testCards.approved) }), 'network');
    const slow = createGateway({ ...ctx.options, timeoutMs: 200 });
    ctx.sandbox.injectFault({ kind: 'delay', ms: 1500, method: 'POST', path: `${path().replace(/payment$/, 'client_token')}` });
    await refusal(slow.clientToken(), 'timeout');
  });

  it('reaches the page through a handler as outcome_unknown (504), never as a refusal of the payment', async () => {
    const cvv = ctx.gateway.handlers.cvv({
      handle: async ({ cvv: code }) =>
        ctx.gateway.payments.create({ intent: 'sale', amount: EUR('2.00'), card: fullCard(testCards.approved, code) }),
    });
    ctx.sandbox.injectFault({ kind: 'lose', method: 'POST', path: path() });
    const response = await cvv(
      new Request('https://shop.example/cvv', {
        method: 'POST',
        headers: { origin: ctx.sandbox.url, 'content-type': 'application/json' },
        body: JSON.stringify({ cvv: '7391' }),
      }),
    );
    expect(response.status).toBe(504);
    const answer = (await response.json()) as { error: { code: string; message: string } };
    expect(answer.error.code).toBe('outcome_unknown');
    expect(answer.error.message).toMatch(/being checked; do not pay again/);
  });
});

describe('payments.settle', () => {
  it('reads a payment by its reference id, a pending one by its session id, and refuses anything else', async () => {
    const paid = await sale();
    expect(await ctx.gateway.payments.settle({ referenceId: paid.reference_id })).toMatchObject({ status: 'approved', state: 'captured' });
    const pending = await ctx.gateway.payments.create({ intent: 'sale', amount: EUR('5.00'), card: fullCard(testCards.otp) });
    const sessionId = pending.result.redirect_url!.split('/').pop()!;
    expect(await ctx.gateway.payments.settle({ sessionId })).toMatchObject({ status: 'pending', referenceId: pending.reference_id });
    // A payer who walks away: the pending payment expires, and settle says so.
    ctx.sandbox.advanceClock(15 * 60_000);
    expect(await ctx.gateway.payments.settle({ sessionId })).toMatchObject({ status: 'declined', code: '1203' });
    for (const bad of [{}, { referenceId: 1 }, { referenceId: 'a', sessionId: 'b' }, null]) {
      await refusal(ctx.gateway.payments.settle(bad as never), 'invalid_request');
    }
    expect(await ctx.gateway.payments.settle({ invoiceNumber: 'INV-NOBODY' })).toEqual({ status: 'unknown', invoiceNumber: 'INV-NOBODY' });
  });
});
