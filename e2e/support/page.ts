// What the browser tests do on the checkout page, as a person would: find a field by its label
// inside its frame, type with the keyboard, read what the page shows.
import { expect, type FrameLocator, type Page } from '@playwright/test';
import { checkoutUrl, type Merchant } from './merchant';

export const LABELS = { number: 'Card number', expiry: 'Expiry date', cvv: 'Security code', name: 'Name on card' } as const;
export type Field = keyof typeof LABELS;

export const frameOf = (page: Page, field: Field): FrameLocator => page.frameLocator(`#card-${field} iframe`);
export const input = (page: Page, field: Field, label: string = LABELS[field]) => frameOf(page, field).getByLabel(label);

export interface Recorded {
  messages: { origin: string; data: string }[];
  violations: string[];
  events: [string, string | null, string | null][];
  errors: string[];
}
export const recorded = (page: Page): Promise<Recorded> => page.evaluate(() => (window as any).recorded);

/** Opens the checkout and waits for the form's `ready` event. */
export async function openCheckout(page: Page, merchant: Merchant, query: Record<string, string> = {}): Promise<void> {
  await page.goto(checkoutUrl(merchant, query));
  if (query.auto === '0') return;
  await expect.poll(async () => (await recorded(page)).events.some(([name]) => name === 'ready'), { timeout: 15_000 }).toBe(true);
}

/** Clicks into a field and types, key by key. */
export async function typeInto(page: Page, field: Field, text: string): Promise<void> {
  await input(page, field).click();
  await page.keyboard.type(text);
}

export async function fillCard(page: Page, card: { number: string; expiry: string; cvv: string; name?: string }): Promise<void> {
  await typeInto(page, 'number', card.number);
  await typeInto(page, 'expiry', card.expiry);
  await typeInto(page, 'cvv', card.cvv);
  if (card.name !== undefined) await typeInto(page, 'name', card.name);
}
