// Where part 2's form.tokenize() spends its time: marks on one clock (performance.timeOrigin +
// performance.now(), which every document of the browser shares) in the page and the number frame,
// taken by listeners and wrappers added from outside, so that the build measured is the one shipped.
// `node bench/profile-tokenize.mjs [calls]`; PAYFRAME_BENCH_DIST profiles another build (browser.mjs).
import { summary } from './lib.mjs';
import { launch, startShop, typeCard } from './browser.mjs';

const CALLS = Number(process.argv[2] ?? 40);

/**
 * Run at the start of every document (before payframe's own listeners, so that its marks come first):
 * in the number frame, the page's tokenize's arrival, fetch called, its headers, the body's last read
 * (the capped read of a copy), the text read; in the page, the result's arrival.
 */
function instrument() {
  const now = () => performance.timeOrigin + performance.now();
  const marks = (window.marks = []);
  const mark = (what) => marks.push([what, now()]);
  if (window === top) {
    addEventListener('message', (e) => e.data?.t === 'result' && mark('page: result in'));
    window.timed = async () => {
      marks.length = 0;
      mark('page: tokenize()');
      await window.bench.tokenize();
      mark('page: resolved');
    };
    return;
  }
  if (!location.search.includes('field=number')) return;
  addEventListener('message', (e) => e.data?.t === 'tokenize' && mark('frame: tokenize in'));
  const fetch0 = window.fetch;
  window.fetch = function (...args) {
    mark('frame: fetch called');
    return fetch0.apply(this, args).then((r) => (mark('frame: headers'), r));
  };
  const read0 = ReadableStreamDefaultReader.prototype.read;
  ReadableStreamDefaultReader.prototype.read = function () {
    return read0.call(this).then((part) => (part.done && mark('frame: body read'), part));
  };
  const text0 = Response.prototype.text;
  Response.prototype.text = function () {
    return text0.call(this).then((t) => (mark('frame: text'), t));
  };
}

const shop = await startShop();
const browser = await launch(shop);
const rows = {};
const add = (k, v) => (rows[k] ??= []).push(v);
try {
  const context = await browser.newContext();
  await context.addInitScript(instrument);
  const page = await context.newPage();
  await page.goto(shop.url);
  await page.waitForFunction(() => typeof window.bench === 'object');
  await page.evaluate(() => window.bench.mount());
  await typeCard(page);
  const frame = await (await page.locator('#card-number iframe').elementHandle()).contentFrame();
  for (let i = 0; i < 3; i++) await page.evaluate(() => window.timed()); // warm
  for (let i = 0; i < CALLS; i++) {
    await frame.evaluate(() => (window.marks.length = 0));
    await page.evaluate(() => window.timed());
    const all = [...(await page.evaluate(() => window.marks)), ...(await frame.evaluate(() => window.marks))].sort((a, b) => a[1] - b[1]);
    const t0 = all[0][1];
    let prev = t0;
    for (const [what, t] of all) {
      add(what, t - prev);
      prev = t;
    }
    add('total', all.at(-1)[1] - t0);
  }
  await context.close();
} finally {
  await browser.close();
  await shop.close();
}
for (const [what, list] of Object.entries(rows)) {
  const s = summary(list);
  console.log(
    `${what.padEnd(24)} ${s.median.toFixed(2).padStart(6)} ms since the mark before (min ${s.min.toFixed(2)}, max ${s.max.toFixed(2)}, n ${s.runs})`,
  );
}
