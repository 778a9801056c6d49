// Part 6: what a payer on a mobile network waits for the card form (issue 21). The frames' server (the
// sandbox) behind a proxy that adds 0, 50 or 150 ms to each request (bench/latency.mjs), in Chromium:
// `mountFields()` to `ready`, beside three blank iframes of distinct URLs from the same server (the
// physical floor: three pages fetched side by side) and one blank iframe. First visit: a fresh context
// (no cache, no connection; one blank iframe first opens nothing, so TLS is paid by each contender
// alike); cached: the same page again (the frame script is `immutable`). Intervals are measured on the
// page's clock alone. PAYFRAME_BENCH_DIST=<an older build's dist> runs the same against that build.
import { launch, openCheckout, startShop } from '../browser.mjs';
import { startLatency } from '../latency.mjs';
import { cell, summary } from '../lib.mjs';

export const title = "Part 6: mount to ready at a payer's latency (Chromium, frames' server behind a delay)";

const LATENCIES = [0, 50, 150];
const RUNS = 7;

export async function run() {
  const shop = await startShop();
  const browser = await launch(shop);
  const rows = [];
  const figures = {};
  try {
    for (const ms of LATENCIES) {
      const proxy = await startLatency(Number(new URL(shop.sandbox.url).port), ms);
      const gateway = `https://127.0.0.1:${proxy.port}`;
      const page = { url: shop.url.replace(/gateway=[^&]+/, `gateway=${encodeURIComponent(gateway)}`) };
      const blankUrl = shop.blankUrl.replace(shop.sandbox.url, gateway);
      const times = { first: { mount: [], blank: [], one: [] }, cached: { mount: [], blank: [], one: [] } };
      try {
        for (let r = 0; r < RUNS; r++) {
          // Each contender on a fresh context for its first visit, then again on the same page (cached).
          for (const who of ['mount', 'blank', 'one']) {
            const { context, page: tab } = await openCheckout(browser, { ...shop, ...page });
            try {
              for (const visit of ['first', 'cached']) {
                const took = await tab.evaluate(([who, src]) => (who === 'mount' ? window.bench.mount() : window.bench.blank(src, who === 'one' ? 1 : 3)), [who, blankUrl]);
                times[visit][who].push(took);
                await tab.evaluate((who) => (who === 'mount' ? window.bench.unmount() : window.bench.unblank()), who);
              }
            } finally {
              await context.close();
            }
          }
        }
      } finally {
        await proxy.close();
      }
      for (const visit of ['first', 'cached']) {
        const t = times[visit];
        const mount = summary(t.mount, 'ms');
        const blank = summary(t.blank, 'ms');
        const one = summary(t.one, 'ms');
        const ratio = summary(t.mount.map((m, i) => m / t.blank[i]), '×');
        const trips = ms === 0 ? undefined : summary(t.mount.map((m) => m / ms), 'trips');
        Object.assign(figures, {
          [`${ms} ms, ${visit}: mountFields ms`]: mount,
          [`${ms} ms, ${visit}: 3 blank iframes ms`]: blank,
          [`${ms} ms, ${visit}: 1 blank iframe ms`]: one,
          [`${ms} ms, ${visit}: mount / 3 blank`]: ratio,
        });
        rows.push({
          'added per request': `${ms} ms`,
          visit,
          'mountFields → ready, ms': cell(mount),
          '3 blank iframes (distinct URLs), ms': cell(blank),
          '1 blank iframe, ms': cell(one),
          'mount / 3 blank': `${cell(ratio)} ×`,
          'mount in round trips': trips ? cell(trips) : '',
        });
      }
    }
  } finally {
    await browser.close();
    await shop.close();
  }
  return {
    tables: [{ title: `Number, expiry and CVV; ${RUNS} runs each, median (min-max); ratios of the same run's figures`, rows }],
    figures,
  };
}
