// The capture, void and refund outcomes the acquirer gives after the service accepted the request: the
// test amounts that make the sandbox defer or deny them, their notifications, and what the payment and
// the action's own record read afterwards.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../setup/sandbox';
import { call, m, pay } from './helpers';
import { startReceiver, type Receiver } from './receiver';

const DAY = 24 * 3600_000;
const AUTH = 'Bearer ipn-secret-value';

// One receiver for the file, a sandbox per test; `notified` reads only what arrived during its act.
const receiving: Promise<Receiver> = startReceiver();
let sb: SandboxHandle;
afterAll(async () => (await receiving).stop());
afterEach(() => sb?.close());

const get = async (id: string) => (await call(sb, 'GET', `${m(sb)}/payment/${id}`)).body;
const post = (path: string, body?: unknown) => call(sb, 'POST', `${m(sb)}/payment/${path}`, body);

/** The kinds and resource states notified while `act` runs, once the sandbox has nothing left to send. */
async function notified(act: () => unknown): Promise<[string, string][]> {
  const receiver = await receiving;
  await sb.notificationsIdle();
  const before = receiver.got.length;
  await act();
  await sb.notificationsIdle();
  return receiver.got.slice(before).map((n) => [n.payload.kind, n.payload.resource.state]);
}

/** A payment of `total` EUR, its own notification already sent. */
async function payment(total: string, intent = 'auth') {
  sb = await startSandbox({ notifyUrl: (await receiving).url, notifyAuthorization: AUTH });
  const p = await pay(sb, undefined, { intent, transaction: { amount: { currency: 'EUR', total } } });
  await sb.notificationsIdle();
  return p;
}

describe('captures the acquirer settles later', () => {
  it('…91: accepted, CAPTURE.DEFERRED, then CAPTURE.COMPLETED a day later on the sandbox clock', async () => {
    const p = await payment('10.91');
    let capture: any;
    expect(await notified(async () => (capture = (await post(`${p.id}/capture`)).body))).toEqual([
      ['PAYMENT.CAPTURE.DEFERRED', 'captured'],
    ]);
    expect(capture).toMatchObject({ state: 'captured', result: { code: '0000' } });
    expect((await get(p.id)).state).toBe('captured');
    // A refund waits for the capture to complete.
    expect((await post(`${p.id}/refund`)).body).toMatchObject({ name: 'INVALID_STATE', message: expect.stringMatching(/deferred/) });
    expect(await notified(() => sb.advanceClock(DAY - 1000))).toEqual([]);
    expect(await notified(() => sb.advanceClock(1000))).toEqual([['PAYMENT.CAPTURE.COMPLETED', 'captured']]);
    expect((await post(`${p.id}/refund`)).status).toBe(200);
  });

  it('…92: accepted, then CAPTURE.DENIED at once: the capture reads declined 1005, the payment authorised again', async () => {
    const p = await payment('10.92');
    let capture: any;
    expect(await notified(async () => (capture = (await post(`${p.id}/capture`)).body))).toEqual([['PAYMENT.CAPTURE.DENIED', 'declined']]);
    expect(capture.state).toBe('captured');
    expect(await get(capture.id)).toMatchObject({ state: 'declined', result: { code: '1005', description: 'Do not honor' } });
    expect((await get(p.id)).state).toBe('authorised');
    // The authorisation may be captured again, for another amount.
    expect(await notified(() => post(`${p.id}/capture`, { amount: '10.00' }))).toEqual([['PAYMENT.CAPTURE.COMPLETED', 'captured']]);
  });

  it('…93: CAPTURE.DEFERRED, then CAPTURE.DENIED a day later; the hold still ends seven days after the authorisation', async () => {
    const p = await payment('10.93');
    expect(await notified(() => post(`${p.id}/capture`))).toEqual([['PAYMENT.CAPTURE.DEFERRED', 'captured']]);
    expect(await notified(() => sb.advanceClock(DAY))).toEqual([['PAYMENT.CAPTURE.DENIED', 'declined']]);
    expect((await get(p.id)).state).toBe('authorised');
    expect(await notified(() => sb.advanceClock(6 * DAY))).toEqual([['PAYMENT.AUTHORIZATION.VOIDED', 'cancelled']]);
  });
});

describe('refunds the acquirer settles later', () => {
  it('…91: REFUND.DEFERRED, then REFUND.COMPLETED a day later; the refund counts from its acceptance', async () => {
    const p = await payment('20.00', 'sale');
    expect(await notified(() => post(`${p.id}/refund`, { amount: '5.91' }))).toEqual([['PAYMENT.REFUND.DEFERRED', 'refunded']]);
    expect((await post(`${p.id}/refund`, { amount: '14.10' })).body).toMatchObject({ name: 'REFUND_EXCEEDS_AMOUNT' });
    expect(await notified(() => sb.advanceClock(DAY))).toEqual([['PAYMENT.REFUND.COMPLETED', 'refunded']]);
  });

  it('…92 denied at once, …93 denied after a day: each refund reads declined and its amount may be refunded again', async () => {
    const r = await payment('30.92', 'sale');
    let refund: any;
    expect(await notified(async () => (refund = (await post(`${r.id}/refund`)).body))).toEqual([['PAYMENT.REFUND.DENIED', 'declined']]);
    expect(refund.state).toBe('refunded'); // the answer: accepted
    expect(await get(refund.id)).toMatchObject({ state: 'declined', result: { code: '1005' } });
    expect((await get(r.id)).state).toBe('captured');

    expect(await notified(() => post(`${r.id}/refund`, { amount: '10.93' }))).toEqual([['PAYMENT.REFUND.DEFERRED', 'refunded']]);
    expect(await notified(() => sb.advanceClock(DAY))).toEqual([['PAYMENT.REFUND.DENIED', 'declined']]);
    // Nothing was refunded: the whole amount is left.
    expect(await notified(() => post(`${r.id}/refund`, { amount: '30.00' }))).toEqual([['PAYMENT.REFUND.COMPLETED', 'refunded']]);
  });
});

describe('voids', () => {
  it('of a payment of …92 or …93: AUTHORIZATION.VOID.DENIED at once, the payment authorised again; …91 voids as any', async () => {
    for (const [total, kinds, state] of [
      ['10.92', [['PAYMENT.AUTHORIZATION.VOID.DENIED', 'declined']], 'authorised'],
      ['10.93', [['PAYMENT.AUTHORIZATION.VOID.DENIED', 'declined']], 'authorised'],
      ['10.91', [['PAYMENT.AUTHORIZATION.VOIDED', 'voided']], 'voided'],
    ] as const) {
      const p = await payment(total);
      let voided: any;
      expect(await notified(async () => (voided = (await post(`${p.id}/void`)).body))).toEqual(kinds);
      expect(voided.state).toBe('voided');
      expect((await get(p.id)).state).toBe(state);
      await sb.close();
    }
  });
});
