// Part 8: a frame host as cheap as a static file (issue 31 item 2). createFrameHost's requests per second
// beside a plain server answering the same bytes with the same headers (the page, its headers and ETag,
// taken from createFrameHost itself), 200s (a first visit) and 304s (a repeat visit, `If-None-Match`),
// with the request headers a browser sends for a frame. On Node: `http.createServer(toNodeListener(host))`
// beside `http.createServer` writing the bytes, both in this process. In workerd (through miniflare): the
// handler bundled as docs/going-live.md's worker, beside a worker answering the bytes, both in one
// workerd, each on a socket of its own. One load generator for all (bench/load.mjs: 32 kept-alive
// connections, in a worker thread); the contenders take turns (A B B A), and each ratio is of one round's pair.
// PAYFRAME_BENCH_DIST=<an older checkout's dist/> runs the same against that build.
import { createServer } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { startLoad } from '../load.mjs';
import { cell, summary } from '../lib.mjs';

export const title = 'Part 8: createFrameHost beside a plain server answering the same bytes (requests per second)';

const SERVER = new URL(
  'server.mjs',
  process.env.PAYFRAME_BENCH_DIST
    ? pathToFileURL(process.env.PAYFRAME_BENCH_DIST.replace(/\/?$/, '/'))
    : new URL('../../dist/', import.meta.url),
);
const { createFrameHost, toNodeListener } = await import(SERVER);
const RUNS = Number(process.env.PAYFRAME_BENCH_RUNS ?? 9);
const MS = Number(process.env.PAYFRAME_BENCH_MS ?? 1000);
const CONNECTIONS = 32;
const OPTIONS = { gateway: 'https://api.ompay.com', merchantOrigins: ['https://shop.example'] };
const HOST = 'frames.shop.example';
const GOALS = { 200: 0.8, 304: 0.9 };

/** What Chromium sends for a cross-origin frame's page (its order and its sizes, give or take). */
const BROWSER = [
  `Host: ${HOST}`,
  'Connection: keep-alive',
  'sec-ch-ua: "Chromium";v="156", "Not)A;Brand";v="24"',
  'sec-ch-ua-mobile: ?0',
  'sec-ch-ua-platform: "Linux"',
  'Upgrade-Insecure-Requests: 1',
  'User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
  'Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8',
  'Sec-Fetch-Site: cross-site',
  'Sec-Fetch-Mode: navigate',
  'Sec-Fetch-Dest: iframe',
  'Accept-Encoding: gzip, deflate, br, zstd',
  'Accept-Language: en-GB,en;q=0.9',
];
const requestFor = (etag) =>
  Buffer.from(`GET / HTTP/1.1\r\n${[...BROWSER, ...(etag ? [`If-None-Match: ${etag}`] : [])].join('\r\n')}\r\n\r\n`);

/** The page as createFrameHost answers it: its body's bytes and its headers. */
async function pageOf() {
  const page = await createFrameHost(OPTIONS)(new Request(`https://${HOST}/`));
  return { body: Buffer.from(await page.arrayBuffer()), headers: Object.fromEntries(page.headers) };
}

const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));

async function nodeServers({ body, headers }) {
  const frames = createServer(toNodeListener(createFrameHost(OPTIONS)));
  // The floor: a server that knows its one answer (a static file server with the file in memory).
  const whole = { ...headers, 'content-length': String(body.length) };
  const plain = createServer((req, res) => {
    if (req.headers['if-none-match'] === headers.etag) res.writeHead(304, headers).end();
    else res.writeHead(200, whole).end(body);
  });
  const ports = { frames: await listen(frames), plain: await listen(plain) };
  return {
    ports,
    close: () => Promise.all([frames, plain].map((s) => (s.closeAllConnections(), new Promise((r) => s.close(r))))),
  };
}

async function workerdServers({ body, headers }) {
  const bundle = async (contents) =>
    (
      await build({
        stdin: { contents, resolveDir: new URL('.', import.meta.url).pathname, sourcefile: 'worker.mjs' },
        bundle: true,
        format: 'esm',
        platform: 'neutral',
        conditions: ['worker', 'browser'],
        write: false,
      })
    ).outputFiles[0].text;
  // docs/going-live.md's worker, on this build.
  const frames = await bundle(`import { createFrameHost } from ${JSON.stringify(fileURLToPath(SERVER))};
const frames = createFrameHost(${JSON.stringify(OPTIONS)});
export default { fetch: (request) => frames(request) };`);
  const plain = `const body = new TextEncoder().encode(${JSON.stringify(body.toString('utf8'))});
const headers = ${JSON.stringify(headers)};
export default {
  fetch(request) {
    if (request.headers.get('if-none-match') === headers.etag) return new Response(null, { status: 304, headers });
    return new Response(body, { headers });
  },
};`;
  const worker = (name, script) => ({
    name,
    modules: true,
    script,
    compatibilityDate: '2026-01-01',
    unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
  });
  const mf = new Miniflare({ workers: [worker('frames', frames), worker('plain', plain)] });
  await mf.ready;
  const port = async (name) => Number((await mf.unsafeGetDirectURL(name)).port);
  return { ports: { frames: await port('frames'), plain: await port('plain') }, close: () => mf.dispose() };
}

