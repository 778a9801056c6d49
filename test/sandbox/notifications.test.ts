// What the sandbox posts to a merchant's notification URL, for each change of a payment: the body, the
// header, the kind, the record as the API answers it; and nothing for what changes nothing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, testCards, type SandboxHandle } from '../setup/sandbox';
import { call, cardOf, m, pay, paymentBody } from './helpers';
import { signatureOf, startReceiver, type Received, type Receiver } from './receiver';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const AUTH = 'Bearer ipn-secret-value';

let receiver: Receiver;
let sb: SandboxHandle;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.stop());
afterEach(async () => {
  await sb?.close();
  receiver.got.length = 0;
});

const start = async () => (sb = await startSandbox({ notifyUrl: receiver.url, notifyAuthorization: AUTH }));

/** The notifications that arrive after `act`, once the sandbox has nothing left to send. */
async function after(act: () => Promise<unknown>): Promise<Received[]> {
  const before = receiver.got.length;
  await act();
  await sb.notificationsIdle();
  return receiver.got.slice(before);
}

/** The wire, as a receiver checks it. */
function expectWire(n: Received) {
  expect(n.headers['content-type']).toBe('application/x-www-form-urlencoded');
  expect(n.headers['authorization']).toBe(AUTH);
  expect([...n.params.keys()]).toEqual(['pg_signature', 'pg_payload']);
  const payload = n.params.get('pg_payload')!;
  expect(payload).toMatch(/^[A-Z0-9+/]+={0,2}$/i);
  expect(n.params.get('pg_signature')).toBe(signatureOf(payload, sb.merchant.clientSecret));
  expect(Object.keys(n.payload)).toEqual(['id', 'create_time', 'resource_type', 'kind', 'resource']);
  expect(n.payload.id).toMatch(/^WH-[0-9A-F]{24}$/);
  expect(n.payload.resource_type).toBe('payment');
  expect(new Date(n.payload.create_time).toISOString()).toBe(n.payload.create_time);
  // No card number, no CVV: the resource is the API's answer.
  expect(n.body).not.toContain(testCards.approved.number);
  expect(Buffer.from(payload, 'base64').toString()).not.toMatch(/4111111111111111|4644260581661836|4543474002249996|cvv/i);
  return n.payload;
}

const get = async (id: string) => (await call(sb, 'GET', `${m(sb)}/payment/${id}`)).body;
const post = (path: string, body?: unknown) => call(sb, 'POST', `${m(sb)}/payment/${path}`, body);
const sessionOf = (p: any) => p.result.redirect_url.split('/').pop() as string;

