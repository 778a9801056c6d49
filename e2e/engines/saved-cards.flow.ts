// The payer's own saved cards in the demo (/account, as e2e/demo-saved-cards.spec.ts in Chromium), in
// Firefox and WebKit: a demo sign-in, two cards added without paying through the hosted form's frames,
// one made the default, one removed; the page's live region says each, and the page never holds a card
// number or CVV.
import { testCards } from '../../src/sandbox';
import { launch, type Launched } from '../support/demo';
import { expectNoCardData, expectNoProblems, focused, textOf, typeInto } from './harness/checkout';
import type { Driver } from './harness/driver';
import { expect, playedInChromiumBy, test } from './harness/test';
import { watchAll } from './harness/watch';

// Chromium plays it in e2e/demo-saved-cards.spec.ts, which asserts more: here, the other engines alone
// (no demo is launched for a file whose every test is skipped).
playedInChromiumBy('e2e/demo-saved-cards.spec.ts');

let demo: Launched;
test.beforeAll(async () => {
  test.setTimeout(180_000); // the first launch may build the demo's bundles
  demo = await launch();
});
test.afterAll(async () => {
  demo?.child.kill('SIGTERM');
  await demo?.exited;
});

const VISA = { number: testCards.approved.number, cvv: '739' };
const MASTERCARD = { number: '5555555555554444', cvv: '582' };

const cardList = (driver: Driver) =>
  driver.run(undefined, () => [...document.querySelectorAll('#card-list li')].map((li) => li.textContent!.replace(/\s+/g, ' ').trim()));

/**
 * Runs in the page: the demo page has no recorder of its own, so every message its window receives from
 * now on is kept where the harness's `expectNoCardData` reads it. Started before the form is mounted
 * (it is mounted at sign-in), so it hears every message of the frames.
 */
function record(): void {
  const recorded = { messages: [] as { origin: string; data: string }[], errors: [] as string[] };
  (window as unknown as { recorded: typeof recorded }).recorded = recorded;
  addEventListener('message', (e) => recorded.messages.push({ origin: e.origin, data: JSON.stringify(e.data) }), true);
}

/**
 * The card fields are ready: the page's "Loading the secure card fields…" is gone. The page draws its
 * list anew when they are, so a click before could meet a button about to be replaced (Chromium's
 * click then fails on the detached element; a person's lands on the new one).
 */
const fieldsReady = (driver: Driver) => expect.poll(() => textOf(driver, '#card-form-note'), { timeout: 15_000 }).toBe('');

/** Types a card key by key into the ready fields and saves it with Enter. */
async function addCard(driver: Driver, card: { number: string; cvv: string }): Promise<void> {
  await fieldsReady(driver);
  await watchAll(driver); // WebKit: the new form's frames
  await typeInto(driver, 'number', card.number);
  await typeInto(driver, 'expiry', '1234');
  await typeInto(driver, 'cvv', card.cvv);
  await typeInto(driver, 'name', 'Ada Lovelace');
  await expect.poll(() => driver.run(undefined, () => (document.querySelector('#save-button') as HTMLButtonElement).disabled)).toBe(false);
  await driver.press('Enter');
  await expect.poll(() => textOf(driver, '#status'), { timeout: 15_000 }).toBe('The card was saved. Nothing was charged.');
}

test('a signed-in shopper adds two cards without paying, makes one the default, removes one', async ({ driver }) => {
  await driver.goto(`${demo.shop}/account?lang=en`);
  await driver.run(undefined, record);
  await watchAll(driver); // WebKit: the page from now on (the demo's policy names no report-uri)
  await driver.click({ role: 'button', name: 'Sign in as Ada Lovelace' });
  await expect.poll(() => textOf(driver, '#status')).toBe('Signed in as Ada Lovelace.');
  expect(await textOf(driver, '#no-cards')).toBe('No saved cards yet.');

  await addCard(driver, VISA);
  await expect.poll(() => cardList(driver)).toEqual([expect.stringMatching(/^Visa ending in 1111 ?Default ?Expires 12\/34/)]);
  await addCard(driver, MASTERCARD);
  await expect
    .poll(() => cardList(driver))
    .toEqual([expect.stringMatching(/^Visa ending in 1111 ?Default/), expect.stringMatching(/^Mastercard ending in 4444 ?Expires/)]);
  await fieldsReady(driver); // the form for a next card, mounted once the list came

  await driver.click({ role: 'button', name: 'Make Mastercard ending in 4444 the default' });
  await expect.poll(() => textOf(driver, '#status')).toBe('Mastercard ending in 4444 is now your default card.');
  expect(await cardList(driver)).toEqual([
    expect.stringMatching(/^Mastercard ending in 4444 ?Default/),
    expect.stringMatching(/^Visa ending in 1111 ?Expires/),
  ]);

  await driver.click({ role: 'button', name: 'Remove Visa ending in 1111' });
  await expect.poll(() => textOf(driver, '#status')).toBe('Visa ending in 1111 was removed.');
  expect(await cardList(driver)).toEqual([expect.stringMatching(/^Mastercard ending in 4444 ?Default/)]);
  // The keyboard stays in the list: on the card now in the removed one's place.
  await expect.poll(() => focused(driver)).toBe('Remove Mastercard ending in 4444');

  for (const card of [VISA, MASTERCARD]) await expectNoCardData(driver, card);
  await expectNoProblems(driver);
});
