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
let handler: (request: Request) => Promise<Response>;

beforeAll(async () => {
  receiver = await startReceiver();
  sandbox = await startSandbox({ notifyUrl: receiver.url, notifyAuthorization: AUTH });
  const { id, clientId, clientSecret } = sandbox.merchant;
  gateway = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: sandbox.url });
  handler = gateway.handlers.notification({
    authorization: AUTH,
    onPayment: (payment: Payment, n: Notification) => void seen.push({ kind: n.kind, state: payment.state, recordId: n.resource['id'] }),
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
});
