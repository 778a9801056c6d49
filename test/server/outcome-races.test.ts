// What a merchant must be able to rely on when answers are lost and notifications race, against the
// real sandbox (each failed before its fix: a review of the "no payment lost" work found them).
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, testCards, type SandboxHandle } from '../setup/sandbox';
import { createGateway, memoryNotificationStore, type Gateway, type NotificationStore, type Payment } from '../../src/server';
import { PayframeError } from '../../src/shared/errors';
import { startReceiver, type Receiver } from '../sandbox/receiver';
import { EUR, fullCard } from './helpers';

const AUTH = 'Bearer review26-notify';

let sandbox: SandboxHandle;
let receiver: Receiver;
let gateway: Gateway;
/** A reverse proxy (a load balancer) in front of the sandbox: forwards every request, and answers `next` instead of the real answer when set. */
let proxy: Server;
let proxyUrl: string;
let next: { status: number; body: string } | undefined;

beforeAll(async () => {
  receiver = await startReceiver();
  sandbox = await startSandbox({ plainHttp: true, notifyUrl: receiver.url, notifyAuthorization: AUTH });
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type', 'accept']) if (req.headers[name]) headers[name] = String(req.headers[name]);
      const upstream = await fetch(`${sandbox.httpUrl}${req.url}`, {
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      const text = await upstream.text(); // the service has acted and answered
      const replaced = next;
      next = undefined;
      if (replaced) {
        res.writeHead(replaced.status, { 'content-type': 'text/html' });
        return void res.end(replaced.body);
      }
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const { id, clientId, clientSecret } = sandbox.merchant;
  gateway = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: sandbox.httpUrl!, timeoutMs: 5000 });
});

afterAll(async () => {
  await sandbox?.close();
  await receiver?.stop();
  await new Promise((resolve) => proxy?.close(resolve));
});

const paymentPosts = () => sandbox.requests().filter((r) => r.method === 'POST' && /\/payment$/.test(r.path));

/** The notification the sandbox posted for `referenceId`, exactly as it arrived (its body and Authorization). */
async function delivered(referenceId: string, kind?: string): Promise<Request> {
  await sandbox.notificationsIdle();
  const got = receiver.got.find((r) => r.payload?.resource?.reference_id === referenceId && (!kind || r.payload.kind === kind));
  if (!got) throw new Error(`no notification for ${referenceId}`);
  return new Request('https://shop.example/payframe/notify', {
    method: 'POST',
    headers: { authorization: String(got.headers['authorization']), 'content-type': String(got.headers['content-type']) },
    body: got.body,
  });
}

describe('a POST whose answer a proxy replaced with a 5xx after the service acted', () => {
  it('is outcome_unknown (the payment exists), never a plain server_error the merchant reads as "not paid"', async () => {
    const { id, clientId, clientSecret } = sandbox.merchant;
    const behindProxy = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: proxyUrl, timeoutMs: 5000 });
    const before = paymentPosts().length;
    next = { status: 504, body: '<html><body><h1>504 Gateway Time-out</h1></body></html>' };
    const invoiceNumber = `INV-R26-${Date.now()}`;
    const error = await behindProxy.payments
      .create({ intent: 'sale', amount: EUR('9.00'), card: fullCard(testCards.approved), invoiceNumber })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    // The service charged the card: one payment was made, and its notification says it was captured.
    expect(paymentPosts().length).toBe(before + 1);
    await sandbox.notificationsIdle();
    const charged = receiver.got.find((r) => r.payload?.resource?.transaction?.invoice_number === invoiceNumber);
    expect([charged?.payload.kind, charged?.payload.resource.state]).toEqual(['PAYMENT.SALE.COMPLETED', 'captured']);
    expect(error).toBeInstanceOf(PayframeError);
    expect((error as PayframeError).code, (error as Error).message).toBe('outcome_unknown');
  });
});

