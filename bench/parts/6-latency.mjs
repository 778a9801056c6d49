// Part 6: the card form as a payer meets it (issues 21 and 41). The frames from a frame host of the
// merchant's (createFrameHost, bench/frame-host.mjs) on its own origin, behind a proxy that adds a delay
// to each request (bench/latency.mjs), the shop on another origin, in Chromium: `mountFields()` to
// `ready`, beside its floor, three blank iframes of distinct URLs from the same host (an empty page
// with the frame page's headers: its connections, delay and revalidations). The contenders take
// turns, the order turning each round. Each visit of each contender:
// - first: a fresh context (no cache, no connection), the checkout opened, the contender run;
// - cached: the checkout opened again in the same tab (the HTTP cache and the connections kept), run;
// - same page again: destroyed and run again without leaving the page, the way this part measured
//   "cached" before issue 41 (the frames' renderer and its compiled script may still be there).
// The blank iframes from the sandbox (another server behind its own proxy), the floor this part used
// before issue 41, run beside them for the same reason. PAYFRAME_BENCH_DIST=<an older build's dist>
// runs the same against that build; PAYFRAME_BENCH_LATENCIES=0,50,100,150 adds delays.
import { launch, milestones, openCheckout, startShop } from '../browser.mjs';
import { startFrameHost } from '../frame-host.mjs';
import { startLatency } from '../latency.mjs';
import { cell, summary } from '../lib.mjs';

export const title = "Part 6: mount to ready at a payer's latency (Chromium, createFrameHost behind a delay)";

const LATENCIES = (process.env.PAYFRAME_BENCH_LATENCIES ?? '100').split(',').map(Number);
/** Issue 31's goals for the frame host's mount at 100 ms per request, against three blank iframes of the same host. */
const GOAL = { ms: 100, first: 1.3, cached: 1.15 };
// 15 rounds: on a loaded machine a round's ratio spans 0.7-2 ×, and 7 of them left the median 0.2 × apart from run to run.
// PAYFRAME_BENCH_RUNS: fewer, to try the part out.
const RUNS = Number(process.env.PAYFRAME_BENCH_RUNS ?? 15);
const VISITS = ['first', 'cached', 'same page again'];
const CONTENDERS = ['mount', 'blank', 'sandbox blank'];

/** One contender's three visits on a fresh context: ms to ready (or load) for each. */
async function visits(browser, shop, who, { url, shopUrl, hostUrl, blank, sandboxBlank }) {
  // The page's frame-src names the frames' origin: the frame host's, or for the sandbox's blank iframes the sandbox's.
  if (who === 'sandbox blank') url = shopUrl;
  const { context, page } = await openCheckout(browser, { ...shop, url });
  const mounts = who === 'mount';
  const src = who === 'blank' ? blank : sandboxBlank;
  // The time to ready, and the frames' milestones on the page's clock.
  const once = async () => {
    const { start, ms } = await page.evaluate(
      async ([mounts, src]) => {
        const start = performance.timeOrigin + performance.now();
        return { start, ms: await (mounts ? window.bench.mount() : window.bench.blank(src)) };
      },
      [mounts, src],
    );
    const marks = { ...(await milestones(page, mounts ? `${hostUrl}?` : '/blank.html', start)), ready: ms };
    return { ms, marks };
  };
  const undo = () => page.evaluate((mounts) => (mounts ? window.bench.unmount() : window.bench.unblank()), mounts);
  try {
    const first = await once();
    await undo();
    await page.goto(url);
    await page.waitForFunction(() => typeof window.bench === 'object');
    const cached = await once();
    await undo();
    const again = await once();
    return [first, cached, again];
  } finally {
    await context.close();
  }
}

async function atLatency(browser, shop, ms) {
  const proxy = await startLatency(Number(new URL(shop.sandbox.url).port), { delay: ms });
  const gateway = `https://127.0.0.1:${proxy.port}`;
  const frameHost = await startFrameHost(shop, `${gateway}/`);
  const hostProxy = await startLatency(frameHost.port, { delay: ms });
  const hostUrl = `https://127.0.0.1:${hostProxy.port}/`;
  const shopUrl = shop.url.replace(/gateway=[^&]+/, `gateway=${encodeURIComponent(gateway)}`);
  const pages = {
    shopUrl,
    hostUrl,
    url: `${shopUrl}&frames=${encodeURIComponent(hostUrl)}`,
    blank: `${hostUrl}blank.html?x=1`,
    sandboxBlank: shop.blankUrl.replace(shop.sandbox.url, gateway),
  };
  const times = Object.fromEntries(CONTENDERS.map((who) => [who, VISITS.map(() => [])]));
  const marks = Object.fromEntries(CONTENDERS.map((who) => [who, VISITS.map(() => [])]));
  const answered = [];
  try {
    for (let r = 0; r < RUNS; r++) {
      for (let k = 0; k < CONTENDERS.length; k++) {
        const who = CONTENDERS[(r + k) % CONTENDERS.length];
        frameHost.take();
        const took = await visits(browser, shop, who, pages);
        took.forEach((t, v) => (times[who][v].push(t.ms), marks[who][v].push(t.marks)));
        if (who === 'mount') answered.push(frameHost.take());
      }
    }
  } finally {
    await Promise.all([proxy.close(), hostProxy.close()]);
    await frameHost.close();
  }
  return { times, marks, answered: answered.at(-1) };
}

