// docs/outcomes.md's blocks, as written: the notification route at the edge (bundled as a merchant's
// worker is and run in workerd through miniflare, reading payments from a real sandbox, its store a real
// Redis 7 reached over HTTP and shared with a pay route on Node), and the settle job.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { Redis } from 'ioredis';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startSandbox, testCards } from '../setup/sandbox';
import { createGateway, memoryStore, redisStore, type Gateway } from '../../src/server';
import { readmeBlock } from '../readme';
import { startRedis, type Engine } from '../setup/engines.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const AUTH = 'notify-edge-5b1e';
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let gateway: Gateway;
let options: Parameters<typeof createGateway>[0];
let mf: Miniflare;
let engine: Engine;
let redis: Redis;
let bridge: Server;
const REDIS_TOKEN = 'redis-rest-token-7f2a';

/** A Redis REST endpoint as the worker's block expects: one command as a JSON array, `{ result }` or `{ error }`. */
async function startBridge(): Promise<string> {
  bridge = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.headers.authorization !== `Bearer ${REDIS_TOKEN}`) return answer(401, { error: 'unauthorized' });
      const [command, ...args] = JSON.parse(Buffer.concat(chunks).toString('utf8')) as [string, ...string[]];
      redis.call(command, ...args).then(
        (result) => answer(200, { result }),
        (error: Error) => answer(400, { error: error.message }),
      );
    });
  });
  await new Promise<void>((resolve) => bridge.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(bridge.address() as AddressInfo).port}/`;
}

beforeAll(async () => {
  engine = await startRedis();
  redis = new Redis(engine.url);
  const redisUrl = await startBridge();
  sandbox = await startSandbox({ plainHttp: true });
  const { id, clientId, clientSecret } = sandbox.merchant;
  options = { merchantId: id, clientId, clientSecret, baseUrl: sandbox.httpUrl! };
  gateway = createGateway(options);
  const { outputFiles } = await build({
    stdin: { contents: readmeBlock('outcomes/worker.mjs'), resolveDir: ROOT, sourcefile: 'worker.mjs', loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    conditions: ['worker', 'browser'],
  });
  mf = new Miniflare({
    modules: true,
    script: outputFiles[0]!.text,
    compatibilityDate: '2026-01-01',
    kvNamespaces: ['ORDERS'],
    bindings: {
      MERCHANT_ID: id,
      CLIENT_ID: clientId,
      CLIENT_SECRET: clientSecret,
      GATEWAY_URL: sandbox.httpUrl!,
      NOTIFY_AUTHORIZATION: AUTH,
      REDIS_URL: redisUrl,
      REDIS_TOKEN,
    },
  });
}, 60_000);
afterAll(async () => {
  await mf?.dispose();
  await sandbox?.close();
  await new Promise((resolve) => bridge?.close(resolve));
  redis?.disconnect();
  await engine?.close();
});

const form = (payload: unknown) =>
  new URLSearchParams({ pg_signature: 'x', pg_payload: Buffer.from(JSON.stringify(payload)).toString('base64') }).toString();

describe('docs/outcomes.md', () => {
  it("worker.mjs: settles the order from the service, once per notification, in the pay route's store, and refuses a wrong Authorization", async () => {
    const invoiceNumber = `INV-EDGE-${Date.now()}`;
    // The pay route's store, on Node: an attempt of this invoice number whose answer was lost.
    const shop = createGateway({ ...options, store: redisStore(redis) });
    await shop.store.attempts.begin({ attempt: 'attempt-edge-1', invoiceNumber, order: 'ORDER-E', status: 'open', createdAt: Date.now() });
    const declined = await gateway.payments.create({
      intent: 'sale',
      amount: { currency: 'EUR', total: '4.00' },
      invoiceNumber,
      card: { number: testCards.declined.number, expireMonth: 12, expireYear: 2034, cvv: '123' },
    });
    // A lie: the notification says captured; the order must say what the service says.
    const body = form({
      id: 'WH-EDGE-1',
      create_time: new Date().toISOString(),
      resource_type: 'payment',
      kind: 'PAYMENT.SALE.COMPLETED',
      resource: { reference_id: declined.reference_id, state: 'captured' },
    });
    const post = (authorization: string) =>
      mf.dispatchFetch('https://shop.example/payframe/notify', {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
    expect((await post('wrong')).status).toBe(401);
    const orders = (await mf.getKVNamespace('ORDERS')) as unknown as { get(key: string): Promise<string | null> };
    expect(await orders.get(invoiceNumber)).toBeNull();
    expect((await post(AUTH)).status).toBe(204);
    expect(JSON.parse((await orders.get(invoiceNumber))!)).toEqual({ referenceId: declined.reference_id, state: 'declined' });
    // The worker wrote the outcome where the pay route reads it.
    expect(await shop.store.attempts.get('attempt-edge-1')).toMatchObject({ status: 'declined', referenceId: declined.reference_id });
    expect(await shop.store.notifications.referenceOf?.(invoiceNumber)).toBe(declined.reference_id);
    const reads = () => sandbox.requests().filter((r) => r.method === 'GET' && r.path.endsWith(declined.reference_id)).length;
    const before = reads();
    expect((await post(AUTH)).status).toBe(204); // a duplicate: answered, not handled again
    expect(reads()).toBe(before);
    expect((await mf.dispatchFetch('https://shop.example/elsewhere')).status).toBe(404);
  });
});

describe('docs/outcomes.md: the settle job', () => {
  it('settle.mjs: settles the attempts still pending, closes those past the notification window, and leaves the young unknown open', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'payframe-settle-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, 'settle.mjs'), readmeBlock('outcomes/settle.mjs'));
    const { settleOpenOrders } = (await import(join(dir, 'settle.mjs'))) as {
      settleOpenOrders: (
        g: Gateway,
        save: (order: string, status: string, referenceId?: string) => void,
        options: { olderThan: number; log: unknown },
      ) => Promise<void>;
    };
    const shop = createGateway({ ...options, store: memoryStore() });
    const pay = shop.handlers.pay({
      payment: (_r, body) => ({ intent: 'sale', amount: { currency: 'EUR', total: '9.00' }, order: String(body.order) }),
    });
    const nonce = async (number: string) => {
      const token = await shop.clientToken();
      const r = await fetch(`${sandbox.httpUrl}/v1/merchants/${sandbox.merchant.id}/credit-card-nonce`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ number, expire_month: 12, expire_year: 2034, cvv2: '400' }),
      });
      return ((await r.json()) as { data: { credit_card_nonce: string } }).data.credit_card_nonce;
    };
    const post = async (body: unknown) =>
      (
        await pay(
          new Request('https://shop.example/pay', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          }),
        )
      ).json();
    // A pending payment whose payer never finishes on the bank's page; an attempt whose request never reached the service.
    const pending = await post({ nonce: await nonce(testCards.otp.number), attempt: 'attempt-pending-1', order: 'ORDER-P' });
    expect(pending).toMatchObject({ status: 'pending' });
    const begun = (name: string, order: string, agoMs: number) =>
      shop.store.attempts.begin({
        attempt: `attempt-${name}-1`,
        invoiceNumber: `PF-${name}-1`,
        order,
        status: 'open',
        createdAt: Date.now() - agoMs,
      });
    await begun('silent', 'ORDER-S', 2 * 86_400_000);
    await begun('young', 'ORDER-Y', 2 * 3600_000); // two hours ago: the service may still notify its payment
    const saved: unknown[][] = [];
    const warned: string[] = [];
    const told: string[] = [];
    const log = { warn: (line: string) => warned.push(line), info: (line: string) => told.push(line) };
    sandbox.advanceClock(15 * 60_000); // the payer never finished: the service declined it (1203)
    await settleOpenOrders(shop, (...args) => void saved.push(args), { olderThan: 0, log });
    expect(saved).toEqual([
      ['ORDER-S', 'void', undefined],
      ['ORDER-P', 'declined', (pending as { referenceId: string }).referenceId],
    ]);
    expect((await shop.store.attempts.get('attempt-silent-1'))!.status).toBe('void');
    expect(warned.join('\n')).toMatch(/attempt-silent-1 of order ORDER-S closed unpaid: no notification named PF-silent-1/);
    expect(warned.join('\n')).not.toMatch(/young/);
    expect((await shop.store.attempts.get('attempt-young-1'))!.status).toBe('open');
    expect(told.join('\n')).toMatch(/attempt-young-1: its outcome is still unknown/);
  });
});

describe('docs/outcomes.md: a refund whose answer was lost', () => {
  it('a refund record is read by the id its notification names: its own amount, the payment it acted on', async () => {
    const card = { number: testCards.approved.number, expireMonth: 12, expireYear: 2034, cvv: '123' };
    const payment = await gateway.payments.create({ intent: 'sale', amount: { currency: 'EUR', total: '10.00' }, card });
    const refund = await gateway.payments.refund(payment.reference_id, { amount: { currency: 'EUR', total: '3.00' } });
    const read = await gateway.payments.get(refund.id);
    expect(read).toMatchObject({ id: refund.id, reference_id: payment.reference_id, state: 'refunded' });
    expect(read.transaction?.amount?.total).toBe('3.00');
    expect((await gateway.payments.get(payment.reference_id)).state).toBe('captured');
  });
});
