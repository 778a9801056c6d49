// handlers.pay and settleOpen against the real sandbox: the service's notifications reach the gateway's
// own notification route over HTTP, and lost answers are the sandbox's `lose` fault (it acts, then
// drops the answer). Each charge is counted where it happens: the payment POSTs the sandbox received.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, testCards, type SandboxHandle } from '../setup/sandbox';
import {
  createGateway,
  memoryStore,
  toNodeListener,
  type Attempt,
  type Gateway,
  type Handler,
  type PendingPayment,
} from '../../src/server';
import { EUR, nonceFor } from './helpers';

const AUTH = 'Bearer pay-notify-51c2';
let sandbox: SandboxHandle;
let gateway: Gateway;
let pay: Handler;
let notifyServer: Server;
/** The shop's notification route is down (answers 503): the service sends again later. */
let down = false;
/** What onPayment was handed, per invoice number: the attempt the payment belongs to, if any. */
const handed = new Map<string, Attempt | undefined>();

beforeAll(async () => {
  // The notification route listens first: the sandbox is told its address.
  let route: Handler = async () => new Response(null, { status: 503 });
  notifyServer = createServer((req, res) =>
    toNodeListener((request) => (down ? Promise.resolve(new Response(null, { status: 503 })) : route(request)))(req, res),
  );
  await new Promise<void>((resolve) => notifyServer.listen(0, '127.0.0.1', resolve));
  const notifyUrl = `http://127.0.0.1:${(notifyServer.address() as AddressInfo).port}/notify`;
  sandbox = await startSandbox({ notifyUrl, notifyAuthorization: AUTH });
  const { id, clientId, clientSecret } = sandbox.merchant;
  gateway = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: sandbox.url, timeoutMs: 5000 });
  route = gateway.handlers.notification({
    authorization: AUTH,
    onPayment: (payment, _n, attempt) => void handed.set(payment.transaction?.invoice_number ?? '', attempt),
  });
  pay = gateway.handlers.pay({
    payment: (_request, body) => ({ intent: 'sale', amount: EUR('21.50'), order: String(body.order ?? 'ORDER-1') }),
    owner: (request) => request.headers.get('x-shopper') ?? undefined,
  });
});

afterAll(async () => {
  await sandbox?.close();
  await new Promise((resolve) => notifyServer?.close(resolve));
});

const charges = () => sandbox.requests().filter((r) => r.method === 'POST' && /\/payment$/.test(r.path)).length;
const post = (body: unknown, shopper = 'shopper-a') =>
  pay(
    new Request('https://shop.example/pay', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shopper': shopper },
      body: JSON.stringify(body),
    }),
  );
const ask = (attempt: string, shopper = 'shopper-a') =>
  pay(new Request(`https://shop.example/pay?attempt=${attempt}`, { headers: { 'x-shopper': shopper } }));
const json = async (response: Response | Promise<Response>) => {
  const r = await response;
  return {
    status: r.status,
    body: (await r.json()) as Body,
  };
};
/** A PayAnswer or a refusal, as the page reads either. */
type Body = {
  status: string;
  referenceId?: string;
  state?: string;
  code?: string;
  text?: string;
  pending?: PendingPayment;
  error?: { code: string };
};
const nonce = (card = testCards.approved) => nonceFor({ sandbox, gateway }, card);
const newAttempt = () => crypto.randomUUID();

