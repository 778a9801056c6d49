// The payer's own saved cards (/account) in the demo: a demo sign-in whose account email the shop owns,
// cards added without paying (a zero verification), made the default, removed, through payframe's
// `handlers.savedCards()`; the checkout lists the default first; another shopper reaches none of them.
import { cpSync, mkdirSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { testCards } from '../src/sandbox';
import { asStaff, expectAccessible, nonceFor, pay, screenshot, useDemo, watchCsp } from './support/demo';
import { expectNoCardData, recordMerchant } from './support/recorder';

test.use({ ignoreHTTPSErrors: false });
test.describe.configure({ timeout: 120_000 });
const demo = useDemo(['--test-mode']);

const ADA = 'ada@accounts.muscat-coffee.example';
const VISA = { number: testCards.approved.number, cvv: '739' };
const MASTERCARD = { number: '5555555555554444', cvv: '582' };

const signIn = async (request: APIRequestContext, account: string) => {
  const response = await request.post(`${demo.shop}/api/account/session`, { data: { account } });
  expect(response.status(), await response.text()).toBe(200);
};
const cardsOf = async (request: APIRequestContext) => {
  const response = await request.get(`${demo.shop}/api/account/cards`);
  expect(response.status()).toBe(200);
  return (await response.json()).cards as { id: string; brand: string; last4: string; isDefault: boolean }[];
};

/**
 * Types a card into the account page's frames with the keyboard and saves it, as a person does. The
 * page's buttons are pressed with the keyboard: a click right after Playwright scrolls can be routed by
 * headless Chromium to a card frame that was under that point before the scroll (stale hit-test data of
 * out-of-process frames), which no person's click meets.
 */
async function addCard(page: Page, card: { number: string; cvv: string }): Promise<void> {
  const typed = {
    number: [card.number, 'Card number'],
    expiry: ['1234', 'Expiry date'],
    cvv: [card.cvv, 'Security code'],
    name: ['Ada Lovelace', 'Name on card'],
  };
  for (const [field, [text, label]] of Object.entries(typed)) {
    const input = page.frameLocator(`#card-${field} iframe`).getByLabel(label!);
    await expect(input).toBeEditable({ timeout: 15_000 });
    await input.click();
    await page.keyboard.type(text!);
  }
  await page.getByRole('button', { name: 'Save the card' }).press('Enter');
  await expect(page.getByRole('status')).toHaveText('The card was saved. Nothing was charged.', { timeout: 15_000 });
}

test('a signed-in shopper adds cards without paying, makes one the default, removes one', async ({ page, playwright }, testInfo) => {
  await page.setViewportSize({ width: 1000, height: 900 });
  const csp = await watchCsp(page);
  const recorder = await recordMerchant(page);
  await page.goto(`${demo.shop}/account?lang=en`);
  await expect(page.getByText('no password asked. A real shop verifies the email')).toBeVisible();
  await page.getByRole('button', { name: 'Sign in as Ada Lovelace' }).click();
  await expect(page.getByRole('status')).toHaveText('Signed in as Ada Lovelace.');
  await expect(page.getByText(ADA, { exact: true })).toBeVisible();
  await expect(page.getByText('No saved cards yet.')).toBeVisible();

  await addCard(page, VISA);
  const list = page.getByRole('list').filter({ hasText: 'ending in' });
  await expect(list.getByRole('listitem')).toHaveText([/^Visa ending in 1111\s*Default\s*Expires 12\/34/]);
  await addCard(page, MASTERCARD);
  await expect(list.getByRole('listitem')).toHaveText([/^Visa ending in 1111\s*Default/, /^Mastercard ending in 4444\s*Expires/]);
  await expectAccessible(page);

  // Nothing was charged: no payment in the shop's books, none captured or reserved at the service.
  const staff = await playwright.request.newContext();
  await asStaff(staff, demo);
  expect((await (await staff.get(`${demo.shop}/api/payments`)).json()).payments).toEqual([]);
  const payer = await (await staff.get(`${demo.shop}/api/payers?email=${encodeURIComponent(ADA)}`)).json();
  expect(payer.cards.map((c: { last4: string }) => c.last4).sort()).toEqual(['1111', '4444']);
  const notices = (await (await staff.get(`${demo.shop}/api/notifications`)).json()).notifications as { state: string }[];
  expect(notices.filter((n) => n.state === 'captured' || n.state === 'authorised')).toEqual([]);

  // Make the Mastercard the default: it comes first, here and on the checkout.
  await page.getByRole('button', { name: 'Make Mastercard ending in 4444 the default' }).press('Enter');
  await expect(page.getByRole('status')).toHaveText('Mastercard ending in 4444 is now your default card.');
  await expect(list.getByRole('listitem')).toHaveText([/^Mastercard ending in 4444\s*Default/, /^Visa ending in 1111\s*Expires/]);
  await screenshot(page, testInfo, 'account-en');

  const checkout = await page.context().newPage();
  for (const path of ['/checkout', '/spa/']) {
    await checkout.goto(`${demo.shop}${path}?lang=en`);
    await expect(checkout.getByText('Signed in as Ada Lovelace: you pay under your account’s email.'), path).toBeVisible();
    await expect(checkout.getByRole('textbox', { name: 'Email' }), path).toHaveValue(ADA);
    const choices = checkout.getByRole('group', { name: 'Pay with' }).getByRole('radio');
    await expect(choices, path).toHaveCount(3);
    await expect(choices.first(), path).toHaveAccessibleName(/^Mastercard ending in 4444/);
    await expect(choices.first(), path).toHaveAccessibleName(/Expires 12\/34 · Default$/);
    await expect(choices.nth(1), path).not.toHaveAccessibleName(/Default/);
  }
  await checkout.close();

  // Remove the Visa: gone, the focus on the card now in its place, and it pays no more.
  const visa = (await cardsOf(page.request)).find((c) => c.last4 === '1111')!;
  await page.getByRole('button', { name: 'Remove Visa ending in 1111' }).press('Enter');
  await expect(page.getByRole('status')).toHaveText('Visa ending in 1111 was removed.');
  await expect(list.getByRole('listitem')).toHaveText([/^Mastercard ending in 4444\s*Default/]);
  await expect(page.getByRole('button', { name: 'Remove Mastercard ending in 4444' })).toBeFocused();
  const ticket = await page.request.post(`${demo.shop}/api/saved-card/ticket`, { data: { intent: 'sale', savedCardId: visa.id } });
  expect(ticket.status()).toBe(404);
  expect((await staff.get(`${demo.shop}/api/payers/${payer.payer.id}/cards/${visa.id}`)).status()).toBe(404);

  // Arabic, right to left: the buttons named with the card.
  await page.getByRole('button', { name: 'العربية' }).click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('button', { name: 'إزالة Mastercard المنتهية بـ 4444' })).toBeVisible();
  await screenshot(page, testInfo, 'account-ar');
  await expectAccessible(page);

  for (const card of [VISA, MASTERCARD]) await expectNoCardData(recorder, card);
  expect(await csp()).toEqual([]);
  mkdirSync('/tmp/saved-view-shots', { recursive: true });
  for (const name of ['account-en', 'account-ar']) cpSync(testInfo.outputPath(`${name}.png`), `/tmp/saved-view-shots/${name}.png`);
  await staff.dispose();
});