/** What the frame host answered for one contender's visits (the last run's: every run answers alike). */
function answers(list) {
  const counted = new Map();
  for (const a of list) counted.set(a.status, (counted.get(a.status) ?? 0) + 1);
  const statuses = [...counted].map(([status, n]) => `${n} × ${status}`).join(', ');
  return `${statuses}; ${list.reduce((sum, a) => sum + a.bytes, 0)} body bytes`;
}

/** The frames' milestones (browser.mjs), mount beside the floors, for the first and cached visits. */
function whereTimeGoes(ms, marks, figures) {
  const rows = [];
  for (const visit of ['first', 'cached']) {
    const v = VISITS.indexOf(visit);
    for (const who of CONTENDERS) {
      const at = (key) => {
        const values = marks[who][v].map((m) => m[key]).filter((x) => x !== undefined);
        return values.length ? summary(values, 'ms').median.toFixed(0) : '';
      };
      const row = {
        'added per request': `${ms} ms`,
        visit,
        frames: { mount: 'card frames', blank: '3 blank, same host', 'sandbox blank': '3 blank, sandbox' }[who],
        'navigation starts': at('navigation'),
        'request sent': at('request'),
        'HTML received': at('html'),
        'scripts run': at('ran'),
        'ready / load': at('ready'),
      };
      rows.push(row);
      figures[`${ms} ms, ${visit}: ${row.frames} milestones ms`] = row;
    }
  }
  return rows;
}

export async function run() {
  const shop = await startShop();
  const browser = await launch(shop);
  const rows = [];
  const timeline = [];
  const figures = {};
  const notes = [];
  try {
    for (const ms of LATENCIES) {
      const { times, marks, answered } = await atLatency(browser, shop, ms);
      timeline.push(...whereTimeGoes(ms, marks, figures));
      VISITS.forEach((visit, v) => {
        const t = Object.fromEntries(CONTENDERS.map((who) => [who, times[who][v]]));
        const mount = summary(t.mount, 'ms');
        const blank = summary(t.blank, 'ms');
        const ratio = summary(
          t.mount.map((m, i) => m / t.blank[i]),
          '×',
        );
        const old = summary(
          t.mount.map((m, i) => m / t['sandbox blank'][i]),
          '×',
        );
        const goal = ms === GOAL.ms && GOAL[visit] ? ` (goal ≤ ${GOAL[visit]}: ${ratio.median <= GOAL[visit] ? 'met' : 'missed'})` : '';
        Object.assign(figures, {
          [`${ms} ms, ${visit}: mountFields ms`]: mount,
          [`${ms} ms, ${visit}: 3 blank iframes ms`]: blank,
          [`${ms} ms, ${visit}: mount / 3 blank`]: ratio,
          [`${ms} ms, ${visit}: 3 blank iframes from the sandbox ms`]: summary(t['sandbox blank'], 'ms'),
          [`${ms} ms, ${visit}: mount / 3 blank from the sandbox`]: old,
        });
        rows.push({
          'added per request': `${ms} ms`,
          visit,
          'mountFields → ready, ms': cell(mount),
          '3 blank iframes, same host, ms': cell(blank),
          'mount / 3 blank': `${cell(ratio)} ×${goal}`,
          '3 blank from the sandbox, ms': cell(summary(t['sandbox blank'], 'ms')),
          'mount / those': `${cell(old)} ×`,
        });
      });
      figures[`${ms} ms: frame host answers, three visits`] = answers(answered);
      notes.push(`At ${ms} ms the frame host answered a mount's three visits: ${answers(answered)}.`);
    }
  } finally {
    await browser.close();
    await shop.close();
  }
  return {
    tables: [
      { title: `Number, expiry and CVV; ${RUNS} runs each, median (min-max); ratios of the same round's figures`, rows },
      { title: 'Where the time goes: ms after the call, median over the three frames, then over the runs', rows: timeline },
    ],
    figures,
    notes,
  };
}
