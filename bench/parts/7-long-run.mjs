// Part 7: a merchant's whole test run against one sandbox. The sandbox runs in a child process with
// --expose-gc (`startSandbox()` in-process there, as a merchant's test setup starts it), the clients
// here, on kept-alive node:https connections over loopback. 100,000 payments (nonce, then a payment;
// the vault keeps a payer for each: one in 100 names an email of its own, the others none), 64 clients
// at a time; before and after them: the heap after GC, the median of `GET …/payer?email=` (the newest
// payer with an email, its email in upper case), and throughput at 4 and 64 clients. Last, 20,000
// unused nonces, and the heap once the sandbox's clock passes every lifetime.
// PAYFRAME_BENCH_PAYMENTS=<n> changes the count (the memory figure is only meant at the default);
// PAYFRAME_BENCH_DIST=<an older build's dist> runs that build instead; PAYFRAME_BENCH_BEFORE=<an older
// build's dist> runs it beside this one (its long run after this one's, the throughput runs taking
// turns), for a comparison under the same load of the machine.
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:https';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { cell, quantile, summary } from '../lib.mjs';

export const title = 'Part 7: a long test run against one sandbox';

const PAYMENTS = Number(process.env.PAYFRAME_BENCH_PAYMENTS ?? 100_000);
const EXPIRING_NONCES = 20_000;
const distOf = (path) => pathToFileURL(`${path.replace(/\/?$/, '/')}`);
const dist = process.env.PAYFRAME_BENCH_DIST ? distOf(process.env.PAYFRAME_BENCH_DIST) : new URL('../../dist/', import.meta.url);
/** Another build's dist, run beside this one, the two taking turns in the throughput runs. */
const before = process.env.PAYFRAME_BENCH_BEFORE ? distOf(process.env.PAYFRAME_BENCH_BEFORE) : undefined;
const CARD = { number: '4111111111111111', expire_month: 12, expire_year: 2034, cvv2: '123' };