describe('handlers.pay: POST', () => {
  it('pays once per attempt: the same attempt posted again charges nothing and answers what the first became', async () => {
    const attempt = newAttempt();
    const before = charges();
    const first = await json(post({ nonce: await nonce(), attempt }));
    expect(first).toEqual({ status: 200, body: expect.objectContaining({ status: 'approved', state: 'captured', code: '0000' }) });
    const again = await json(post({ nonce: await nonce(), attempt }));
    expect(again.body).toEqual(first.body);
    expect(charges() - before).toBe(1);
    const kept = await gateway.store.attempts.get(attempt);
    expect(kept).toMatchObject({ status: 'approved', owner: 'shopper-a', order: 'ORDER-1', referenceId: first.body.referenceId });
  });

  it('answers a decline as an answer, with its code and text', async () => {
    const { body } = await json(post({ nonce: await nonce(testCards.declined), attempt: newAttempt() }));
    expect(body).toMatchObject({ status: 'declined', code: '1005', text: 'Do not honor' });
  });

  it('gives every attempt its own invoice number: a second try of one order is another payment', async () => {
    const [a, b] = [newAttempt(), newAttempt()];
    await post({ nonce: await nonce(testCards.declined), attempt: a, order: 'ORDER-2' });
    await post({ nonce: await nonce(), attempt: b, order: 'ORDER-2' });
    const [ka, kb] = [await gateway.store.attempts.get(a), await gateway.store.attempts.get(b)];
    expect(ka!.invoiceNumber).not.toBe(kb!.invoiceNumber);
    expect([ka!.status, kb!.status]).toEqual(['declined', 'approved']);
    // settle by invoice number reads each try's own payment, through the gateway's store (no store handed over).
    expect((await gateway.payments.settle({ invoiceNumber: kb!.invoiceNumber })).status).toBe('approved');
    expect((await gateway.payments.settle({ invoiceNumber: ka!.invoiceNumber })).status).toBe('declined');
  });

  it('a lost answer is checking, never not paid; the notification settles it, and a second POST charges nothing', async () => {
    const attempt = newAttempt();
    const before = charges();
    sandbox.injectFault({ kind: 'lose', method: 'POST', path: `/v1/merchants/${sandbox.merchant.id}/payment` });
    expect((await json(post({ nonce: await nonce(), attempt }))).body).toEqual({ status: 'checking' });
    expect((await json(post({ nonce: await nonce(), attempt }))).body.status).toMatch(/^(checking|approved)$/);
    await sandbox.notificationsIdle();
    const settled = await json(ask(attempt));
    expect(settled.body).toMatchObject({ status: 'approved', state: 'captured' });
    expect(charges() - before).toBe(1);
    const { invoiceNumber } = (await gateway.store.attempts.get(attempt))!;
    expect(handed.get(invoiceNumber)).toMatchObject({ attempt, order: 'ORDER-1' });
    // The merchant keeps the default store and settles by invoice number: the payment, not `unknown` for ever.
    expect(await gateway.payments.settle({ invoiceNumber })).toMatchObject({ status: 'approved', state: 'captured' });
  });

  it('refuses a body without a nonce or a usable attempt id, and begins nothing', async () => {
    const attempt = newAttempt();
    expect(await json(post({ attempt }))).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
    expect(await json(post({ nonce: 'x', attempt: 'short' }))).toMatchObject({ status: 400 });
    expect(await gateway.store.attempts.get(attempt)).toBeUndefined();
  });

  it('closes an attempt whose payment the service refused: asked again, it is none', async () => {
    const attempt = newAttempt();
    const refused = await post({ nonce: '00000000-0000-4000-8000-000000000000', attempt });
    expect(refused.status).toBe(400);
    expect((await json(ask(attempt))).body).toEqual({ status: 'none' });
  });
});