/** Both contenders answer the same status, headers (but the date) and bytes, or the comparison is void. */
async function checkSame(ports, etag) {
  for (const headers of [{}, { 'if-none-match': etag }]) {
    const [a, b] = await Promise.all(
      [ports.frames, ports.plain].map(async (port) => {
        const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { ...headers, host: HOST } });
        const kept = [...res.headers].filter(([name]) => !['date', 'keep-alive', 'connection'].includes(name));
        return JSON.stringify([res.status, kept.sort(), Buffer.from(await res.arrayBuffer()).toString('base64')]);
      }),
    );
    if (a !== b) throw new Error(`part 8: the two servers answer differently:\n${a.slice(0, 600)}\n${b.slice(0, 600)}`);
  }
}

async function measure(load, runtime, servers, etag) {
  const { ports } = servers;
  await checkSame(ports, etag);
  const rows = [];
  const figures = {};
  for (const status of ['200', '304']) {
    const request = requestFor(status === '304' ? etag : undefined);
    const once = async (port, ms) => {
      const result = await load.run({ port, request, ms, connections: CONNECTIONS });
      if (Object.keys(result.statuses).join() !== status)
        throw new Error(`part 8: expected ${status}s, got ${JSON.stringify(result.statuses)}`);
      return result.perSecond;
    };
    // Warm both up (JIT, connections' first buffers) before the rounds that count.
    await once(ports.frames, MS / 2);
    await once(ports.plain, MS / 2);
    // Each round is A B B A (or B A A B, every other round), half a period each: the machine's load,
    // which drifts over seconds here, weighs on both alike; the ratio is of the round's two sums.
    const values = { createFrameHost: [], plain: [] };
    const ratio = [];
    for (let round = 0; round < RUNS; round++) {
      const order = round % 2 ? ['plain', 'createFrameHost'] : ['createFrameHost', 'plain'];
      const got = { createFrameHost: 0, plain: 0 };
      for (const who of [...order, ...order.toReversed()])
        got[who] += (await once(ports[who === 'plain' ? 'plain' : 'frames'], MS / 2)) / 2;
      for (const who of order) values[who].push(got[who]);
      ratio.push(got.createFrameHost / got.plain);
    }
    const r = summary(ratio, '×');
    const goal = GOALS[status];
    figures[`${runtime} ${status}`] = {
      createFrameHost: summary(values.createFrameHost, 'requests/s'),
      plain: summary(values.plain, 'requests/s'),
      ratio: r,
      goal,
    };
    rows.push({
      runtime,
      answer: status,
      'createFrameHost /s': cell(summary(values.createFrameHost)),
      'plain /s': cell(summary(values.plain)),
      ratio: `${cell(r)} ×`,
      goal: `>= ${goal} ×`,
      '': r.median >= goal ? 'met' : 'missed',
    });
  }
  return { rows, figures };
}

export async function run() {
  const page = await pageOf();
  const load = startLoad();
  const rows = [];
  const figures = {};
  try {
    const runtimes = [
      ['Node', nodeServers],
      ['workerd', workerdServers],
    ];
    // PAYFRAME_BENCH_RUNTIME=workerd (or Node): one of them only, to try the part out.
    for (const [runtime, start] of runtimes.filter(([name]) => (process.env.PAYFRAME_BENCH_RUNTIME ?? name) === name)) {
      const servers = await start(page);
      try {
        const part = await measure(load, runtime, servers, page.headers.etag);
        rows.push(...part.rows);
        Object.assign(figures, part.figures);
      } finally {
        await servers.close();
      }
    }
  } finally {
    await load.close();
  }
  return {
    tables: [
      {
        title: `requests per second, ${CONNECTIONS} kept-alive connections, ${RUNS} rounds of ${MS} ms per contender (A B B A), median (min-max)`,
        rows,
      },
    ],
    figures,
    notes: [`the page: ${page.body.length} bytes, its ETag ${page.headers.etag}`],
  };
}
