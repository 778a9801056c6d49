// Part 2: round trips of `form.tokenize()` through the hosted form, in Chromium against the sandbox
// (bench/browser.mjs: the checkout on https://localhost, the gateway and frames on https://127.0.0.1),
// then again with the frames on a third origin (createFrameHost on https://127.0.0.2), as in production.
// 1. Requests per call, counted where they arrive (the sandbox's request log, the merchant's server):
//    nonce requests, CORS preflights (OPTIONS), client-token fetches; the first call and later ones.
//    Goal: exactly one request per call after the first.
// 2. Time from `tokenize()` to the nonce on the page, beside a bare `fetch` of the same request (same
//    URL, headers, body and token) made from the number frame itself, taking turns. Goal ≤ 1.2 ×.
// 3. Where the difference goes: the one message leg tokenize() runs (page ↔ number frame by postMessage),
//    measured alone, back to back and one at a time (as a click on Pay meets it: both renderers idle); and the leg it no longer runs: each change in the expiry frame goes to the number
//    frame on the frames' BroadcastChannel, and its state to the page, which names its version in its
//    next tokenize. Timed on a real key: how long the value takes to reach the number frame, and how much
//    before the page's quickest message could (the state, then a message from the page at once).
import { cell, quantile, summary } from '../lib.mjs';
import { launch, openCheckout, startShop, typeCard } from '../browser.mjs';

export const title = 'Part 2: round trips of form.tokenize() (Chromium, sandbox)';

// PAYFRAME_BENCH_RUNS: fewer runs, to try the part out (as part 6).
const RUNS = Number(process.env.PAYFRAME_BENCH_RUNS ?? 5);
const LATER_CALLS = 5;
const PAIRS = 20;
/** The same race over a network: the sandbox holds each nonce request this long (a round trip's worth). */
const NETWORK_MS = 50;
const NETWORK_PAIRS = 6;

/**
 * What reached the servers since `mark`: from the browser, nonce POSTs and CORS preflights to the
 * gateway and client-token requests to the merchant; from the merchant's server, its client_token
 * call to the gateway; and anything else.
 */
function since(shop, mark) {
  const log = shop.sandbox.requests().slice(mark.gateway);
  const nonce = log.filter((r) => r.method === 'POST' && r.path.endsWith('/credit-card-nonce')).length;
  const preflight = log.filter((r) => r.method === 'OPTIONS').length;
  const minted = log.filter((r) => r.method === 'POST' && r.path.endsWith('/client_token')).length;
  const token = shop.counts.token - mark.token;
  return { nonce, preflight, token, minted, other: log.length - nonce - preflight - minted, total: log.length + token };
}
const markOf = (shop) => ({ gateway: shop.sandbox.requests().length, token: shop.counts.token });

/** A bare fetch of the nonce request, run inside the number frame: the floor under tokenize(). */
const bareFetch = (frame, request) =>
  frame.evaluate(async ({ url, token, body }) => {
    const start = performance.now();
    const response = await fetch(url, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
      // As the frame sends it: no `cache: 'no-store'`, which would make Chromium skip its preflight cache.
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
    });
    const json = await response.json();
    if (!json.data?.credit_card_nonce) throw new Error(`no nonce: ${response.status}`);
    return performance.now() - start;
  }, request);

/**
 * The median of `n` round trips page → number frame → page by postMessage (an echo added in the frame):
 * back to back in one script (`hot`), and each from its own page.evaluate, as the race calls tokenize()
 * (`idle`): then both renderers have gone idle, as they have when a person clicks Pay.
 */
async function postMessageTrip(page, frame, n = 21) {
  await frame.evaluate(() => addEventListener('message', (e) => e.data === 'bench:ping' && parent.postMessage('bench:pong', '*')));
  const trips = (count) =>
    page.evaluate(async (count) => {
      const target = document.querySelector('#card-number iframe').contentWindow;
      const times = [];
      for (let i = 0; i < count; i++) {
        const start = performance.now();
        await new Promise((resolve) => {
          const on = (e) => e.data === 'bench:pong' && (removeEventListener('message', on), resolve());
          addEventListener('message', on);
          target.postMessage('bench:ping', '*');
        });
        times.push(performance.now() - start);
      }
      return times;
    }, count);
  const idle = [];
  for (let i = 0; i < n; i++) idle.push(...(await trips(1)));
  return { hot: quantile(await trips(n), 0.5), idle: quantile(idle, 0.5) };
}