describe('handlers.pay: GET ?attempt=', () => {
  it('answers none for an attempt it never saw, and a late POST of it then charges nothing', async () => {
    const attempt = newAttempt();
    const before = charges();
    expect((await json(ask(attempt))).body).toEqual({ status: 'none' });
    expect((await json(post({ nonce: await nonce(), attempt }))).body).toEqual({ status: 'none' });
    expect(charges() - before).toBe(0);
    expect(await gateway.store.attempts.get(attempt)).toMatchObject({ status: 'void' });
  });

  it('writes nothing for an attempt it never saw, asked without a session: checking, and its POST then pays', async () => {
    const attempt = newAttempt();
    const anonymous = () => pay(new Request(`https://shop.example/pay?attempt=${attempt}`));
    for (let i = 0; i < 3; i++) expect(await json(anonymous())).toEqual({ status: 200, body: { status: 'checking' } });
    expect(await gateway.store.attempts.get(attempt)).toBeUndefined();
    expect((await json(post({ nonce: await nonce(), attempt }))).body.status).toBe('approved');
    expect(await json(anonymous())).toMatchObject({ status: 403, body: { error: { code: 'forbidden' } } });
  });

  it('writes nothing for ids asked at random on a route without owner', async () => {
    const open = gateway.handlers.pay({ payment: () => ({ intent: 'sale', amount: EUR('1.00') }) });
    const ids = Array.from({ length: 20 }, newAttempt);
    for (const id of ids)
      expect(await (await open(new Request(`https://shop.example/pay?attempt=${id}`))).json()).toEqual({ status: 'checking' });
    for (const id of ids) expect(await gateway.store.attempts.get(id)).toBeUndefined();
  });

  it('answers an attempt to its owner only', async () => {
    const attempt = newAttempt();
    await post({ nonce: await nonce(), attempt });
    expect(await json(ask(attempt, 'shopper-b'))).toMatchObject({ status: 403, body: { error: { code: 'forbidden' } } });
    expect((await json(ask(attempt))).body.status).toBe('approved');
  });

  it('answers a pending attempt with what handlePending takes, and reads it again once the payer finished', async () => {
    const attempt = newAttempt();
    const first = (await json(post({ nonce: await nonce(testCards.otp), attempt }))).body;
    expect(first).toMatchObject({ status: 'pending', pending: { otp: true } });
    // The payer finishes on the bank's page (not through this server): the service captures it.
    await gateway.payments.authenticate({
      authenticateUrl: gateway.authenticateUrl(first.pending!.sessionId),
      referenceId: first.referenceId!,
      otp: testCards.otp.otp,
    });
    expect((await json(ask(attempt))).body).toMatchObject({ status: 'approved', state: 'captured' });
  });
});

describe('handlers.authenticate({ owner })', () => {
  it("finishes only the session's own attempt's payment, and settles the attempt on this instance", async () => {
    const authenticate = gateway.handlers.authenticate({ owner: (request) => request.headers.get('x-shopper') ?? undefined });
    const attempt = newAttempt();
    const { body } = await json(post({ nonce: await nonce(testCards.otp), attempt }));
    const otp = (shopper: string) =>
      authenticate(
        new Request('https://shop.example/authenticate', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-shopper': shopper },
          body: JSON.stringify({ referenceId: body.referenceId, sessionId: body.pending!.sessionId, otp: testCards.otp.otp }),
        }),
      );
    const sent = () => sandbox.requests().filter((r) => r.path.startsWith('/v1/authenticate/')).length;
    const before = sent();
    expect((await otp('shopper-b')).status).toBe(403);
    expect(sent()).toBe(before);
    const done = await otp('shopper-a');
    expect(await done.json()).toMatchObject({ status: 'approved', state: 'captured' });
    expect(await gateway.store.attempts.get(attempt)).toMatchObject({ status: 'approved' });
  });
});

describe('gateway.settleOpen', () => {
  it('settles the attempts still open or pending, and leaves open what nobody can tell yet', async () => {
    down = true; // no notification settles them meanwhile
    const pendingAttempt = newAttempt();
    const first = (await json(post({ nonce: await nonce(testCards.otp), attempt: pendingAttempt }))).body;
    await gateway.payments.authenticate({
      authenticateUrl: gateway.authenticateUrl(first.pending!.sessionId),
      referenceId: first.referenceId!,
      otp: testCards.otp.otp,
    });
    // Begun, and its request never reached the service (the server died between the two): nobody can tell.
    const silent = newAttempt();
    await gateway.store.attempts.begin({ attempt: silent, invoiceNumber: `PF-${silent}`, status: 'open', createdAt: Date.now() - 120_000 });

    const result = await gateway.settleOpen({ olderThan: 0, limit: 100 });
    expect(result.settled.find((a) => a.attempt === pendingAttempt)).toMatchObject({ status: 'approved' });
    expect(result.open.find((a) => a.attempt === silent)).toMatchObject({ status: 'open' });
    expect(result.failed).toEqual([]);
    expect(result.found).toBe(result.settled.length + result.open.length);
    // Younger than olderThan: left for the next run.
    expect((await gateway.settleOpen({ olderThan: 3_600_000 })).found).toBe(0);
    down = false;
  });
});

