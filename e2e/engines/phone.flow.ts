// The demo's checkout in a window as narrow as a phone's screen (390 CSS px), as a newcomer opens it
// from `npm start`: nothing scrolls sideways, each card field fits the window with text at 16 px or more
// (under it, Safari on an iPhone zooms the page into a field it focuses), and a card typed into the
// frames pays. In WebKit this is Safari's engine at a phone's width, not an iPhone: docs/browsers.md
// ("On a phone") says what only a real one can tell. e2e/phone.spec.ts plays it with touch in Chromium.
import { testCards } from '../../src/sandbox';
import { launch, type Launched } from '../support/demo';
import { type Field, expectNoCardData, expectNoProblems, field, textOf, typeInto, valueOf } from './harness/checkout';
import type { Driver } from './harness/driver';
import { expect, playedInChromiumBy, test } from './harness/test';
import { watchAll } from './harness/watch';

// e2e/phone.spec.ts plays it in Chromium, at a phone's width with touch and the same checks, each field's
// frame inside the screen included: here, Firefox and WebKit alone (no demo is launched for Chromium).
playedInChromiumBy('e2e/phone.spec.ts ("phone: each field tapped, a numeric keyboard, the brand mark, no sideways scroll; paid")');

let demo: Launched;
test.beforeAll(async () => {
  test.setTimeout(180_000); // the first launch may build the demo's bundles
  demo = await launch();
});
test.afterAll(async () => {
  demo?.child.kill('SIGTERM');
  await demo?.exited;
});

const WIDTH = 390;
const CARD = { number: testCards.approved.number, cvv: '739' };
const FIELDS: Field[] = ['number', 'expiry', 'cvv', 'name'];

/** Runs in the page: every message its window receives from now on is kept where `expectNoCardData` reads it. */
function record(): void {
  const recorded = { messages: [] as { origin: string; data: string }[], errors: [] as string[] };
  (window as unknown as { recorded: typeof recorded }).recorded = recorded;
  addEventListener('message', (e) => recorded.messages.push({ origin: e.origin, data: JSON.stringify(e.data) }), true);
}

/** Runs in the page: how wide the page is and its window's inside (without a scrollbar), and each card field's box. */
function layout() {
  const fields = ['number', 'expiry', 'cvv', 'name'].map((name) => {
    const box = document.querySelector(`#card-${name} iframe`)!.getBoundingClientRect();
    return { name, left: Math.floor(box.left), right: Math.ceil(box.right) };
  });
  return { scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth, fields };
}

async function expectFits(driver: Driver): Promise<void> {
  const { scrollWidth, clientWidth, fields } = await driver.run(undefined, layout);
  expect(clientWidth).toBeLessThanOrEqual(WIDTH);
  expect(scrollWidth, 'the page scrolls sideways').toBeLessThanOrEqual(clientWidth);
  expect(fields.filter((box) => box.left < 0 || box.right > clientWidth)).toEqual([]);
}

test('a window 390 px wide: nothing scrolls sideways, the fields fit with 16 px text, and a card pays', async ({ driver }, testInfo) => {
  await driver.setViewport(WIDTH, 844);
  await driver.goto(`${demo.shop}/checkout?lang=en`);
  await driver.run(undefined, record);
  // The four fields loaded, the page's "Loading the secure card fields…" gone. A frame still loading
  // (its first about:blank, or its page before its script made the input) fails the read, and
  // expect.poll gives up at a read that throws: the failure is polled as a value, so it is tried again.
  const loaded = (name: Field) => valueOf(driver, name).catch((error: Error) => `not loaded: ${error.message}`);
  for (const name of FIELDS) await expect.poll(() => loaded(name), { timeout: 15_000 }).toBe('');
  await expect.poll(() => textOf(driver, '#card-form-note')).toBe('');
  await watchAll(driver); // WebKit: the frames, once ready (the demo's policy names no report-uri)
  await expectFits(driver);
  for (const name of FIELDS) {
    const size = await driver.run(field(name).in, () => parseFloat(getComputedStyle(document.querySelector('input')!).fontSize));
    expect(size, `the ${name} field's text`).toBeGreaterThanOrEqual(16);
  }

  await typeInto(driver, 'number', CARD.number);
  await expect.poll(() => valueOf(driver, 'number')).toBe('4111 1111 1111 1111');
  // The brand's mark, beside the digits inside the number's frame, and the frame still inside the window.
  expect(await driver.run(field('number').in, () => document.querySelector('svg text')?.textContent ?? null)).toBe('VISA');
  await typeInto(driver, 'expiry', '1234');
  await expect.poll(() => valueOf(driver, 'expiry')).toBe('12 / 34');
  await typeInto(driver, 'cvv', CARD.cvv);
  await typeInto(driver, 'name', 'Ada Lovelace');
  await expect.poll(() => valueOf(driver, 'name')).toBe('Ada Lovelace');
  await expectFits(driver);
  await driver.screenshot(testInfo.outputPath(`${driver.engine}-${WIDTH}.png`));

  await driver.click({ role: 'button', name: 'Pay OMR 13.750' });
  await expect
    .poll(() => textOf(driver, '#status'), { timeout: 15_000 })
    .toMatch(/^Payment approved ?OMR\s13\.750 has been charged to your card\. ?Order ORD-\d+ · payment PAY-\w+$/);
  await expectFits(driver);
  await expectNoCardData(driver, CARD);
  await expectNoProblems(driver);
});