test('a signed-in shopper pays with a saved card in a browser that never paid here, and reads its outcome', async ({ playwright }) => {
  const first = await playwright.request.newContext();
  await signIn(first, 'ada');
  const added = await first.post(`${demo.shop}/api/account/cards/new`, { data: { card: { nonce: await nonceFor(demo) } } });
  expect(await added.json()).toEqual({ saved: true });
  await first.dispose();

  // Another browser: signed in, no checkout cookie (it never paid here).
  const fresh = await playwright.request.newContext();
  await signIn(fresh, 'ada');
  const [card] = await cardsOf(fresh);
  const issued = await fresh.post(`${demo.shop}/api/saved-card/ticket`, { data: { intent: 'sale', savedCardId: card!.id } });
  expect(issued.status(), await issued.text()).toBe(200);
  const { ticket, orderId } = await issued.json();
  // As the CVV frame posts it: from the frames' origin, without the page's cookies.
  const paid = await fetch(`${demo.shop}/api/saved-card/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(demo.sandbox).origin },
    body: JSON.stringify({ ticket, savedCardId: card!.id, cvv: '739' }),
  });
  const answer = await paid.json();
  expect(answer).toMatchObject({ status: 'approved', state: 'captured', referenceId: expect.stringMatching(/^PAY-/) });
  // The page asks its shop for the rest, as after any payment: the payment, and the order should its answer be lost.
  const shown = await fresh.get(`${demo.shop}/api/payment/${answer.referenceId}`);
  expect(shown.status(), await shown.text()).toBe(200);
  expect(await shown.json()).toMatchObject({ status: 'approved', referenceId: answer.referenceId, orderId });
  const order = await fresh.get(`${demo.shop}/api/order/${orderId}`);
  expect(await order.json()).toMatchObject({ status: 'approved', referenceId: answer.referenceId, orderId });
  await fresh.dispose();
});

test('another shopper, or nobody, reaches none of a shopper’s cards; account emails pay signed in only', async ({ playwright }) => {
  const ada = await playwright.request.newContext();
  const grace = await playwright.request.newContext();
  const nobody = await playwright.request.newContext();
  await signIn(ada, 'ada');
  const added = await ada.post(`${demo.shop}/api/account/cards/new`, { data: { card: { nonce: await nonceFor(demo) } } });
  expect(await added.json()).toEqual({ saved: true });
  const [card] = await cardsOf(ada);

  await signIn(grace, 'grace');
  expect(await cardsOf(grace)).toEqual([]);
  for (const action of ['remove', 'default']) {
    const response = await grace.post(`${demo.shop}/api/account/cards`, { data: { action, cardId: card!.id } });
    expect(response.status(), action).toBe(404);
    expect((await response.json()).error.code).toBe('not_found');
  }
  const ticket = await grace.post(`${demo.shop}/api/saved-card/ticket`, { data: { intent: 'sale', savedCardId: card!.id } });
  expect(ticket.status()).toBe(404);
  expect(await cardsOf(ada)).toContainEqual(expect.objectContaining({ id: card!.id }));

  // Nobody signed in: 401, nothing read or kept.
  expect((await nobody.get(`${demo.shop}/api/account/cards`)).status()).toBe(401);
  expect((await nobody.post(`${demo.shop}/api/account/cards/new`, { data: { card: { nonce: 'x' } } })).status()).toBe(401);
  // An account's email is the shop's: typed anonymously, or by another shopper, it is refused.
  for (const [request, message] of [
    [nobody, /sign in to use it/],
    [grace, /Signed in as grace@/],
  ] as const) {
    const response = await request.post(`${demo.shop}/api/pay`, {
      data: { intent: 'sale', email: ADA, saveCard: true, card: { nonce: await nonceFor(demo) } },
    });
    expect(response.status()).toBe(400);
    expect((await response.json()).error.message).toMatch(message);
  }

  // Signed in, the payment is made under the account's email; a declined verification keeps nothing.
  const paid = await pay(ada, demo, { intent: 'sale' });
  await asStaff(nobody, demo);
  const { record } = await (await nobody.get(`${demo.shop}/api/payments/${paid.referenceId}`)).json();
  expect(record.payer.payer_info.email).toBe(ADA);
  const declined = await ada.post(`${demo.shop}/api/account/cards/new`, {
    data: { card: { nonce: await nonceFor(demo, testCards.declined) } },
  });
  expect(await declined.json()).toMatchObject({ saved: false, code: '1005' });
  expect((await cardsOf(ada)).map((c) => c.last4)).not.toContain('0002');

  // Signed out: the cookie is cleared and the session ends.
  const out = await ada.delete(`${demo.shop}/api/account/session`);
  expect(out.headers()['set-cookie']).toMatch(/^account=; .*Max-Age=0/);
  expect((await ada.get(`${demo.shop}/api/account/cards`)).status()).toBe(401);
  for (const context of [ada, grace, nobody]) await context.dispose();
});