/**
 * The expiry's value leg, on `n` real keys in the expiry frame (Backspace, then its digit back: each a
 * change of the value): from the change (an `input` listener in the expiry frame, after payframe's own)
 * to the value's arrival in the number frame (a second listener on the frames' channel, after the
 * frame's own), and to the page's quickest message after the change's state: the page posts to the
 * number frame as soon as the state arrives. Medians of each; clocks compared as performance.timeOrigin
 * + performance.now(), which every document of the browser shares.
 */
async function valueLeg(page, frame, n = 20) {
  const expiry = page.frameLocator('#card-expiry iframe').getByLabel('Expiry date');
  await expiry.evaluate((input) => {
    window.changed = [];
    input.addEventListener('input', () => window.changed.push(performance.timeOrigin + performance.now()));
  });
  await frame.evaluate(() => {
    const ch = new URLSearchParams(location.hash.slice(1)).get('channel');
    const [valued, pinged] = [(window.valued = []), (window.pinged = [])];
    new BroadcastChannel(`payframe:${ch}`).onmessage = (e) =>
      e.data.t === 'value' && e.data.field === 'expiry' && valued.push(performance.timeOrigin + performance.now());
    addEventListener('message', (e) => e.data === 'bench:ping' && pinged.push(performance.timeOrigin + performance.now()));
  });
  await page.evaluate(() => {
    const [number, expiry] = ['#card-number iframe', '#card-expiry iframe'].map((s) => document.querySelector(s).contentWindow);
    addEventListener('message', (e) => e.source === expiry && e.data?.event === 'input' && number.postMessage('bench:ping', '*'), true);
  });
  await expiry.click(); // past the text's end: the caret after the last digit
  for (let i = 0; i < n; i++) {
    await page.keyboard.press(i % 2 ? '4' : 'Backspace');
    await frame.waitForFunction((k) => window.valued.length >= k && window.pinged.length >= k, i + 1);
  }
  const changed = await expiry.evaluate(() => window.changed);
  const { valued, pinged } = await frame.evaluate(() => ({ valued: window.valued, pinged: window.pinged }));
  return {
    value: quantile(
      changed.map((t, i) => valued[i] - t),
      0.5,
    ),
    page: quantile(
      changed.map((t, i) => pinged[i] - t),
      0.5,
    ),
    lead: quantile(
      valued.map((t, i) => pinged[i] - t),
      0.5,
    ),
  };
}

const TOPOLOGIES = {
  'two origins (the sandbox serves the frames)': {},
  "three origins (the merchant's frame host, the gateway apart)": { frameHost: true },
};

/** Each part of the report, for the checkout as the tests run it and in the production topology (issue 16). */
export async function run() {
  const tables = [];
  const figures = {};
  for (const [name, options] of Object.entries(TOPOLOGIES)) {
    const one = await measure(options);
    tables.push(...one.tables.map((t) => ({ ...t, title: `${name}. ${t.title}` })));
    for (const [key, value] of Object.entries(one.figures)) figures[`${name}: ${key}`] = value;
  }
  return { tables, figures };
}