describe('notifications: one per change of a payment', () => {
  it('an approved auth: AUTHORIZATION.CREATED with the payment as GET answers it; its capture: CAPTURE.COMPLETED with the capture record', async () => {
    await start();
    let p: any;
    const [created] = await after(async () => (p = await pay(sb, testCards.approved, { transaction: { invoice_number: 'INV-77' } })));
    const payload = expectWire(created!);
    expect(payload.kind).toBe('PAYMENT.AUTHORIZATION.CREATED');
    expect(payload.resource).toEqual(await get(p.id));
    expect(payload.resource).toMatchObject({ reference_id: p.id, state: 'authorised', transaction: { invoice_number: 'INV-77' } });
    expect(payload.create_time).toBe(p.create_time);

    let capture: any;
    const [captured] = await after(async () => (capture = (await post(`${p.id}/capture`, { invoice_number: 'INV-77' })).body));
    const cap = expectWire(captured!);
    expect(cap.kind).toBe('PAYMENT.CAPTURE.COMPLETED');
    expect(cap.resource).toEqual(await get(capture.id));
    expect(cap.resource).toMatchObject({ reference_id: p.id, state: 'captured', transaction: { invoice_number: 'INV-77' } });
    expect(cap.id).not.toBe(payload.id);
    // The original payment has moved on since; the first notification kept its state at the time.
    expect((await get(p.id)).state).toBe('captured');
    // A refused request changes nothing and sends nothing.
    expect(await after(async () => expect((await post(`${p.id}/capture`)).status).toBe(409))).toEqual([]);
  });

  it('a sale: SALE.COMPLETED; its refund: REFUND.COMPLETED with the refund record', async () => {
    await start();
    let p: any;
    const [sale] = await after(async () => (p = await pay(sb, testCards.approved, { intent: 'sale' })));
    expect(expectWire(sale!)).toMatchObject({
      kind: 'PAYMENT.SALE.COMPLETED',
      resource: { id: p.id, reference_id: p.id, state: 'captured' },
    });
    let refund: any;
    const [refunded] = await after(async () => (refund = (await post(`${p.id}/refund`, { amount: '4.00', invoice_number: 'RF-1' })).body));
    const r = expectWire(refunded!);
    expect(r).toMatchObject({
      kind: 'PAYMENT.REFUND.COMPLETED',
      resource: { id: refund.id, reference_id: p.id, state: 'refunded', transaction: { invoice_number: 'RF-1' } },
    });
    expect(r.resource).toEqual(await get(refund.id));
  });

  it('a declined payment: AUTHORIZATION.DENIED; a void: AUTHORIZATION.VOIDED with the void record', async () => {
    await start();
    let declined: any;
    const [denied] = await after(async () => (declined = await pay(sb, testCards.declined)));
    expect(expectWire(denied!)).toMatchObject({
      kind: 'PAYMENT.AUTHORIZATION.DENIED',
      resource: { id: declined.id, state: 'declined', result: { code: '1005' } },
    });
    const p = await pay(sb);
    await sb.notificationsIdle();
    let voided: any;
    const [voidNote] = await after(async () => (voided = (await post(`${p.id}/void`)).body));
    expect(expectWire(voidNote!)).toMatchObject({
      kind: 'PAYMENT.AUTHORIZATION.VOIDED',
      resource: { id: voided.id, reference_id: p.id, state: 'voided' },
    });
  });

  it('a pending payment sends nothing; its OTP sends the outcome (CREATED for an auth, SALE.COMPLETED for a sale, DENIED 1202 for a wrong one)', async () => {
    await start();
    const otp = (p: any, code: string) => call(sb, 'POST', `/v1/authenticate/${sessionOf(p)}`, { reference_id: p.id, otp: code });
    let auth: any;
    expect(await after(async () => (auth = await pay(sb, testCards.otp)))).toEqual([]);
    expect(auth.state).toBe('pending');
    const [created] = await after(() => otp(auth, '111111'));
    expect(expectWire(created!)).toMatchObject({ kind: 'PAYMENT.AUTHORIZATION.CREATED', resource: { id: auth.id, state: 'authorised' } });
    expect(created!.payload.resource).toEqual(await get(auth.id));

    const sale = await pay(sb, testCards.otp, { intent: 'sale' });
    const [completed] = await after(() => otp(sale, '111111'));
    expect(expectWire(completed!)).toMatchObject({ kind: 'PAYMENT.SALE.COMPLETED', resource: { id: sale.id, state: 'captured' } });

    const wrong = await pay(sb, testCards.otp);
    const [denied] = await after(() => otp(wrong, '999999'));
    expect(expectWire(denied!)).toMatchObject({
      kind: 'PAYMENT.AUTHORIZATION.DENIED',
      resource: { id: wrong.id, state: 'declined', result: { code: '1202' } },
    });
    // The used-up session refuses, and sends nothing.
    expect(await after(async () => expect((await otp(wrong, '111111')).status).toBe(409))).toEqual([]);
  });

  it('a sale finished on the redirect page: SALE.COMPLETED', async () => {
    await start();
    const p = await pay(sb, testCards.redirectOnly, { intent: 'sale' });
    const [completed] = await after(() =>
      fetch(`${sb.url}/v1/redirect/${sessionOf(p)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'otp=111111',
      }),
    );
    expect(expectWire(completed!)).toMatchObject({ kind: 'PAYMENT.SALE.COMPLETED', resource: { id: p.id, state: 'captured' } });
  });

  it('lists each notification in notifications(), with no card data', async () => {
    await start();
    const p = await pay(sb);
    await sb.notificationsIdle();
    const [n] = sb.notifications();
    expect(n).toEqual({
      id: receiver.got[0]!.payload.id,
      merchantId: sb.merchant.id,
      url: receiver.url,
      kind: 'PAYMENT.AUTHORIZATION.CREATED',
      referenceId: p.id,
      createdAt: p.create_time,
      attempts: [{ at: expect.any(String), status: 200, ms: expect.any(Number) }],
      state: 'delivered',
    });
    expect(JSON.stringify(sb.notifications())).not.toContain(testCards.approved.number);
  });
});

describe('payments that change on their own, on time, with no read', () => {
  it('a pending payment is declined (1203) 15 minutes after its creation, and notified as of that instant', async () => {
    await start();
    const p = await pay(sb, testCards.otp);
    sb.advanceClock(15 * MINUTE - 1000);
    await sb.notificationsIdle();
    expect(receiver.got).toEqual([]);
    const [denied] = await after(async () => sb.advanceClock(1000));
    const payload = expectWire(denied!);
    expect(payload).toMatchObject({
      kind: 'PAYMENT.AUTHORIZATION.DENIED',
      resource: { id: p.id, state: 'declined', result: { code: '1203' } },
    });
    expect(Date.parse(payload.create_time)).toBe(Date.parse(p.create_time) + 15 * MINUTE);
    expect(payload.resource).toEqual(await get(p.id));
  });

  it('an authorisation is cancelled seven days after it: AUTHORIZATION.VOIDED with the payment in state cancelled', async () => {
    await start();
    const a = await pay(sb);
    const b = await pay(sb);
    await sb.notificationsIdle();
    expect(receiver.got).toHaveLength(2);
    sb.advanceClock(7 * DAY - MINUTE);
    await post(`${a.id}/capture`);
    const notes = await after(async () => sb.advanceClock(MINUTE));
    expect(notes.map((n) => n.payload.kind)).toEqual(['PAYMENT.CAPTURE.COMPLETED', 'PAYMENT.AUTHORIZATION.VOIDED']);
    const cancelled = expectWire(notes[1]!);
    expect(cancelled.resource).toMatchObject({ id: b.id, reference_id: b.id, state: 'cancelled' });
    expect(Date.parse(cancelled.create_time)).toBe(Date.parse(b.create_time) + 7 * DAY);
    // Read afterwards: the same state, and no second notification.
    expect(await after(async () => expect((await get(b.id)).state).toBe('cancelled'))).toEqual([]);
  });

  it('real time passing applies them too (a timer to the next due instant)', async () => {
    await start();
    const p = await pay(sb, testCards.otp);
    // 300 ms short of the 15 minutes: the sandbox's own timer must fire by itself.
    sb.advanceClock(15 * MINUTE - 300);
    const [denied] = await receiver.waitFor(1, 3000);
    expect(denied!.payload).toMatchObject({ kind: 'PAYMENT.AUTHORIZATION.DENIED', resource: { id: p.id, result: { code: '1203' } } });
  });
});

describe('where notifications go', () => {
  it('each merchant to its own notifyUrl; nothing for a merchant without one', async () => {
    const other = await startReceiver();
    try {
      sb = await startSandbox({
        merchants: [
          { id: 'quiet', clientId: 'q', clientSecret: 'qs' },
          { id: 'loud', clientId: 'l', clientSecret: 'ls', notifyUrl: other.url },
        ],
      });
      const payAs = (id: string, client: string, secret: string) =>
        call(sb, 'POST', `/v1/merchants/${id}/payment`, paymentBody({ credit_card: cardOf(testCards.approved) }), {
          auth: `Basic ${Buffer.from(`${client}:${secret}`).toString('base64')}`,
        });
      const quiet = (await payAs('quiet', 'q', 'qs')).body;
      const loud = (await payAs('loud', 'l', 'ls')).body;
      await sb.notificationsIdle();
      expect(other.got.map((n) => n.payload.resource.id)).toEqual([loud.id]);
      expect(other.got[0]!.headers['authorization']).toBeUndefined();
      expect(other.got[0]!.params.get('pg_signature')).toBe(signatureOf(other.got[0]!.params.get('pg_payload')!, 'ls'));
      expect(sb.notifications().map((n) => [n.merchantId, n.referenceId])).toEqual([['loud', loud.id]]);
      expect(quiet.state).toBe('authorised');
      expect(receiver.got).toEqual([]);
    } finally {
      await other.stop();
    }
  });

  it('startSandbox() with no notifyUrl sends nothing', async () => {
    sb = await startSandbox();
    const p = await pay(sb, testCards.approved, { intent: 'sale' });
    await post(`${p.id}/refund`);
    await sb.notificationsIdle();
    expect(sb.notifications()).toEqual([]);
    expect(receiver.got).toEqual([]);
  });
});
