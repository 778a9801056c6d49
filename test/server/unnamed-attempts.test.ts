// An attempt of handlers.pay that no answer and no notification ever named (its payment request got a
// 500, or the server died before it left): the service has no lookup by invoice number, so it stays
// `checking` until the service's notification window is over, and only then is closed `void`. A payment
// whose notification comes at the service's last retry is settled by it, never closed.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGateway, memoryStore, toNodeListener, type Gateway } from '../../src/server';
import { NOTIFICATION_WINDOW_MS } from '../../src/server/calls/attempts';
import { RETRY_AFTER_MS } from '../../src/sandbox/model/notify';
import { startSandbox, testCards, type SandboxHandle } from '../setup/sandbox';
import { EUR, nonceFor } from './helpers';

const AUTH = 'Bearer unnamed-attempts';
const HOUR = 3600_000;
const PENDING_MS = 15 * 60_000; // a pending payment's life in the sandbox (service-decisions.md)

let sandbox: SandboxHandle;
let route: Server;
/** The shop's notification route, as the service sees it: down answers 503. */
let down = false;
let gateway: Gateway;
let pay: (request: Request) => Promise<Response>;

beforeAll(async () => {
  const store = memoryStore();
  let notify: RequestListener = (_req, res) => void res.writeHead(503).end();
  route = createServer((req, res) => (down ? void res.writeHead(503).end() : notify(req, res)));
  await new Promise<void>((resolve) => route.listen(0, '127.0.0.1', resolve));
  const notifyUrl = `http://127.0.0.1:${(route.address() as AddressInfo).port}/notify`;
  sandbox = await startSandbox({ notifyUrl, notifyAuthorization: AUTH });
  const { id, clientId, clientSecret } = sandbox.merchant;
  gateway = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: sandbox.url, timeoutMs: 5000, store });
  notify = toNodeListener(gateway.handlers.notification({ authorization: AUTH, onPayment: () => undefined })) as RequestListener;
  pay = gateway.handlers.pay({ payment: () => ({ intent: 'sale', amount: EUR('12.00'), order: 'O-9' }), owner: () => 'me' });
});
afterAll(async () => {
  await sandbox?.close();
  await new Promise((resolve) => route?.close(resolve));
});
afterEach(() => vi.useRealTimers());

const charges = () => sandbox.requests().filter((r) => r.method === 'POST' && /\/payment$/.test(r.path)).length;
const post = async (attempt: string) =>
  (
    await pay(
      new Request('https://shop.example/pay', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ attempt, nonce: await nonceFor({ sandbox, gateway } as never, testCards.approved as never) }),
      }),
    )
  ).json();
const ask = async (attempt: string) => (await pay(new Request(`https://shop.example/pay?attempt=${attempt}`))).json();
/** The shop's clock (Date) moved to `ms` after `from`; timers stay real. */
const shopClockAt = (from: number, ms: number) => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(from + ms);
};
const payments = `/v1/merchants/${encodeURIComponent('MERCHANT')}/payment`;