/** The sandbox in a child process that answers `heap` with its heap after two full GCs. */
function sandboxProcess(distUrl) {
  const code = `const { startSandbox } = await import(${JSON.stringify(new URL('sandbox.mjs', distUrl).href)});
const sb = await startSandbox({ testMode: true });
process.on('message', () => { gc(); gc(); process.send({ heap: process.memoryUsage().heapUsed }); });
process.send({ url: sb.url, merchant: sb.merchant });`;
  const child = spawn(process.execPath, ['--expose-gc', '--input-type=module', '-e', code], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () => new Promise((resolve) => child.once('message', resolve));
  return next().then((started) => ({
    ...started,
    heap: () => (child.send('heap'), next().then((m) => m.heap)),
    stop: () => child.kill(),
  }));
}

/** One request on `agent`; resolves to the status and the parsed body. */
function send(agent, url, method, headers, body) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent, rejectUnauthorized: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: chunks.length ? JSON.parse(Buffer.concat(chunks)) : undefined }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function client(sb) {
  const base = `${sb.url}/v1/merchants/${sb.merchant.id}`;
  const basic = `Basic ${Buffer.from(`${sb.merchant.clientId}:${sb.merchant.clientSecret}`).toString('base64')}`;
  const json = { 'content-type': 'application/json' };
  const ok = (r, what) => {
    if (r.status !== 200) throw new Error(`${what}: the sandbox answered ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  let bearer;
  const c = {
    errors: 0,
    async token(agent) {
      bearer = `Bearer ${ok(await send(agent, `${base}/client_token`, 'POST', { ...json, authorization: basic }, 'grant_type=client_credentials'), 'client token').accessToken}`;
    },
    nonce: async (agent) =>
      ok(await send(agent, `${base}/credit-card-nonce`, 'POST', { ...json, authorization: bearer }, JSON.stringify(CARD)), 'nonce').data
        .credit_card_nonce,
    async pay(agent, i) {
      const nonce = await c.nonce(agent);
      const body = {
        intent: 'sale',
        payer: {
          payment_type: 'CC',
          funding_instrument: { credit_card_nonce: { nonce } },
          ...(i % 100 === 0 ? { payer_info: { email: `payer-${i}@bench.example` } } : {}),
        },
        transaction: { amount: { currency: 'EUR', total: '10.00' }, invoice_number: `INV-${i}` },
      };
      ok(await send(agent, `${base}/payment`, 'POST', { ...json, authorization: basic }, JSON.stringify(body)), 'payment');
    },
    lookup: async (agent, i) =>
      ok(
        await send(agent, `${base}/payer?email=${encodeURIComponent(`PAYER-${i}@BENCH.EXAMPLE`)}`, 'GET', { authorization: basic }),
        'payer',
      ),
    clock: async (agent, ms) =>
      ok(await send(agent, `${sb.url}/__sandbox/clock`, 'POST', json, JSON.stringify({ advanceMs: ms })), 'clock'),
  };
  return c;
}

/** `total` calls of `job(agent, n)` from `clients` concurrent clients; per second. */
async function load(clients, total, job) {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  try {
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (next < total) await job(agent, next++);
      }),
    );
    return (total * 1000) / (performance.now() - start);
  } finally {
    agent.destroy();
  }
}

/** Median ms of `GET …/payer?email=` of payer `i`, one at a time. */
async function lookupMedian(c, i) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const times = [];
    for (let k = 0; k < 300; k++) {
      const start = performance.now();
      await c.lookup(agent, i);
      times.push(performance.now() - start);
    }
    return quantile(times, 0.5);
  } finally {
    agent.destroy();
  }
}

/** A build under test: its sandbox, a client of it and the payments made so far. */
async function start(name, distUrl) {
  const sb = await sandboxProcess(distUrl);
  const c = client(sb);
  const one = new Agent({ keepAlive: true });
  await c.token(one);
  const b = { name, dist: distUrl.pathname, sb, c, one, paid: 0, unused: 0 };
  b.nonce = (agent) => (b.unused++, c.nonce(agent));
  b.pay = (agent) => c.pay(agent, b.paid++);
  b.lastEmail = () => Math.floor((b.paid - 1) / 100) * 100;
  await load(8, 2000, b.pay); // warm-up: the JIT of both sides
  return b;
}

/** Nonces and payments per second at 4 and 64 clients, 3 runs each, the builds taking turns run by run. */
async function throughput(builds) {
  const runs = new Map(builds.map((b) => [b, { 4: { nonces: [], payments: [] }, 64: { nonces: [], payments: [] } }]));
  for (const clients of [4, 64]) {
    for (let r = 0; r < 3; r++) {
      for (let k = 0; k < builds.length; k++) {
        const b = builds[(r + k) % builds.length];
        runs.get(b)[clients].nonces.push(await load(clients, 2000, b.nonce));
        runs.get(b)[clients].payments.push(await load(clients, 1000, b.pay));
      }
    }
  }
  for (const b of builds) {
    const t = runs.get(b);
    for (const clients of [4, 64])
      t[clients] = { nonces: summary(t[clients].nonces, 'nonces/s'), payments: summary(t[clients].payments, 'payments/s') };
  }
  return runs;
}

/** The long run of one build: heap and lookup before and after PAYMENTS payments at 64 clients. */
async function longRun(b) {
  b.start = { heap: await b.sb.heap(), lookup: await lookupMedian(b.c, b.lastEmail()), paid: b.paid };
  const started = performance.now();
  b.rate = await load(64, PAYMENTS, b.pay);
  b.seconds = (performance.now() - started) / 1000;
  b.end = { heap: await b.sb.heap(), lookup: await lookupMedian(b.c, b.lastEmail()), paid: b.paid };
}

/** Heap per unused nonce, and freed once the sandbox's clock passes their lifetime. */
async function expiry(b) {
  const heap = await b.sb.heap();
  await load(64, EXPIRING_NONCES, b.nonce);
  const withNonces = await b.sb.heap();
  await b.c.clock(b.one, 25 * 3600_000); // past the 24-hour lifetime of nonces and client tokens
  b.perNonce = (withNonces - heap) / EXPIRING_NONCES;
  b.freed = withNonces - (await b.sb.heap());
}

export async function run() {
  const builds = [];
  try {
    builds.push(await start('this build', dist));
    if (before) builds.push(await start('build before', before));
    const startRates = await throughput(builds);
    for (const b of builds) await longRun(b);
    const endRates = await throughput(builds);
    for (const b of builds) await expiry(b);

    const kb = (bytes) => (bytes / 1024).toFixed(0);
    const figures = {};
    const row = (figure, goal, value) => Object.fromEntries([['figure', figure], ...builds.map((b) => [b.name, value(b)]), ['goal', goal]]);
    for (const b of builds) {
      const prefix = builds.length > 1 ? `${b.name}: ` : '';
      b.perPayment = (b.end.heap - b.start.heap) / (b.end.paid - b.start.paid);
      Object.assign(figures, {
        [`${prefix}heap bytes per payment`]: b.perPayment,
        [`${prefix}lookup ms at start`]: b.start.lookup,
        [`${prefix}lookup ms at end`]: b.end.lookup,
        [`${prefix}lookup end / start`]: b.end.lookup / b.start.lookup,
        [`${prefix}payments/s over the run (64 clients)`]: b.rate,
        [`${prefix}heap bytes per unused nonce`]: b.perNonce,
        [`${prefix}heap bytes freed when every token and nonce expires`]: b.freed,
      });
      for (const [when, rates] of [
        ['start', startRates],
        ['end', endRates],
      ]) {
        for (const clients of [4, 64]) {
          const t = rates.get(b)[clients];
          Object.assign(figures, {
            [`${prefix}nonces/s x${clients} ${when}`]: t.nonces,
            [`${prefix}payments/s x${clients} ${when}`]: t.payments,
          });
        }
      }
    }
    const b0 = builds[0];
    const rows = [
      row(
        'payments in the run (64 clients)',
        '',
        (b) => `${PAYMENTS.toLocaleString('en')} in ${b.seconds.toFixed(1)} s: ${b.rate.toFixed(0)}/s`,
      ),
      row('heap after GC, start → end, KB', '', (b) => `${kb(b.start.heap)} → ${kb(b.end.heap)}`),
      row(
        'heap per payment (the payment, its nonce, a payer, a card)',
        'bounded: nothing unused kept',
        (b) => `${b.perPayment.toFixed(0)} B`,
      ),
      row(
        `GET …/payer?email= median ms, ${b0.start.paid.toLocaleString('en')} → ${b0.end.paid.toLocaleString('en')} payers`,
        'end ≤ 1.2 × start',
        (b) => `${b.start.lookup.toFixed(2)} → ${b.end.lookup.toFixed(2)}: ${(b.end.lookup / b.start.lookup).toFixed(2)} ×`,
      ),
      row(`heap per unused nonce (${EXPIRING_NONCES.toLocaleString('en')})`, '', (b) => `${b.perNonce.toFixed(0)} B`),
      row(
        `heap freed once the clock passes the lifetime of every token and nonce (${(b0.paid + b0.unused).toLocaleString('en')} nonces, ${b0.paid.toLocaleString('en')} of them used), KB`,
        'most of what they hold',
        (b) => kb(b.freed),
      ),
    ];
    const loadRows = [];
    for (const [when, rates] of [
      ['start', startRates],
      ['end', endRates],
    ]) {
      for (const what of ['nonces', 'payments']) {
        for (const clients of [4, 64]) {
          loadRows.push(
            Object.fromEntries([
              ['when', when],
              ['per second', what],
              ['clients', clients],
              ...builds.map((b) => [b.name, cell(rates.get(b)[clients][what])]),
            ]),
          );
        }
      }
    }
    return {
      tables: [
        {
          title: `One sandbox per build, ${PAYMENTS.toLocaleString('en')} payments (${builds.map((b) => `${b.name}: ${b.dist}`).join(', ')})`,
          rows,
        },
        {
          title:
            'Throughput before and after the long run, 3 runs each (2,000 nonces; 1,000 payments of a nonce and a payment), builds taking turns: median (min-max); goal: x64 within 10 % of the build before',
          rows: loadRows,
        },
      ],
      figures,
    };
  } finally {
    for (const b of builds) {
      b.one.destroy();
      b.sb.stop();
    }
  }
}
