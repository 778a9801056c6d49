// The soak of issue 37: two merchant processes of a shop built as the guides say (soak/shop.mjs, on
// PostgreSQL 15) behind one address, the sandbox with its faults (lost answers, 500s), its notifications
// duplicated and reordered, the shops' notification route down for a while, one shop killed (SIGKILL)
// and started again mid-run. Purchases are driven over HTTP as the page makes them. At the end every
// payment the sandbox holds is reconciled against the shop's orders: none lost, none charged twice,
// none in the wrong state; and the time each shopper waited for a known outcome is printed.
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, testCards, type SandboxHandle } from '../setup/sandbox';
import { freePort, startPostgres, type Engine } from '../setup/engines.mjs';

const PURCHASES = 80;
const SHOPPERS = 8;
const AUTHORIZATION = 'Bearer soak-notify-secret';
const SHOP = join(__dirname, 'shop.mjs');

let engine: Engine;
let sandbox: SandboxHandle;
let proxy: Server;
let proxyUrl: string;
const shops: { port: number; child?: ChildProcess }[] = [];
/** The notification route, as the balancer sees it: down answers 503 for a while. */
let notifyDown = false;

async function startShop(shop: { port: number; child?: ChildProcess }): Promise<void> {
  const child = fork(SHOP, [], {
    env: {
      ...process.env,
      DATABASE_URL: engine.url,
      PAYFRAME_URL: sandbox.httpUrl,
      PORT: String(shop.port),
      NOTIFY_AUTHORIZATION: AUTHORIZATION,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  shop.child = child;
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the shop exited (${code}) before it listened`)));
  });
}

/** Passes a request to one shop; the next one when the first refused the connection (it never got it). */
function forward(
  req: IncomingMessage,
  body: Buffer,
  port: number,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const out = httpRequest({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 502, headers: res.headers as Record<string, string>, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    out.on('error', reject);
    out.end(body);
  });
}

let turn = 0;
async function balance(req: IncomingMessage, res: import('node:http').ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = Buffer.concat(chunks);
  if (req.url === '/notify' && notifyDown) return void res.writeHead(503).end();
  const first = turn++ % shops.length;
  for (const i of [first, (first + 1) % shops.length]) {
    try {
      const answer = await forward(req, body, shops[i]!.port);
      return void res.writeHead(answer.status, answer.headers).end(answer.body);
    } catch (error) {
      // Refused: that shop is down and never saw the request. Anything else may have reached it: never sent twice.
      if ((error as NodeJS.ErrnoException).code !== 'ECONNREFUSED') return void res.writeHead(502).end();
    }
  }
  res.writeHead(502).end();
}

beforeAll(async () => {
  engine = await startPostgres();
  proxy = createServer((req, res) => void balance(req, res));
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  sandbox = await startSandbox({ plainHttp: true, testMode: true, notifyUrl: `${proxyUrl}/notify`, notifyAuthorization: AUTHORIZATION });
  for (let i = 0; i < 2; i++) shops.push({ port: await freePort() });
  // One after the other: the first makes the shop's table (two `create table if not exists` at once collide).
  for (const shop of shops) await startShop(shop);
}, 60_000);

afterAll(async () => {
  for (const shop of shops) shop.child?.kill('SIGKILL');
  proxy?.close();
  await sandbox?.close();
  await engine?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const json = async (path: string, init?: RequestInit) => {
  const res = await fetch(`${proxyUrl}${path}`, init);
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, any> };
};
const post = (path: string, body?: unknown) =>
  json(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** A nonce as the page gets it: a client token from the shop, then the service's nonce endpoint. */
async function nonceOf(card: typeof testCards.approved): Promise<string> {
  for (;;) {
    const grant = await post('/client-token').catch(() => undefined);
    if (grant?.status !== 200) {
      await sleep(200); // a client token moves nothing: asked again
      continue;
    }
    const res = await fetch(`${sandbox.httpUrl}/v1/merchants/sandbox-merchant/credit-card-nonce`, {
      method: 'POST',
      headers: { authorization: `Bearer ${grant.body['clientToken']}`, 'content-type': 'application/json' },
      body: JSON.stringify({ number: card.number, expire_month: card.expireMonth, expire_year: card.expireYear, cvv2: card.cvv }),
    });
    if (res.ok) return ((await res.json()) as { data: { credit_card_nonce: string } }).data.credit_card_nonce;
    await sleep(200);
  }
}

interface Purchase {
  order: string;
  declined: boolean;
  seen: string[];
  /** Each press's attempt and what its shopper was last told of it. */
  told: [string, string][];
  ms: number;
}

/** One order, paid as the page pays: an attempt id per press, its outcome asked for after a lost answer; pressed again only after "none". */
async function purchase(i: number): Promise<Purchase> {
  const declined = i % 5 === 4;
  const order = `ORDER-${i}`;
  const started = performance.now();
  const seen: string[] = [];
  const told: [string, string][] = [];
  for (let press = 0; press < 3; press++) {
    const nonce = await nonceOf(declined ? testCards.declined : testCards.approved);
    const attempt = randomUUID();
    let status = (await post('/pay', { nonce, attempt, order }).catch(() => undefined))?.body['status'] ?? 'checking';
    const asked = performance.now();
    while (!['approved', 'declined', 'none'].includes(status) && performance.now() - asked < 15_000) {
      await sleep(250);
      status = (await json(`/pay?attempt=${attempt}`).catch(() => undefined))?.body['status'] ?? 'checking';
    }
    seen.push(status);
    told.push([attempt, status]);
    if (status !== 'none') break;
  }
  return { order, declined, seen, told, ms: performance.now() - started };
}

it('loses no payment, charges none twice, and leaves no order in the wrong state', async () => {
  sandbox.notificationChaos({ duplicate: true, reorder: true });
  const done: Purchase[] = [];
  let next = 0;
  let killed = false;
  // The service's clock runs five minutes each second: retried notifications come while the run lasts.
  const clock = setInterval(() => sandbox.advanceClock(5 * 60_000), 1000);
  const shopper = async () => {
    while (next < PURCHASES) {
      const i = next++;
      if (i % 10 === 3) sandbox.injectFault({ kind: 'lose', method: 'POST', path: '/v1/merchants/sandbox-merchant/payment' });
      if (i % 10 === 7) sandbox.injectFault({ kind: 'error', method: 'POST', path: '/v1/merchants/sandbox-merchant/payment' });
      if (i === 20) notifyDown = true;
      if (i === 35) notifyDown = false;
      if (i === 45 && !killed) {
        killed = true;
        shops[0]!.child!.kill('SIGKILL');
        void sleep(1500).then(() => startShop(shops[0]!));
      }
      done.push(await purchase(i));
    }
  };
  const started = performance.now();
  try {
    await Promise.all(Array.from({ length: SHOPPERS }, shopper));
  } finally {
    clearInterval(clock); // a failed purchase too: the worker outlives this file
  }

  // The end of the day: the receiver is up; what is due is sent; the job settles what is open.
  for (let round = 0; round < 3; round++) {
    sandbox.advanceClock(31 * 60_000);
    await sandbox.notificationsIdle();
    expect((await post('/settle')).status).toBe(200);
  }
  const pending = sandbox.notifications().filter((n) => n.state !== 'delivered');
  expect(pending).toEqual([]);

  // Every payment the service holds, read from the service.
  const ids = [...new Set(sandbox.notifications().map((n) => n.referenceId))];
  const basic = `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}`;
  const payments = await Promise.all(
    ids.map(async (id) => {
      const res = await fetch(`${sandbox.httpUrl}/v1/merchants/sandbox-merchant/payment/${id}`, { headers: { authorization: basic } });
      const p = (await res.json()) as { reference_id: string; state: string; transaction: { invoice_number: string } };
      return { id: p.reference_id, state: p.state, invoice: p.transaction.invoice_number };
    }),
  );
  const db = new pg.Client({ connectionString: engine.url });
  await db.connect();
  const attempts = new Map(
    (await db.query('select invoice_number, order_id from payframe_attempts')).rows.map((r) => [
      r.invoice_number as string,
      r.order_id as string,
    ]),
  );
  const attemptOf = new Map(
    (await db.query('select invoice_number, attempt from payframe_attempts')).rows.map((r) => [
      r.invoice_number as string,
      r.attempt as string,
    ]),
  );
  const orders = new Map((await db.query('select id, status, reference_id from shop_orders')).rows.map((r) => [r.id as string, r]));
  await db.end();

  const charged = payments.filter((p) => p.state === 'captured');
  const chargesOf = new Map<string, number>();
  for (const p of charged) {
    const order = attempts.get(p.invoice) ?? `(no attempt: ${p.invoice})`;
    chargesOf.set(order, (chargesOf.get(order) ?? 0) + 1);
  }
  const lost = charged.filter((p) => orders.get(attempts.get(p.invoice) ?? '')?.status !== 'paid');
  const twice = [...chargesOf].filter(([, n]) => n > 1);
  const wrong = [...orders.values()].filter((o) => (o.status === 'paid') !== chargesOf.has(o.id));
  // What each shopper was told of each press: never "none" or "declined" for a press that charged ("checking" is
  // no answer yet). A press truly told "none" and pressed again may well be charged on the next press: that one is right.
  const toldOf = new Map(done.flatMap((d) => d.told));
  const misled = charged.filter((p) => ['none', 'declined'].includes(toldOf.get(attemptOf.get(p.invoice) ?? '') ?? ''));
  const unknown = done.filter((d) => d.seen.at(-1) === 'checking');
  // A payer who has waited 15 s for "checking" to end leaves the page: counted apart, not in the times.
  const waits = done
    .filter((d) => d.seen.at(-1) !== 'checking')
    .map((d) => d.ms)
    .sort((a, b) => a - b);
  const at = (q: number) => Math.round(waits[Math.min(waits.length - 1, Math.floor(q * waits.length))]!);
  console.log(
    `soak: ${done.length} purchases, ${payments.length} payments (${charged.length} captured) in ${Math.round(performance.now() - started)} ms; ` +
      `lost ${lost.length}, charged twice ${twice.length}, wrong state ${wrong.length}, misled ${misled.length}, still checking ${unknown.length}; ` +
      `time to a known outcome p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms`,
  );
  expect(done).toHaveLength(PURCHASES);
  expect(charged.length).toBeGreaterThan(PURCHASES / 2);
  expect({ lost, twice, wrong, misled }).toEqual({ lost: [], twice: [], wrong: [], misled: [] });
}, 120_000);
