// The test merchant's checkout (e2e/support: checkout.html and checkout.js, under its strict CSP) as
// a person uses it, in any engine: e2e/support/page.ts's helpers, over a Driver.
import { expect } from '@playwright/test';
import { checkoutUrl, type Merchant } from '../../support/merchant';
import { type Field, LABELS, type Recorded } from '../../support/page';
import { type Card, findCard, pageView } from '../../support/recorder';
import type { Driver, Target } from './driver';
import { problems, watchAll } from './watch';

export { type Field, LABELS };

/** A field's input, inside its frame, by its label (the page's own labels name the frames' inputs). */
export const field = (name: Field, label: string = LABELS[name]): Target & { in: string } => ({ in: `#card-${name} iframe`, label });

export const recorded = (driver: Driver): Promise<Recorded> => driver.run(undefined, () => (window as any).recorded);
export const formState = (driver: Driver) => driver.run(undefined, () => (window as any).form.getState());
export const valueOf = (driver: Driver, name: Field) => driver.run(field(name).in, () => document.querySelector('input')!.value);
export const textOf = (driver: Driver, selector: string) =>
  driver.run(undefined, (s: string) => document.querySelector(s)?.textContent ?? null, selector);

/** Opens the checkout and waits for the form's `ready` event; the watch then covers every frame. */
export async function openCheckout(driver: Driver, merchant: Merchant, query: Record<string, string> = {}): Promise<void> {
  await driver.goto(checkoutUrl(merchant, query));
  await expect.poll(async () => (await recorded(driver)).events.some(([name]) => name === 'ready'), { timeout: 15_000 }).toBe(true);
  await watchAll(driver);
}

/** Clicks into a field and types, key by key. */
export async function typeInto(driver: Driver, name: Field, text: string): Promise<void> {
  await driver.click(field(name));
  await driver.type(text);
}

/**
 * What has the keyboard, as a person sees the caret: the accessible name of the focused input in a
 * frame, or of the page's focused element (a button's text); null when nothing has it. The page's
 * `document.activeElement` names the iframe, whose own document must then have the focus on its input:
 * when it does not, both are answered: 'null (the page: Expiry date)'. One frame is read, not all: in
 * WebKit each read of a frame costs several WebDriver calls (see harness/webkit.ts).
 */
export async function focused(driver: Driver): Promise<string | null> {
  const page = await driver.run(undefined, () => {
    const el = document.activeElement as HTMLInputElement | null;
    if (!document.hasFocus() || !el || el === document.body) return null;
    if (el.localName !== 'iframe')
      return { name: (el.labels?.[0]?.textContent ?? el.getAttribute('aria-label') ?? el.textContent ?? '').trim(), frame: null };
    const path: string[] = [];
    for (let node: Element = el; node !== document.documentElement; node = node.parentElement!) {
      path.unshift(`${node.localName}:nth-child(${[...node.parentElement!.children].indexOf(node) + 1})`);
    }
    return { name: el.title.trim(), frame: `html > ${path.join(' > ')}` };
  });
  if (!page?.frame) return page?.name ?? null;
  const inFrame = await driver.run(page.frame, () => {
    const el = document.activeElement as HTMLInputElement | null;
    return document.hasFocus() && el?.localName === 'input' ? (el.labels?.[0]?.textContent ?? '').trim() : null;
  });
  return inFrame === page.name ? inFrame : `${inFrame} (the page: ${page.name})`;
}

/** At a flow's end: no CSP violation and no uncaught error anywhere, and no CSP report from the page. */
export async function expectNoProblems(driver: Driver, merchant?: Merchant): Promise<void> {
  expect(await problems(driver)).toEqual([]);
  if (merchant) expect(merchant.reports).toEqual([]);
}

/**
 * At a flow's end: nothing the merchant's page can read holds the card (its DOM, storage, URL and
 * resources, every message its window received, its errors), and its message listener did hear the frames.
 */
export async function expectNoCardData(driver: Driver, card: Card): Promise<void> {
  const { messages, errors } = await recorded(driver);
  const heard = messages.map((m) => `${m.origin} ${m.data}`);
  expect(findCard({ ...(await driver.run(undefined, pageView)), messages: heard, errors }, card)).toEqual([]);
  expect(heard.join('\n'), 'the page heard no message from the frames').toContain('"ch":');
}
