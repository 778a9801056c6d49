// The sandbox's delivery machinery under load: tries counted per receiver, so one that never answers
// holds only its own; a new payment's notification not stuck behind a backlog of retries; the finished
// ones (a failed one above all) still listed under a backlog; and a change that costs the same with
// one notification waiting or twenty thousand.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_IN_FLIGHT, Notifier } from '../../src/sandbox/model/notify';
import { Clock, type MerchantConfig, type PaymentEvent } from '../../src/sandbox/model/state';
import { startReceiver, type Receiver } from './receiver';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let clock: Clock;
let notifier: Notifier | undefined;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  notifier?.close();
  notifier = undefined;
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A notifier on its own clock, as the sandbox wires it: a move of the clock sends what fell due. */
function newNotifier(timeoutMs?: number): Notifier {
  clock = new Clock();
  const n = new Notifier(clock, timeoutMs);
  clock.onAdvance = () => n.kick();
  return (notifier = n);
}

const merchant = (id: string, notifyUrl: string): MerchantConfig => ({ id, clientId: id, clientSecret: `${id}-secret`, notifyUrl });
let paymentCount = 0;
/** A payment's change, as the model tells the notifier of it. */
function change(m: MerchantConfig, paymentId = `PAY-${++paymentCount}`): PaymentEvent {
  return {
    kind: 'PAYMENT.AUTHORIZATION.CREATED',
    merchantId: m.id,
    paymentId,
    at: clock.nowMs(),
    resource: () => ({ id: paymentId, state: 'authorised' }) as never,
  };
}

async function receiverUp(): Promise<Receiver> {
  const r = await startReceiver();
  cleanups.push(() => r.stop());
  return r;
}

/** A receiver that takes every request and never answers it; how many it holds open. */
async function silentReceiver(): Promise<{ url: string; open: () => number }> {
  let open = 0;
  const server: Server = createServer((req, res) => {
    open++;
    res.on('close', () => open--);
    req.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/ipn`, open: () => open };
}

describe('tries in flight, per receiver', () => {
  it("a receiver that never answers holds only its own notifications, not another merchant's", async () => {
    const silent = await silentReceiver();
    const other = await receiverUp();
    const n = newNotifier(10_000);
    const a = merchant('merchant-a', silent.url);
    for (let i = 0; i < 20; i++) n.add(change(a), a);
    await expect.poll(silent.open).toBe(MAX_IN_FLIGHT);
    const b = merchant('merchant-b', other.url);
    const started = performance.now();
    n.add(change(b, 'PAY-B'), b);
    // Well before the silent receiver's tries are cut off (10 s).
    const [got] = await other.waitFor(1, 8000);
    expect(got!.payload.resource.id).toBe('PAY-B');
    expect(performance.now() - started).toBeLessThan(8000);
    await expect.poll(() => n.list().find((x) => x.referenceId === 'PAY-B')?.state, { timeout: 3000 }).toBe('delivered');
    // The silent receiver still has only its limit open: the other merchant's try took none of its room.
    expect(silent.open()).toBe(MAX_IN_FLIGHT);
  });

  it("a new payment's notification goes out among the first, not behind every older retry that fell due", async () => {
    const r = await receiverUp();
    const n = newNotifier();
    const m = merchant('shop', r.url);
    r.answer = { status: 500 };
    for (let i = 0; i < 40; i++) n.add(change(m), m);
    await n.idle();
    expect(r.got).toHaveLength(40);
    // The receiver is back, answering slowly: the 40 first retries fall due at once, then a new payment changes.
    r.answer = { status: 200, delayMs: 50 };
    clock.advance(MINUTE);
    n.add(change(m, 'PAY-NEW'), m);
    await n.idle();
    const order = r.got.slice(40).map((x) => x.payload.resource.id);
    expect(order).toHaveLength(41);
    // The first MAX_IN_FLIGHT retries were under way already; the new one takes the next free place.
    expect(order.indexOf('PAY-NEW')).toBeLessThanOrEqual(MAX_IN_FLIGHT);
    expect(n.list().every((x) => x.state === 'delivered')).toBe(true);
  });
});

describe('notifications() under a backlog', () => {
  it('lists a failed notification (and the delivered ones) with more than 1,000 waiting', async () => {
    const r = await receiverUp();
    const silent = await silentReceiver();
    const n = newNotifier(10_000);
    const m = merchant('shop', r.url);
    n.add(change(m, 'PAY-DELIVERED'), m);
    await n.idle();
    r.answer = { status: 500 };
    n.add(change(m, 'PAY-FAILED'), m);
    await n.idle();
    clock.advance(25 * HOUR);
    await n.idle();
    expect(n.list().map((x) => x.state)).toEqual(['delivered', 'failed']);
    // A backlog: 1,200 notifications to a merchant whose receiver never answers.
    const stuck = merchant('stuck', silent.url);
    for (let i = 0; i < 1200; i++) n.add(change(stuck), stuck);
    const listed = n.list();
    expect(listed).toHaveLength(1202);
    expect(listed.slice(0, 2)).toMatchObject([
      { referenceId: 'PAY-DELIVERED', state: 'delivered' },
      { referenceId: 'PAY-FAILED', state: 'failed', attempts: Array.from({ length: 8 }, () => ({ status: 500 })) },
    ]);
    expect(listed.slice(2).every((x) => x.state === 'pending')).toBe(true);
  });

  it('keeps the last 1,000 delivered, and a failed one however many are delivered after it', async () => {
    const r = await receiverUp();
    const n = newNotifier();
    const m = merchant('shop', r.url);
    r.answer = { status: 500 };
    n.add(change(m, 'PAY-FAILED'), m);
    await n.idle();
    clock.advance(25 * HOUR);
    await n.idle();
    r.answer = { status: 200 };
    for (let i = 0; i < 1010; i++) n.add(change(m, `PAY-OK-${i}`), m);
    await n.idle();
    const listed = n.list();
    expect(listed).toHaveLength(1001);
    expect(listed[0]).toMatchObject({ referenceId: 'PAY-FAILED', state: 'failed' });
    expect(listed[1]).toMatchObject({ referenceId: 'PAY-OK-10', state: 'delivered' });
    expect(listed.at(-1)).toMatchObject({ referenceId: 'PAY-OK-1009', state: 'delivered' });
  });
});