async function measure(options) {
  const shop = await startShop(options);
  const browser = await launch(shop);
  const counts = { first: [], later: [] };
  const perRun = {
    tokenize: [],
    fetch: [],
    ratio: [],
    extra: [],
    postMessage: [],
    idleTrip: [],
    value: [],
    page: [],
    lead: [],
    network: [],
  };
  try {
    const request = {
      url: `${shop.sandbox.url}/v1/merchants/${shop.sandbox.merchant.id}/credit-card-nonce`,
      token: (await shop.gateway.clientToken()).accessToken,
      body: JSON.stringify({ number: '4111111111111111', expire_month: 12, expire_year: 2034, cvv2: '123' }),
    };
    for (let r = 0; r < RUNS; r++) {
      const { context, page } = await openCheckout(browser, shop);
      try {
        await page.evaluate(() => window.bench.mount());
        await typeCard(page);
        const frame = await (await page.locator('#card-number iframe').elementHandle()).contentFrame();

        let mark = markOf(shop);
        await page.evaluate(() => window.bench.tokenize());
        counts.first.push(since(shop, mark));
        for (let i = 0; i < LATER_CALLS; i++) {
          mark = markOf(shop);
          await page.evaluate(() => window.bench.tokenize());
          counts.later.push(since(shop, mark));
        }

        // Taking turns, the order swapping each pair, so that a burst of load hits both alike.
        const race = async (pairs) => {
          const times = { tokenize: [], fetch: [] };
          for (let i = 0; i < pairs; i++) {
            const order = i % 2 ? ['fetch', 'tokenize'] : ['tokenize', 'fetch'];
            for (const who of order) {
              times[who].push(who === 'fetch' ? await bareFetch(frame, request) : (await page.evaluate(() => window.bench.tokenize())).ms);
            }
          }
          return [quantile(times.tokenize, 0.5), quantile(times.fetch, 0.5)];
        };
        const [t, f] = await race(PAIRS);
        perRun.tokenize.push(t);
        perRun.fetch.push(f);
        perRun.ratio.push(t / f);
        perRun.extra.push(t - f);
        const trip = await postMessageTrip(page, frame);
        perRun.postMessage.push(trip.hot);
        perRun.idleTrip.push(trip.idle);
        shop.sandbox.injectFault({ kind: 'delay', ms: NETWORK_MS, method: 'POST', path: /\/credit-card-nonce$/, times: 2 * NETWORK_PAIRS });
        const [tn, fn] = await race(NETWORK_PAIRS);
        perRun.network.push(tn / fn);
        // Last: its keys leave the expiry as it was, but its listeners stay in the page.
        const leg = await valueLeg(page, frame);
        for (const key of ['value', 'page', 'lead']) perRun[key].push(leg[key]);
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await shop.close();
  }

  const countRow = (call, list) => {
    const s = (key) => summary(list.map((c) => c[key]));
    const show = (key) => (s(key).min === s(key).max ? String(s(key).median) : cell(s(key)));
    return {
      call,
      requests: show('total'),
      'browser: nonce POST': show('nonce'),
      'browser: CORS preflight': show('preflight'),
      'browser: client token from the merchant': show('token'),
      "merchant's server: client_token": show('minted'),
      other: show('other'),
    };
  };
  const laterTotals = counts.later.map((c) => c.total);
  const exactlyOne = laterTotals.every((n) => n === 1);
  const tokenize = summary(perRun.tokenize, 'ms');
  const fetch = summary(perRun.fetch, 'ms');
  const ratio = summary(perRun.ratio, '×');
  const extra = summary(perRun.extra, 'ms');
  const postMessage = summary(perRun.postMessage, 'ms');
  const idleTrip = summary(perRun.idleTrip, 'ms');
  const [value, toPage, lead] = ['value', 'page', 'lead'].map((key) => summary(perRun[key], 'ms'));
  const network = summary(perRun.network, '×');
  return {
    tables: [
      {
        title: `Requests per form.tokenize() (${RUNS} fresh pages; first call, then ${LATER_CALLS} later calls each); goal: exactly 1 after the first: ${exactlyOne ? 'met' : 'missed'}`,
        rows: [countRow('first call', counts.first), countRow('later calls', counts.later)],
      },
      {
        title: `Time to the nonce, ${PAIRS} of each taking turns per page, median per page; ${RUNS} pages: median (min-max)`,
        rows: [
          { what: 'form.tokenize() on the page, ms', value: cell(tokenize) },
          { what: 'bare fetch of the same request in the number frame, ms', value: cell(fetch) },
          { what: `tokenize / fetch (goal ≤ 1.2): ${ratio.median <= 1.2 ? 'met' : 'missed'}`, value: `${cell(ratio)} ×` },
          { what: 'tokenize - fetch, ms', value: cell(extra) },
          {
            what: `tokenize / fetch with ${NETWORK_MS} ms of network (the sandbox holds each nonce request; ${NETWORK_PAIRS} pairs per page)`,
            value: `${cell(network)} ×`,
          },
        ],
      },
      {
        title:
          "Where tokenize - fetch goes: the design's message leg, measured alone (median of 21 per page); the values' leg, off tokenize()'s path (median of 20 keys per page)",
        rows: [
          { what: 'page → number frame → page (postMessage), back to back, ms', value: cell(postMessage) },
          { what: 'the same, one per call from the test (the renderers idle between, as for a click on Pay), ms', value: cell(idleTrip) },
          { what: 'a key in the expiry frame → its value in the number frame (BroadcastChannel), ms', value: cell(value) },
          { what: "the same key → its state on the page → the page's next message in the number frame, ms", value: cell(toPage) },
          { what: 'how long the value was there before that message, ms', value: cell(lead) },
        ],
      },
    ],
    figures: {
      'requests, first call': summary(counts.first.map((c) => c.total)),
      'requests, later calls': summary(laterTotals),
      'preflights, all calls': summary([...counts.first, ...counts.later].map((c) => c.preflight)),
      'form.tokenize() ms': tokenize,
      'bare fetch ms': fetch,
      'tokenize / fetch': ratio,
      'tokenize - fetch ms': extra,
      [`tokenize / fetch, ${NETWORK_MS} ms network`]: network,
      'postMessage round trip ms': postMessage,
      'postMessage round trip after idle ms': idleTrip,
      'value leg ms': value,
      'state and page leg ms': toPage,
      'value lead ms': lead,
    },
  };
}
