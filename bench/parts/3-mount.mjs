// Part 3: from `mountFields()` to `ready` for number, expiry and CVV, in Chromium against the sandbox
// (bench/browser.mjs), beside three blank iframes of an empty page from the same server, in the same
// page, sized alike (from their creation to their three `load` events). Each run is a fresh page (no
// cache): one blank iframe opens the connection to the frames' server first, so that neither pays
// the TLS handshake; then each contender twice, taking turns: the first mount downloads the frame
// script, the second finds it cached (it is served `immutable`), as on a returning shopper's visit.
// Goal: mount / blank ≤ 1.5 ×. Then where the time goes: each frame's own navigation timings, on the
// page's clock.
import { cell, summary } from '../lib.mjs';
import { launch, milestones, openCheckout, startShop } from '../browser.mjs';

export const title = 'Part 3: mount to ready (Chromium, sandbox)';

const RUNS = 15;
const VISITS = ['first mount (frame script downloaded)', 'second mount (frame script cached)'];

export async function run() {
  const shop = await startShop();
  const browser = await launch(shop);
  const times = { mount: VISITS.map(() => []), blank: VISITS.map(() => []) };
  const marks = { mount: VISITS.map(() => []), blank: VISITS.map(() => []) };
  try {
    for (let r = 0; r < RUNS; r++) {
      const { context, page } = await openCheckout(browser, shop);
      try {
        await page.evaluate(async (src) => {
          await window.bench.blank(src);
          window.bench.unblank();
        }, shop.blankUrl);
        for (let visit = 0; visit < VISITS.length; visit++) {
          for (const who of (r + visit) % 2 ? ['blank', 'mount'] : ['mount', 'blank']) {
            const { start, ms } = await page.evaluate(
              async ([who, src]) => {
                const start = performance.timeOrigin + performance.now();
                return { start, ms: await (who === 'mount' ? window.bench.mount() : window.bench.blank(src)) };
              },
              [who, shop.blankUrl],
            );
            times[who][visit].push(ms);
            marks[who][visit].push(await milestones(page, who === 'mount' ? '/frame/?' : '/frame/blank.html', start));
            await page.evaluate((who) => (who === 'mount' ? window.bench.unmount() : window.bench.unblank()), who);
          }
        }
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await shop.close();
  }

  const figures = {};
  const rows = [];
  const timeline = [];
  VISITS.forEach((what, visit) => {
    const mount = summary(times.mount[visit], 'ms');
    const blank = summary(times.blank[visit], 'ms');
    const ratio = summary(
      times.mount[visit].map((m, i) => m / times.blank[visit][i]),
      '×',
    );
    Object.assign(figures, { [`${what}: mountFields ms`]: mount, [`${what}: 3 blank iframes ms`]: blank, [`${what}: ratio`]: ratio });
    rows.push({
      when: what,
      'mountFields → ready, ms': cell(mount),
      '3 blank iframes → load, ms': cell(blank),
      'mount / blank (goal ≤ 1.5)': `${cell(ratio)} × (${ratio.median <= 1.5 ? 'met' : 'missed'})`,
    });
    for (const who of ['mount', 'blank']) {
      const at = (key) => {
        const values = marks[who][visit].map((m) => m[key]).filter((v) => v !== undefined);
        return values.length ? summary(values, 'ms').median.toFixed(0) : '';
      };
      const row = {
        when: what,
        frames: who === 'mount' ? 'card frames' : 'blank',
        'navigation starts': at('navigation'),
        'HTML received': at('html'),
        'script received': at('script'),
        'scripts run': at('ran'),
        'ready / load': summary(times[who][visit]).median.toFixed(0),
      };
      timeline.push(row);
      figures[`${what}: ${row.frames} milestones ms`] = row;
    }
  });
  return {
    tables: [
      { title: `Number, expiry and CVV; ${RUNS} fresh pages, median (min-max); ratios within a page`, rows },
      { title: 'Where the time goes: ms after the call, median over the three frames, then over the pages', rows: timeline },
    ],
    figures,
  };
}
