// Part 10: Pay to outcome at a payer's latency (issue 41, item 1). The demo's script-tag checkout and its
// own shop server (bench/pay-shop.mjs), every hop behind a proxy that adds 0, 50, 100 or 150 ms to each
// request: page ↔ shop, page and frames ↔ the service, shop ↔ the service. In Chromium, as a payer: the
// card typed by label into its frames, Pay pressed, until the outcome is on the page. Three cards: an
// approved one; one whose bank asks for a one-time password (the press of Pay to the OTP form, plus the
// OTP's submission to the outcome: the payer's typing is not counted); a saved card's security code
// (saved by a first payment in the same browser, then found by email and chosen). Timed on the page's
// clock from the form's `submit` to the outcome's text. Round trips counted from the requests each hop's
// proxy passed during the Pay (the last run's at each delay; those of 100 ms printed in order), the
// sequential ones told from those side by side by when they arrived. The floor: the fewest sequential
// round trips the design needs (FLOOR below) times the delay.
import { launch } from '../browser.mjs';
import { startPayShop } from '../pay-shop.mjs';
import { cell, summary } from '../lib.mjs';

export const title = "Part 10: Pay to outcome at a payer's latency (Chromium, the demo's checkout, every hop delayed)";

const DELAYS = [0, 50, 100, 150];
// PAYFRAME_BENCH_RUNS: fewer runs, to try the part out (as parts 2 and 6).
const RUNS = Number(process.env.PAYFRAME_BENCH_RUNS ?? 3);
/** Issue 41's goal: Pay to outcome at most this many times its floor, at GOAL_MS per hop. */
const GOAL = 1.1;
const GOAL_MS = 100;
/**
 * The fewest sequential round trips each Pay needs, as argued in bench/README.md: a new card, the nonce
 * (frame ↔ service) then the shop's /pay (page ↔ shop) holding its payment call (shop ↔ service), the
 * outcome in its answer; the OTP adds its submission (page ↔ shop) holding the authenticate call. A saved
 * card: the ticket (page ↔ shop: the CVV frame sends no cookie), the CVV route's CORS preflight (frame ↔
 * shop: only a route that allows the frames' origin gets the CVV), the CVV post (frame ↔ shop) holding the
 * payment call (shop ↔ service).
 */
const FLOOR = { approved: 3, otp: 5, saved: 4 };
const CARD = { approved: '4111 1111 1111 1111', otp: '4644 2605 8166 1836' };
/** An email per saved card: the demo gives a saved card five tickets in ten minutes. */
let saved = 0;
const nextEmail = () => `bench-${Date.now()}-${++saved}@example.com`;
/** An outcome not shown by then is a failure of the run, not a wait without end. */
const OUTCOME_WITHIN_MS = 60_000;

const field = (page, box, label) => page.frameLocator(`${box} iframe`).getByLabel(label);

/** Each submit on the page (the pay form's, the OTP form's), on the page's clock, and when the outcome shows. */
const watch = (page) =>
  page.evaluate((within) => {
    window.submits = [];
    document.addEventListener('submit', () => window.submits.push(performance.now()), true);
    window.seen = (test) =>
      new Promise((resolve, reject) => {
        const check = () => test() && (observer.disconnect(), resolve(performance.now()));
        const observer = new MutationObserver(check);
        observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
        check();
        setTimeout(() => reject(new Error(`no outcome within ${within} ms: ${document.getElementById('status').textContent}`)), within);
      });
  }, OUTCOME_WITHIN_MS);
const approvedShown = (page) =>
  page.evaluate(() => window.seen(() => document.getElementById('status').textContent.startsWith('Payment approved')));
const otpShown = (page) =>
  page.evaluate(() => window.seen(() => document.querySelector('#otp input') !== null && !document.getElementById('otp').hidden));

async function typeNewCard(page, number, { email } = {}) {
  if (email) await page.getByRole('textbox', { name: 'Email' }).fill(email);
  const typed = {
    number: ['Card number', number],
    expiry: ['Expiry date', '1234'],
    cvv: ['Security code', '123'],
    name: ['Name on card', 'Ada Lovelace'],
  };
  for (const [name, [label, text]] of Object.entries(typed)) {
    await field(page, `#card-${name}`, label).click();
    await page.keyboard.type(text);
  }
  if (email) await page.getByLabel('Save this card for next time').check();
}

const payButton = (page) => page.getByRole('button', { name: /^Pay OMR/ });