describe('handlers.notification: one notification id, onPayment once', () => {
  it('with an asynchronous store (a database), two concurrent deliveries of one notification call onPayment once', async () => {
    const payment = await gateway.payments.create({ intent: 'sale', amount: EUR('3.00'), card: fullCard(testCards.approved) });
    const request = await delivered(payment.reference_id);
    // Any database answers later than a Map: 5 ms here.
    const memory = memoryNotificationStore();
    const later = () => new Promise((r) => setTimeout(r, 5));
    const store: NotificationStore = {
      claim: async (id) => (await later(), memory.claim(id)),
      finish: async (id, p) => (await later(), memory.finish(id, p)),
      release: async (id) => (await later(), memory.release(id)),
    };
    const calls: string[] = [];
    const handler = gateway.handlers.notification({ authorization: AUTH, store, onPayment: (p) => void calls.push(p.reference_id) });
    const answers = await Promise.all([handler(request.clone()), handler(request.clone())]);
    expect(answers.map((a) => a.status)).toEqual([204, 204]);
    expect(calls).toEqual([payment.reference_id]); // the docs: "a notification it has handled already (the same id) is answered 204 without calling onPayment again"
  });

  it('two processes sharing one store (as docs/outcomes.md says to) call onPayment once for one notification delivered to both', async () => {
    const payment = await gateway.payments.create({ intent: 'sale', amount: EUR('4.00'), card: fullCard(testCards.approved) });
    const request = await delivered(payment.reference_id);
    const shared = memoryNotificationStore();
    const calls: string[] = [];
    const process1 = gateway.handlers.notification({
      authorization: AUTH,
      store: shared,
      onPayment: (p) => void calls.push(p.reference_id),
    });
    const process2 = gateway.handlers.notification({
      authorization: AUTH,
      store: shared,
      onPayment: (p) => void calls.push(p.reference_id),
    });
    const answers = await Promise.all([process1(request.clone()), process2(request.clone())]);
    expect(answers.map((a) => a.status)).toEqual([204, 204]);
    expect(calls).toHaveLength(1);
  });
});

describe('handlers.notification: an order never moves backwards', () => {
  it("two notifications of one payment handled at once leave the order in the payment's present state", async () => {
    // docs/outcomes.md: "a forged, stale or reordered notification can never move an order backwards ... write
    // your onPayment so that it sets the order from the payment". This onPayment does exactly that; its
    // database is slow once (a lock, a busy pool), as databases are.
    const payment = await gateway.payments.create({ intent: 'auth', amount: EUR('5.00'), card: fullCard(testCards.approved) });
    const created = await delivered(payment.reference_id, 'PAYMENT.AUTHORIZATION.CREATED');
    const orders = new Map<string, string>();
    let entered!: () => void;
    const inFirstWrite = new Promise<void>((r) => (entered = r));
    let release!: () => void;
    let slowOnce: Promise<void> | undefined = new Promise<void>((r) => (release = r));
    const handler = gateway.handlers.notification({
      authorization: AUTH,
      onPayment: async (p: Payment) => {
        const wait = slowOnce;
        slowOnce = undefined;
        if (wait) entered();
        await wait;
        orders.set(p.reference_id, p.state);
      },
    });
    const first = handler(created); // reads the payment (authorised), then its write is slow
    await inFirstWrite;
    await gateway.payments.capture(payment.reference_id, {});
    const captured = await delivered(payment.reference_id, 'PAYMENT.CAPTURE.COMPLETED');
    const second = handler(captured); // arrives while the first's write is still slow
    await new Promise((r) => setTimeout(r, 50));
    release(); // the slow write of the first notification lands now
    expect((await first).status).toBe(204);
    expect((await second).status).toBe(204);
    const now = await gateway.payments.get(payment.reference_id);
    expect(now.state).toBe('captured');
    expect(orders.get(payment.reference_id)).toBe(now.state);
  });
});

describe('payments.settle by invoice number', () => {
  it("answers 'unknown' while no notification told of the payment, which docs/outcomes.md never calls unpaid", async () => {
    // The shop's notification route is down for a day (a failed deploy) while one payment's answer is lost.
    receiver.answer = { status: 500 };
    try {
      const invoiceNumber = `INV-R26-DOWN-${Date.now()}`;
      sandbox.injectFault({ kind: 'lose', method: 'POST', path: '/v1/merchants/sandbox-merchant/payment' });
      const lost = await gateway.payments
        .create({ intent: 'sale', amount: EUR('7.00'), card: fullCard(testCards.approved), invoiceNumber })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect((lost as PayframeError).code).toBe('outcome_unknown');
      sandbox.advanceClock(25 * 3600_000);
      await sandbox.notificationsIdle();
      const mine = sandbox
        .notifications()
        .filter((n) =>
          receiver.got.some((r) => r.payload?.id === n.id && r.payload.resource?.transaction?.invoice_number === invoiceNumber),
        );
      expect(mine.map((n) => [n.kind, n.state, n.attempts.length])).toEqual([['PAYMENT.SALE.COMPLETED', 'failed', 8]]);
      // The card was charged and no notification was handled: settle cannot know, and says so.
      expect(await gateway.payments.settle({ invoiceNumber }, { store: memoryNotificationStore() })).toEqual({
        status: 'unknown',
        invoiceNumber,
      });
      const doc = readFileSync(new URL('../../docs/outcomes.md', import.meta.url), 'utf8');
      expect(doc).toMatch(/`unknown`\s+never means that no payment was made/);
      expect(doc).not.toMatch(/had no payment made/);
    } finally {
      receiver.answer = { status: 200 };
    }
  });
});
