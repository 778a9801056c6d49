// The outcomes the acquirer gives after the service accepted a capture, void or refund (the sandbox's
// test amounts …91, …92, …93): each notification reaches onPayment with the payment read again, and the
// action's own record reads as the service now says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, testCards, type SandboxHandle } from '../setup/sandbox';
import { createGateway, readPayment, type Gateway, type Notification, type Payment } from '../../src/server';
import { startReceiver, type Receiver } from '../sandbox/receiver';
import { EUR, fullCard } from './helpers';

const AUTH = 'Bearer late-outcomes';
const DAY = 24 * 3600_000;

let sandbox: SandboxHandle;
let receiver: Receiver;
let gateway: Gateway;
const seen: { kind: string; state: string; recordId: unknown }[] = [];
/** The refund record onPayment was handed with each notification (undefined for other kinds). */
const refunds: (Payment | undefined)[] = [];
let handler: (request: Request) => Promise<Response>;

beforeAll(async () => {
  receiver = await startReceiver();
  sandbox = await startSandbox({ notifyUrl: receiver.url, notifyAuthorization: AUTH });
  const { id, clientId, clientSecret } = sandbox.merchant;
  gateway = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: sandbox.url });
  handler = gateway.handlers.notification({
    authorization: AUTH,
    onPayment: (payment: Payment, n: Notification, _attempt, refund) => {
      seen.push({ kind: n.kind, state: payment.state, recordId: n.resource['id'] });
      refunds.push(refund);
    },
  });
});
afterAll(async () => {
  await sandbox?.close();
  await receiver?.stop();
});

/** Hands each notification the sandbox posted while `act` ran to the route, as the service would; what onPayment saw. */
async function handled(act: () => unknown) {
  await sandbox.notificationsIdle();
  const from = receiver.got.length;
  seen.length = 0;
  await act();
  await sandbox.notificationsIdle();
  for (const got of receiver.got.slice(from)) {
    const headers = { authorization: String(got.headers['authorization']), 'content-type': String(got.headers['content-type']) };
    const response = await handler(new Request('https://shop.example/notify', { method: 'POST', headers, body: got.body }));
    expect(response.status).toBe(204);
  }
  return [...seen];
}

const sale = (total: string) => gateway.payments.create({ intent: 'sale', amount: EUR(total), card: fullCard(testCards.approved) });

describe('late outcomes reach onPayment', () => {
  it('a deferred refund, then its completion: the payment read again each time', async () => {
    const p = await sale('20.00');
    let refundId = '';
    const deferred = await handled(async () => (refundId = (await gateway.payments.refund(p.reference_id, { amount: EUR('5.91') })).id));
    expect(deferred).toEqual([{ kind: 'PAYMENT.REFUND.DEFERRED', state: 'captured', recordId: refundId }]);
    expect(await handled(() => sandbox.advanceClock(DAY))).toEqual([
      { kind: 'PAYMENT.REFUND.COMPLETED', state: 'captured', recordId: refundId },
    ]);
  });

  it('a denied refund: the payment reads captured, the refund record declined 1005', async () => {
    const p = await sale('30.92');
    let refundId = '';
    const denied = await handled(async () => (refundId = (await gateway.payments.refund(p.reference_id)).id));
    expect(denied).toEqual([{ kind: 'PAYMENT.REFUND.DENIED', state: 'captured', recordId: refundId }]);
    const record = await gateway.payments.get(refundId);
    expect(readPayment(record)).toMatchObject({ status: 'declined', state: 'declined', code: '1005', text: 'Do not honor' });
  });

  it('a deferred capture then denied, and a denied void: the authorisation reads authorised again', async () => {
    const auth = await gateway.payments.create({ intent: 'auth', amount: EUR('10.93'), card: fullCard(testCards.approved) });
    expect((await handled(() => gateway.payments.capture(auth.reference_id))).map((s) => [s.kind, s.state])).toEqual([
      ['PAYMENT.CAPTURE.DEFERRED', 'captured'],
    ]);
    expect((await handled(() => sandbox.advanceClock(DAY))).map((s) => [s.kind, s.state])).toEqual([
      ['PAYMENT.CAPTURE.DENIED', 'authorised'],
    ]);
    expect((await handled(() => gateway.payments.void(auth.reference_id))).map((s) => [s.kind, s.state])).toEqual([
      ['PAYMENT.AUTHORIZATION.VOID.DENIED', 'authorised'],
    ]);
  });

  it("a partial refund whose answer was lost: onPayment gets the refund's own record, read from the service", async () => {
    const p = await sale('10.00');
    await sandbox.notificationsIdle();
    sandbox.injectFault({ kind: 'lose', method: 'POST', path: `/v1/merchants/${sandbox.merchant.id}/payment/${p.reference_id}/refund` });
    refunds.length = 0;
    let answer = '';
    const outcome = await handled(() =>
      gateway.payments.refund(p.reference_id, { amount: EUR('3.00') }).then(
        () => (answer = 'answered'),
        (error: { code: string }) => (answer = error.code),
      ),
    );
    expect(answer).toBe('outcome_unknown');
    expect(outcome).toEqual([{ kind: 'PAYMENT.REFUND.COMPLETED', state: 'captured', recordId: expect.any(String) }]);
    const refund = refunds.at(-1)!;
    expect(refund).toMatchObject({ id: outcome[0]!.recordId, reference_id: p.reference_id, state: 'refunded' });
    expect(refund.transaction?.amount?.total).toBe('3.00');
    // A body that lies about the amount changes nothing: the record is the service's.
    const forged = new URLSearchParams({
      pg_signature: 'x',
      pg_payload: Buffer.from(
        JSON.stringify({
          id: 'WH-FORGED-REFUND',
          create_time: new Date().toISOString(),
          resource_type: 'payment',
          kind: 'PAYMENT.REFUND.COMPLETED',
          resource: { id: outcome[0]!.recordId, reference_id: p.reference_id, transaction: { amount: { total: '9.99' } } },
        }),
      ).toString('base64'),
    }).toString();
    const headers = { authorization: AUTH, 'content-type': 'application/x-www-form-urlencoded' };
    expect((await handler(new Request('https://shop.example/notify', { method: 'POST', headers, body: forged }))).status).toBe(204);
    expect(refunds.at(-1)?.transaction?.amount?.total).toBe('3.00');
  });

  it('hands no refund record with a notification of another kind', async () => {
    refunds.length = 0;
    await handled(() => sale('4.00'));
    expect(refunds).toEqual([undefined]);
  });
});
