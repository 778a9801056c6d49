// Issue 41's experiment: would the siblings' values travel faster frame to frame by postMessage than on
// the frames' BroadcastChannel? Round trips expiry frame → number frame → expiry frame on each channel,
// between the real frames of one mount (typed in, as at a click on Pay), taking turns, each trip from
// its own call (the renderers idle between, as between keys) and back to back. Echoes added from
// outside the build; the build is not changed. `node bench/frame-channels.mjs [trips]`.
import { summary } from './lib.mjs';
import { launch, openCheckout, startShop, typeCard } from './browser.mjs';

const TRIPS = Number(process.argv[2] ?? 41);

/** In the number frame: echo both channels' pings (the BroadcastChannel's name is the bench's own). */
function echo() {
  new BroadcastChannel('bench-channel').onmessage = (e) => e.data === 'ping' && e.target.postMessage('pong');
  addEventListener('message', (e) => e.data === 'bench:ping' && e.source.postMessage('bench:pong', location.origin));
}

/** In the expiry frame: `n` round trips on `way` ('broadcast' or 'post'), ms each. */
async function trips([way, n]) {
  const bc = (window.benchChannel ??= new BroadcastChannel('bench-channel'));
  const number = parent.frames[0];
  const times = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await new Promise((resolve) => {
      if (way === 'broadcast') {
        bc.onmessage = (e) => e.data === 'pong' && resolve();
        bc.postMessage('ping');
      } else {
        const on = (e) => e.data === 'bench:pong' && (removeEventListener('message', on), resolve());
        addEventListener('message', on);
        number.postMessage('bench:ping', location.origin);
      }
    });
    times.push(performance.now() - start);
  }
  return times;
}

const shop = await startShop();
const browser = await launch(shop);
const results = { broadcast: { idle: [], hot: [] }, post: { idle: [], hot: [] } };
try {
  for (let p = 0; p < 3; p++) {
    const { context, page } = await openCheckout(browser, shop);
    await page.evaluate(() => window.bench.mount());
    await typeCard(page);
    const frameOf = async (name) => (await page.locator(`#card-${name} iframe`).elementHandle()).contentFrame();
    const [number, expiry] = [await frameOf('number'), await frameOf('expiry')];
    await number.evaluate(echo);
    for (let i = 0; i < TRIPS; i++) {
      for (const way of i % 2 ? ['post', 'broadcast'] : ['broadcast', 'post'])
        results[way].idle.push(...(await expiry.evaluate(trips, [way, 1])));
    }
    for (const way of ['broadcast', 'post', 'post', 'broadcast']) results[way].hot.push(...(await expiry.evaluate(trips, [way, TRIPS])));
    await context.close();
  }
} finally {
  await browser.close();
  await shop.close();
}
for (const [way, { idle, hot }] of Object.entries(results)) {
  const [i, h] = [summary(idle), summary(hot)];
  console.log(
    `${way === 'post' ? 'postMessage, frame to frame' : 'BroadcastChannel          '}  round trip, one per call ${i.median.toFixed(2)} ms (${i.min.toFixed(2)}-${i.max.toFixed(2)}), back to back ${h.median.toFixed(2)} ms (${h.min.toFixed(2)}-${h.max.toFixed(2)})`,
  );
}