describe('two instances sharing one store (two servers behind one address)', () => {
  it('an attempt begun on one is answered, settled and finished with its OTP on the other; never charged twice', async () => {
    const { id, clientId, clientSecret } = sandbox.merchant;
    const store = memoryStore(); // what a shared database is to two processes: one store both read and write
    const [a, b] = [0, 1].map(() =>
      createGateway({ merchantId: id, clientId, clientSecret, baseUrl: sandbox.url, timeoutMs: 5000, store }),
    );
    const options = {
      payment: () => ({ intent: 'sale' as const, amount: EUR('4.00') }),
      owner: (r: Request) => r.headers.get('x-shopper') ?? undefined,
    };
    const [payA, payB] = [a!.handlers.pay(options), b!.handlers.pay(options)];
    const postTo = (handler: Handler, body: unknown) =>
      json(
        handler(
          new Request('https://shop.example/pay', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-shopper': 'shopper-a' },
            body: JSON.stringify(body),
          }),
        ),
      );
    const askAt = (handler: Handler, attempt: string) =>
      json(handler(new Request(`https://shop.example/pay?attempt=${attempt}`, { headers: { 'x-shopper': 'shopper-a' } })));
    const before = charges();

    // Paid on A, its answer lost; the page's ask and its second POST reach B.
    const lost = newAttempt();
    sandbox.injectFault({ kind: 'lose', method: 'POST', path: `/v1/merchants/${id}/payment` });
    expect((await postTo(payA, { nonce: await nonce(), attempt: lost })).body).toEqual({ status: 'checking' });
    expect((await postTo(payB, { nonce: await nonce(), attempt: lost })).body.status).toBe('checking');
    // The service's notification of that payment reaches B's route (as the sandbox posted it: its id, kind and payment).
    await sandbox.notificationsIdle();
    const { invoiceNumber } = (await store.attempts.get(lost))!;
    const invoices = await Promise.all(
      sandbox.notifications().map(async (n) => (await a!.payments.get(n.referenceId)).transaction?.invoice_number),
    );
    const sent = sandbox.notifications()[invoices.indexOf(invoiceNumber)]!;
    const notifyB = b!.handlers.notification({ authorization: AUTH, onPayment: () => {} });
    const payload = {
      id: sent.id,
      create_time: sent.createdAt,
      resource_type: 'payment',
      kind: sent.kind,
      resource: { reference_id: sent.referenceId },
    };
    const form = new URLSearchParams({ pg_signature: 'x', pg_payload: Buffer.from(JSON.stringify(payload)).toString('base64') });
    const delivered = await notifyB(
      new Request('https://shop.example/notify', {
        method: 'POST',
        headers: { authorization: AUTH, 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      }),
    );
    expect(delivered.status).toBe(204);
    expect((await askAt(payA, lost)).body).toMatchObject({ status: 'approved', state: 'captured' });
    expect((await postTo(payA, { nonce: await nonce(), attempt: lost })).body.status).toBe('approved');

    // A pending payment begun on A, finished with its OTP on B.
    const pendingAttempt = newAttempt();
    const first = (await postTo(payA, { nonce: await nonce(testCards.otp), attempt: pendingAttempt })).body;
    const otpOnB = await b!.handlers.authenticate({ owner: (r) => r.headers.get('x-shopper') ?? undefined })(
      new Request('https://shop.example/authenticate', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-shopper': 'shopper-a' },
        body: JSON.stringify({ referenceId: first.referenceId, sessionId: first.pending!.sessionId, otp: testCards.otp.otp }),
      }),
    );
    expect(await otpOnB.json()).toMatchObject({ status: 'approved' });
    expect((await askAt(payA, pendingAttempt)).body).toMatchObject({ status: 'approved', state: 'captured' });
    expect(charges() - before).toBe(2);
  });
});
