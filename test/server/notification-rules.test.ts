// The notification route's rules for a slow shop and for refusals, against the real sandbox: an
// onPayment past its deadline gives its claim back and answers 503 (the service sends it again), the
// payment's later notifications do not wait on it, and every refusal reaches onEvent.
import { describe, expect, it } from 'vitest';
import { createGateway, type GatewayEvent, type NotificationEvent } from '../../src/server';
import { EUR, fullCard, testCards, useSandbox } from './helpers';

const ctx = useSandbox();
const AUTH = 'Bearer rules-notify-0c4e';

const body = (referenceId: string, id: string, kind = 'PAYMENT.SALE.COMPLETED') =>
  new URLSearchParams({
    pg_signature: 'f00d',
    pg_payload: Buffer.from(
      JSON.stringify({
        id,
        create_time: new Date().toISOString(),
        resource_type: 'payment',
        kind,
        resource: { reference_id: referenceId },
      }),
    ).toString('base64'),
  }).toString();
const post = (text: string, type = 'application/x-www-form-urlencoded') =>
  new Request('https://shop.example/payframe/notify', {
    method: 'POST',
    headers: { authorization: AUTH, 'content-type': type },
    body: text,
  });
const notificationEvents = (events: GatewayEvent[]) => events.filter((e): e is NotificationEvent => e.type === 'notification');

describe('an onPayment that does not finish within deadlineMs', () => {
  it('gives its claim back and answers 503; the next delivery is handled, and later ones never wait on it', async () => {
    const events: GatewayEvent[] = [];
    const gateway = createGateway({ ...ctx.options, onEvent: (e) => events.push(e) });
    const payment = await gateway.payments.create({ intent: 'auth', amount: EUR('9.00'), card: fullCard(testCards.approved) });
    let hang = true;
    const handled: string[] = [];
    const route = gateway.handlers.notification({
      authorization: AUTH,
      deadlineMs: 1_000, // the redelivery's read of the payment, over HTTPS, must fit in it on a loaded machine
      onPayment: (_p, n) => (hang ? new Promise<void>(() => {}) : void handled.push(n.id)), // a database call without a timeout
    });
    // A wait for ever fails at the test's timeout: no wall-clock bound here (it failed on a loaded machine).
    const first = route(post(body(payment.reference_id, 'WH-hang-1')));
    // A later notification of the same payment arrives while the first hangs: it waits at most the deadline.
    const later = route(post(body(payment.reference_id, 'WH-hang-2', 'PAYMENT.AUTHORIZATION.CREATED')));
    expect((await first).status).toBe(503);
    expect((await later).status).toBe(503); // it hung too: onPayment hangs for every call while `hang`
    // Their bodies are read side by side: on a loaded machine the second may take the payment's turn first.
    expect(
      notificationEvents(events)
        .map((e) => [e.id, e.outcome, e.status])
        .sort(),
    ).toEqual([
      ['WH-hang-1', 'timeout', 503],
      ['WH-hang-2', 'timeout', 503],
    ]);
    // The service sends both again; the shop's database is back.
    hang = false;
    expect((await route(post(body(payment.reference_id, 'WH-hang-1')))).status).toBe(204);
    expect((await route(post(body(payment.reference_id, 'WH-hang-2')))).status).toBe(204);
    expect(handled).toEqual(['WH-hang-1', 'WH-hang-2']);
    // Handled now: a third delivery calls nothing.
    expect((await route(post(body(payment.reference_id, 'WH-hang-1')))).status).toBe(204);
    expect(handled).toHaveLength(2);
  });

  it('lets a notification of the same payment through at the deadline when only the first hangs', async () => {
    const gateway = createGateway(ctx.options);
    const payment = await gateway.payments.create({ intent: 'auth', amount: EUR('9.00'), card: fullCard(testCards.approved) });
    const route = gateway.handlers.notification({
      authorization: AUTH,
      deadlineMs: 1_000,
      onPayment: (_p, n) => (n.id === 'WH-slow-1' ? new Promise<void>(() => {}) : undefined),
    });
    const first = route(post(body(payment.reference_id, 'WH-slow-1')));
    const second = await route(post(body(payment.reference_id, 'WH-slow-2')));
    expect(second.status).toBe(204);
    expect((await first).status).toBe(503);
  });

  it('refuses a deadline that is not a whole number of milliseconds', async () => {
    const gateway = createGateway(ctx.options);
    expect(() => gateway.handlers.notification({ authorization: AUTH, deadlineMs: 0, onPayment: () => {} })).toThrow(/deadlineMs/);
  });
});

describe('every refusal of the notification route reaches onEvent', () => {
  it('a wrong Authorization (401), a body it does not take (400), another media type (415)', async () => {
    const events: GatewayEvent[] = [];
    const gateway = createGateway({ ...ctx.options, onEvent: (e) => events.push(e) });
    const route = gateway.handlers.notification({ authorization: AUTH, onPayment: () => {} });
    const wrong = new Request('https://shop.example/payframe/notify', {
      method: 'POST',
      headers: { authorization: 'Bearer guess', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'pg_payload=x&pg_signature=y',
    });
    expect((await route(wrong)).status).toBe(401);
    expect((await route(post('pg_payload=not-base64!&pg_signature=y'))).status).toBe(400);
    expect((await route(post('{}', 'application/json'))).status).toBe(415);
    const told = notificationEvents(events).map((e) => [e.outcome, e.status, e.error?.code]);
    expect(told).toEqual([
      ['refused', 401, undefined],
      ['refused', 400, 'invalid_request'],
      ['refused', 415, 'invalid_request'],
    ]);
    expect(notificationEvents(events)[1]!.message).toMatch(/refused \(400\).*pg_payload/);
  });
});
