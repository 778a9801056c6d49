// Part 6: what a payer on a mobile network waits for the card form (issue 21). The frames' server (the
// sandbox) behind a proxy that adds 0, 50 or 150 ms to each request (bench/latency.mjs), in Chromium:
// `mountFields()` to `ready`, beside three blank iframes of distinct URLs from the same server (the
// physical floor: three pages fetched side by side) and one blank iframe. First visit: a fresh context
// (no cache, no connection; one blank iframe first opens nothing, so TLS is paid by each contender
// alike); cached: the same page again (the frame script is `immutable`). Intervals are measured on the
// page's clock alone. PAYFRAME_BENCH_DIST=<an older build's dist> runs the same against that build.
import { launch, openCheckout, startShop } from '../browser.mjs';
import { startFrameVariants } from '../inline.mjs';
import { startLatency } from '../latency.mjs';
import { cell, summary } from '../lib.mjs';

export const title = "Part 6: mount to ready at a payer's latency (Chromium, frames' server behind a delay)";

const LATENCIES = [0, 50, 150];
const RUNS = 7;

export async function run() {
  const shop = await startShop();
  const browser = await launch(shop);
  const rows = [];
  const inlined = [];
  const figures = {};
  let bytes;
  try {
    for (const ms of LATENCIES) {
      const proxy = await startLatency(Number(new URL(shop.sandbox.url).port), ms);
      const gateway = `https://127.0.0.1:${proxy.port}`;
      const url = shop.url.replace(/gateway=[^&]+/, `gateway=${encodeURIComponent(gateway)}`);
      const blankUrl = shop.blankUrl.replace(shop.sandbox.url, gateway);
      // The frame host's page and script, and the same page with the script inlined (issue 21 item 2),
      // behind a delay of their own: a third origin, as a merchant's frame host is.
      const variants = await startFrameVariants(shop, `${gateway}/`);
      const variantsProxy = await startLatency(variants.port, ms);
      const framesAt = (path) => `${url}&frames=${encodeURIComponent(`https://127.0.0.1:${variantsProxy.port}/${path}/`)}`;
      const pages = { mount: url, blank: url, one: url, host: framesAt('file'), inline: framesAt('inline') };
      bytes = variants.bytes;
      const times = Object.fromEntries(['first', 'cached'].map((visit) => [visit, Object.fromEntries(Object.keys(pages).map((who) => [who, []]))]));
      try {
        for (let r = 0; r < RUNS; r++) {
          // Each contender on a fresh context for its first visit, then again on the same page (cached).
          for (const [who, pageUrl] of Object.entries(pages)) {
            const { context, page: tab } = await openCheckout(browser, { ...shop, url: pageUrl });
            const mounts = who !== 'blank' && who !== 'one';
            try {
              for (const visit of ['first', 'cached']) {
                const took = await tab.evaluate(([mounts, src, count]) => (mounts ? window.bench.mount() : window.bench.blank(src, count)), [mounts, blankUrl, who === 'one' ? 1 : 3]);
                times[visit][who].push(took);
                await tab.evaluate((mounts) => (mounts ? window.bench.unmount() : window.bench.unblank()), mounts);
              }
            } finally {
              await context.close();
            }
          }
        }
      } finally {
        await Promise.all([proxy.close(), variantsProxy.close()]);
        await variants.close();
      }
      for (const visit of ['first', 'cached']) {
        const t = times[visit];
        const mount = summary(t.mount, 'ms');
        const blank = summary(t.blank, 'ms');
        const one = summary(t.one, 'ms');
        const ratio = summary(t.mount.map((m, i) => m / t.blank[i]), '×');
        const host = summary(t.host, 'ms');
        const inline = summary(t.inline, 'ms');
        const inlineRatio = summary(t.inline.map((m, i) => m / t.host[i]), '×');
        const trips = ms === 0 ? undefined : summary(t.mount.map((m) => m / ms), 'trips');
        Object.assign(figures, {
          [`${ms} ms, ${visit}: mountFields ms`]: mount,
          [`${ms} ms, ${visit}: 3 blank iframes ms`]: blank,
          [`${ms} ms, ${visit}: 1 blank iframe ms`]: one,
          [`${ms} ms, ${visit}: mount / 3 blank`]: ratio,
          [`${ms} ms, ${visit}: frame host, script file ms`]: host,
          [`${ms} ms, ${visit}: frame host, script inlined ms`]: inline,
          [`${ms} ms, ${visit}: inlined / script file`]: inlineRatio,
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
        inlined.push({
          'added per request': `${ms} ms`,
          visit,
          'frame host: page + script file, ms': cell(host),
          'frame host: script inlined in the page, ms': cell(inline),
          'inlined / file': `${cell(inlineRatio)} ×`,
        });
      }
    }
  } finally {
    await browser.close();
    await shop.close();
  }
  Object.assign(figures, { 'frame page gzip B': bytes.page, 'frame script gzip B': bytes.script, 'inlined page gzip B': bytes.inline });
  return {
    tables: [
      { title: `Number, expiry and CVV; ${RUNS} runs each, median (min-max); ratios of the same run's figures`, rows },
      {
        title: `The frame page with its script inlined (issue 21 item 2), beside page + script file, both from a frame host of the merchant's (createFrameHost) behind the same delay; gzip: page ${bytes.page} B + script ${bytes.script} B (once, then cached), inlined page ${bytes.inline} B (each frame, each visit)`,
        rows: inlined,
      },
    ],
    figures,
  };
}
