// Part 5: the server companion and the sandbox. The sandbox runs in its own process (as `npx payframe
// sandbox` does), so that the load it serves and the client that makes it do not share one event loop.
// 1. gateway.clientToken() and gateway.payments.create() beside a bare fetch of the very same request
//    (captured from the gateway), one call at a time; the goal is a ratio of at most 1.1.
// 2. Sandbox throughput of nonce and payment requests at 1, 8 and 64 concurrent clients: requests per
//    second, p50 and p99 latency, and how p99 grows from 1 to 64 clients.
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:https';
import { performance } from 'node:perf_hooks';
import { createGateway } from '../../dist/server.mjs';
import { cell, quantile, summary, time } from '../lib.mjs';

export const title = 'Part 5: server companion and sandbox';

process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0'; // the sandbox's certificate is self-signed
process.removeAllListeners('warning'); // ...and Node says so once per process: not a figure

const CARD = { number: '4111111111111111', expireMonth: 12, expireYear: 2034, cvv: '123' };
const PAYMENT = { intent: 'sale', amount: { currency: 'EUR', total: '10.00' }, card: CARD };

/** Starts `npx payframe sandbox`'s code in a child process; resolves to its url, merchant and a stop(). */
function sandboxProcess() {
  const code = `const { startSandbox } = await import(${JSON.stringify(new URL('../../dist/sandbox.mjs', import.meta.url).href)});
const sb = await startSandbox();
process.stdout.write(JSON.stringify({ url: sb.url, merchant: sb.merchant }) + '\\n');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', (line) => resolve({ ...JSON.parse(String(line)), stop: () => child.kill() }));
  });
}

/** The requests the gateway sends, so that a bare fetch can send exactly the same. */
function recording() {
  const sent = [];
  const fetchAndKeep = async (input, init) => {
    const request = new Request(input, init);
    sent.push({ url: request.url, method: request.method, headers: [...request.headers], body: await request.clone().text() });
    return fetch(request);
  };
  return { sent, fetch: fetchAndKeep };
}

const bare = (r) => () => fetch(r.url, { method: r.method, headers: r.headers, body: r.body }).then((res) => res.json());

/**
 * `pairs` calls of `a` and of `b`, interleaved one by one (the order swapping each time) so that a
 * burst of load on the machine hits both alike; the median milliseconds of each.
 */
async function interleaved(pairs, a, b) {
  const ta = [];
  const tb = [];
  for (let i = 0; i < pairs; i++) {
    const order =
      i % 2
        ? [
            [a, ta],
            [b, tb],
          ]
        : [
            [b, tb],
            [a, ta],
          ];
    for (const [call, list] of order) list.push(await time(call));
  }
  return [quantile(ta, 0.5), quantile(tb, 0.5)];
}

/** One request on a kept-alive connection of `agent`; resolves to the status once the body is read. */
function send(agent, { url, method, headers, body }) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * `total` requests from `clients` concurrent clients, each on its own kept-alive connection (node:https,
 * lighter than fetch, so that the sandbox rather than the client sets the pace): requests per second
 * and latency quantiles. The connections are opened before the clock starts.
 */
async function load(clients, total, target) {
  const agent = new Agent({ keepAlive: true, maxSockets: clients, rejectUnauthorized: false });
  try {
    await Promise.all(Array.from({ length: clients }, () => send(agent, target)));
    const latencies = [];
    let next = 0;
    const loop = async () => {
      while (next++ < total) {
        const start = performance.now();
        const status = await send(agent, target);
        if (status !== 200) throw new Error(`the sandbox answered ${status}`);
        latencies.push(performance.now() - start);
      }
    };
    const wall = await time(() => Promise.all(Array.from({ length: clients }, loop)));
    return { rps: (total * 1000) / wall, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
  } finally {
    agent.destroy();
  }
}

export async function run() {
  const sb = await sandboxProcess();
  try {
    const options = { merchantId: sb.merchant.id, clientId: sb.merchant.clientId, clientSecret: sb.merchant.clientSecret, baseUrl: sb.url };
    const rec = recording();
    await createGateway({ ...options, fetch: rec.fetch }).clientToken();
    await createGateway({ ...options, fetch: rec.fetch }).payments.create(PAYMENT);
    const [tokenRequest, paymentRequest] = rec.sent;
    const gateway = createGateway(options);

    // Warm the connections and the JIT of both sides first.
    for (let i = 0; i < 30; i++)
      await Promise.all([gateway.clientToken(), bare(tokenRequest)(), gateway.payments.create(PAYMENT), bare(paymentRequest)()]);
    const figures = {};
    const callRows = [];
    const pairs = [
      ['gateway.clientToken()', 'fetch (client token)', () => gateway.clientToken(), bare(tokenRequest)],
      ['gateway.payments.create()', 'fetch (payment)', () => gateway.payments.create(PAYMENT), bare(paymentRequest)],
    ];
    for (const [nameA, nameB, a, b] of pairs) {
      const runs = [];
      for (let r = 0; r < 9; r++) runs.push(await interleaved(60, a, b));
      const sa = summary(
        runs.map((x) => x[0]),
        'ms',
      );
      const sb_ = summary(
        runs.map((x) => x[1]),
        'ms',
      );
      const ratio = summary(
        runs.map((x) => x[0] / x[1]),
        '×',
      );
      Object.assign(figures, { [`${nameA} ms`]: sa, [`${nameB} ms`]: sb_, [`${nameA} / ${nameB}`]: ratio });
      callRows.push({ call: nameA, 'median ms per call (min-max of 9 runs)': cell(sa) });
      callRows.push({ call: nameB, 'median ms per call (min-max of 9 runs)': cell(sb_) });
      callRows.push({ call: `${nameA} / ${nameB}`, 'median ms per call (min-max of 9 runs)': `${cell(ratio)} ×` });
    }

    // Throughput: a token for the nonce requests, as a checkout page would hold one.
    const token = (await gateway.clientToken()).accessToken;
    const nonceUrl = `${sb.url}/v1/merchants/${sb.merchant.id}/credit-card-nonce`;
    const nonceBody = JSON.stringify({ number: CARD.number, expire_month: CARD.expireMonth, expire_year: CARD.expireYear, cvv2: CARD.cvv });
    const kinds = {
      nonce: {
        url: nonceUrl,
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: nonceBody,
      },
      payment: { url: paymentRequest.url, method: 'POST', headers: Object.fromEntries(paymentRequest.headers), body: paymentRequest.body },
    };
    const loadRows = [];
    const p99At = { nonce: {}, payment: {} };
    for (const clients of [1, 8, 64]) {
      const runs = { nonce: [], payment: [] };
      // The two kinds take turns, run by run, so that both meet the machine's load alike.
      for (let r = 0; r < 5; r++) {
        for (const kind of r % 2 ? ['payment', 'nonce'] : ['nonce', 'payment'])
          runs[kind].push(await load(clients, clients === 1 ? 200 : 640, kinds[kind]));
      }
      for (const kind of ['nonce', 'payment']) {
        const rps = summary(
          runs[kind].map((x) => x.rps),
          'requests/s',
        );
        const p50 = summary(
          runs[kind].map((x) => x.p50),
          'ms',
        );
        const p99 = summary(
          runs[kind].map((x) => x.p99),
          'ms',
        );
        p99At[kind][clients] = runs[kind].map((x) => x.p99);
        Object.assign(figures, {
          [`${kind} x${clients} requests/s`]: rps,
          [`${kind} x${clients} p50 ms`]: p50,
          [`${kind} x${clients} p99 ms`]: p99,
        });
        loadRows.push({ request: kind, clients, 'requests/s': cell(rps), 'p50 ms': cell(p50), 'p99 ms': cell(p99) });
      }
    }
    for (const kind of ['nonce', 'payment']) {
      const growth = summary(
        p99At[kind][64].map((v, i) => v / p99At[kind][1][i]),
        '×',
      );
      figures[`${kind} p99 growth 1 -> 64 clients`] = growth;
      loadRows.push({ request: kind, clients: '1 -> 64', 'requests/s': '', 'p50 ms': '', 'p99 ms': `${cell(growth)} ×` });
    }
    return {
      tables: [
        { title: 'One call at a time, 60 of each interleaved per run, 9 runs; goal gateway / fetch ≤ 1.1 ×', rows: callRows },
        {
          title: 'Sandbox throughput (its own process; clients on kept-alive node:https connections), 5 runs each: median (min-max)',
          rows: loadRows,
        },
      ],
      figures,
    };
  } finally {
    sb.stop();
  }
}