/** One Pay of `kind` on a fresh browser context; answers the milliseconds from Pay to the outcome shown. */
async function payOnce(browser, shop, kind) {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(shop.url);
    if (kind === 'saved') {
      const email = nextEmail();
      await typeNewCard(page, CARD.approved, { email });
      await payButton(page).click();
      await page.getByRole('status').filter({ hasText: 'Payment approved' }).waitFor();
      await page.goto(shop.url);
      await page.getByRole('textbox', { name: 'Email' }).fill(email);
      await page.getByRole('button', { name: 'Find my saved cards' }).click();
      await page.getByRole('radio', { name: /Visa ending in 1111/ }).check();
      await field(page, '#saved-card-cvv', /Security code/).click();
      await page.keyboard.type('123');
    } else {
      await typeNewCard(page, CARD[kind]);
    }
    await watch(page);
    await shop.take();
    await payButton(page).click();
    if (kind === 'otp') {
      const asked = await otpShown(page);
      await page.getByLabel('One-time password').fill('111111');
      await page.keyboard.press('Enter');
      const shown = await approvedShown(page);
      const submits = await page.evaluate(() => window.submits);
      const [pressed, submitted] = [submits[0], submits.at(-1)];
      return { ms: asked - pressed + (shown - submitted), requests: await shop.take() };
    }
    const shown = await approvedShown(page);
    const [pressed] = await page.evaluate(() => window.submits);
    return { ms: shown - pressed, requests: await shop.take() };
  } finally {
    await context.close();
  }
}

export async function run() {
  const shop = await startPayShop();
  const browser = await launch(); // the demo's shop is plain HTTP on loopback
  const times = {};
  const chains = {};
  try {
    // One Pay of each kind first, not counted: the shop's database, the browser and Node warm up.
    for (const kind of Object.keys(FLOOR)) await payOnce(browser, shop, kind);
    for (let r = 0; r < RUNS; r++) {
      for (const ms of DELAYS) {
        await shop.setDelay(ms);
        for (const kind of Object.keys(FLOOR)) {
          const { ms: took, requests } = await payOnce(browser, shop, kind);
          (times[`${kind} ${ms}`] ??= []).push(took);
          chains[`${kind} ${ms}`] = requests;
        }
      }
    }
  } finally {
    await browser.close();
    await shop.close();
  }
  return report(times, chains);
}

/**
 * Sequential round trips in one Pay's requests at `ms` per hop: the first request, and each that reached
 * its proxy at least half a delay after the one before (a request sent after an answer comes a whole delay
 * later, its own or its caller's; requests side by side come together).
 */
const sequential = (requests, ms) => requests.filter((q, i) => i === 0 || q.at - requests[i - 1].at >= ms / 2).length;

function report(times, chains) {
  const rows = [];
  const figures = {};
  for (const kind of Object.keys(FLOOR)) {
    for (const ms of DELAYS) {
      const measured = summary(times[`${kind} ${ms}`], 'ms');
      const floor = FLOOR[kind] * ms;
      const ratio = ms ? measured.median / floor : undefined;
      const trips = ms ? sequential(chains[`${kind} ${ms}`], ms) : undefined;
      const judged = ms === GOAL_MS ? ` (goal ≤ ${GOAL}: ${ratio <= GOAL ? 'met' : 'missed'})` : '';
      figures[`${kind}, ${ms} ms: Pay to outcome ms`] = measured;
      if (ms) Object.assign(figures, { [`${kind}, ${ms} ms: ratio to floor`]: ratio, [`${kind}, ${ms} ms: round trips`]: trips });
      rows.push({
        card: kind,
        'added per hop': `${ms} ms`,
        'Pay → outcome, ms': cell(measured),
        'round trips counted': trips ?? '',
        'floor trips': FLOOR[kind],
        'trips / floor': trips === undefined ? '' : `${(trips / FLOOR[kind]).toFixed(2)} ×`,
        'floor, ms': floor,
        'measured / floor': ratio === undefined ? '' : `${ratio.toFixed(2)} ×${judged}`,
      });
    }
  }
  const requestRows = Object.keys(FLOOR).flatMap((kind) =>
    chains[`${kind} ${GOAL_MS}`].map((q, i, all) => ({
      card: kind,
      '#': i + 1,
      'ms after the first': q.at - all[0].at,
      hop: q.hop,
      request: `${q.method} ${q.path.replace(/[0-9a-f-]{32,}|PAY-\w+|bench-[\w%.-]+/g, '…')}`,
    })),
  );
  return {
    tables: [
      {
        title: `Pay to outcome, ${RUNS} runs each, median (min-max); floor = its round trips × the delay; the goal at ${GOAL_MS} ms`,
        rows,
      },
      { title: `The requests of one Pay at ${GOAL_MS} ms, in the order they reached each hop's proxy`, rows: requestRows },
    ],
    figures,
  };
}