describe('an attempt no notification named, at the end of the service window', () => {
  it('lasts at least as long as the sandbox can still notify a payment', () => {
    expect(NOTIFICATION_WINDOW_MS).toBeGreaterThanOrEqual(PENDING_MS + RETRY_AFTER_MS.at(-1)! + HOUR);
  });

  it('keeps a 500 answered attempt checking through the window, then closes it void: none, and nothing charged after', async () => {
    sandbox.injectFault({ kind: 'error', method: 'POST', path: payments.replace('MERCHANT', sandbox.merchant.id) });
    const attempt = crypto.randomUUID();
    expect(await post(attempt)).toEqual({ status: 'checking' });
    const sent = charges(); // the one request, answered 500 before the service acted
    const begun = (await gateway.store.attempts.get(attempt))!;
    shopClockAt(begun.createdAt, NOTIFICATION_WINDOW_MS - 1000);
    const during = await gateway.settleOpen({ olderThan: 0 });
    expect(during.open.map((a) => a.attempt)).toContain(attempt);
    expect(await ask(attempt)).toEqual({ status: 'checking' });
    shopClockAt(begun.createdAt, NOTIFICATION_WINDOW_MS);
    // The page's ask alone never closes it (a notification route on another store would never name it).
    expect(await ask(attempt)).toEqual({ status: 'checking' });
    const after = await gateway.settleOpen({ olderThan: 0 });
    expect(after.settled.find((a) => a.attempt === attempt)).toMatchObject({ status: 'void', outcome: { reason: 'notification_window' } });
    expect(await ask(attempt)).toEqual({ status: 'none' });
    expect(await post(attempt)).toEqual({ status: 'none' }); // the same press again charges nothing
    expect(charges()).toBe(sent);
  });

  it('settles a payment whose answer was lost by its notification at the last retry, never void', async () => {
    const path = payments.replace('MERCHANT', sandbox.merchant.id);
    await sandbox.notificationsIdle();
    sandbox.injectFault({ kind: 'lose', method: 'POST', path });
    down = true;
    const attempt = crypto.randomUUID();
    expect(await post(attempt)).toEqual({ status: 'checking' });
    const begun = (await gateway.store.attempts.get(attempt))!;
    // The route is down for every try but the last, 24 hours after the first, on the sandbox's clock.
    await expect.poll(() => sandbox.notifications().find((n) => n.attempts.length > 0 && n.state === 'pending')).toBeTruthy();
    sandbox.advanceClock(RETRY_AFTER_MS.at(-2)! + 1000);
    await sandbox.notificationsIdle();
    expect(await ask(attempt)).toEqual({ status: 'checking' });
    down = false;
    sandbox.advanceClock(RETRY_AFTER_MS.at(-1)! - RETRY_AFTER_MS.at(-2)!);
    await sandbox.notificationsIdle();
    const note = sandbox.notifications().at(-1)!;
    expect(note).toMatchObject({ state: 'delivered' });
    expect(note.attempts).toHaveLength(RETRY_AFTER_MS.length + 1);
    shopClockAt(begun.createdAt, NOTIFICATION_WINDOW_MS + HOUR);
    await gateway.settleOpen({ olderThan: 0 });
    expect(await ask(attempt)).toMatchObject({ status: 'approved', referenceId: note.referenceId });
  });
});

describe('attempts closed because they never arrived', () => {
  /** A pay route on a gateway and memory store (of `limit`) of its own, its sessions named by `x-who`. */
  const payRoute = (limit: number) => {
    const { id, clientId, clientSecret } = sandbox.merchant;
    const store = memoryStore({ limit });
    const own = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: sandbox.url, timeoutMs: 5000, store });
    const owner = (request: Request) => request.headers.get('x-who') ?? undefined;
    const route = own.handlers.pay({ payment: () => ({ intent: 'sale', amount: EUR('3.00') }), owner });
    const answer = async (request: Request) => (await route(request)).json();
    return {
      store,
      send: async (who: string, attempt: string) => {
        const nonce = await nonceFor({ sandbox, gateway: own } as never, testCards.approved as never);
        const headers = { 'content-type': 'application/json', 'x-who': who };
        return answer(new Request('https://shop.example/pay', { method: 'POST', body: JSON.stringify({ attempt, nonce }), headers }));
      },
      ask: (who: string, attempt: string) =>
        answer(new Request(`https://shop.example/pay?attempt=${attempt}`, { headers: { 'x-who': who } })),
    };
  };

  it("never push a paid attempt out of the memory store: another session's thousand asks leave the payer's approved", async () => {
    const { store, send, ask } = payRoute(20);
    const attempt = crypto.randomUUID();
    expect(await send('payer', attempt)).toMatchObject({ status: 'approved' });
    for (let i = 0; i < 1000; i++) expect(await ask('stranger', crypto.randomUUID())).toEqual({ status: 'none' });
    expect(await ask('payer', attempt)).toMatchObject({ status: 'approved' });
    // What the asks wrote says why, so that every store keeps it only as long as its POST could arrive.
    const closed = crypto.randomUUID();
    await ask('stranger', closed);
    expect(await store.attempts.get(closed)).toMatchObject({ status: 'void', outcome: { reason: 'not_received' } });
  });

  it('keep the row just closed in a full memory store: a POST of that attempt arriving late charges nothing', async () => {
    const { send, ask } = payRoute(1);
    expect(await send('payer', crypto.randomUUID())).toMatchObject({ status: 'approved' }); // the store is full of what was paid
    const late = crypto.randomUUID();
    expect(await ask('payer', late)).toEqual({ status: 'none' });
    const before = charges();
    expect(await send('payer', late)).toEqual({ status: 'none' });
    expect(charges()).toBe(before);
  });
});
