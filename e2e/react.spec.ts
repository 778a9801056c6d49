// payframe/react against the traps of a React binding (issue 18), each proven in Chromium on the test
// merchant's checkout (e2e/react/app.tsx): rendered by react-dom/server in this process with every
// browser global watched, hydrated under <StrictMode> (development build), the frames on the sandbox's
// origin. Run once per React version: the react-19 and react-18 projects (playwright.config.ts) set `react`.
import { expect, type Page, test as base } from '@playwright/test';
import { testCards } from '../src/sandbox';
import { readSavedCard, toPending } from '../src/server';
import { type Merchant, startMerchant } from './support/merchant';
import { bundle, type ReactVersion, serverRender } from './support/react';

const CARD = { number: '4111111111111111', expiry: '1234', cvv: '123', name: 'Ada Lovelace' };
const LABELS = { number: 'Card number', expiry: 'Expiry date', cvv: 'Security code', name: 'Name on card' } as const;
type Field = keyof typeof LABELS;

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** Playwright's test with the React version a project runs the suite with. */
const test = base.extend<object, { react: ReactVersion }>({ react: ['19', { option: true, scope: 'worker' }] });

// Each test is a dozen steps across frames of two origins: on a loaded 2-core machine one takes 40 s.
test.describe.configure({ timeout: 90_000 });
let merchant: Merchant;
let savedCards: string[];
let server: { html: string; touched: string[] };

test.beforeAll(async ({ react }) => {
  merchant = await startMerchant();
  // Two cards the vault keeps (the payer asked), paid again below with their CVV alone.
  savedCards = [];
  for (const number of [testCards.approved.number, '4012888888881881']) {
    const first = await merchant.gateway.payments.create({
      intent: 'sale',
      amount: { currency: 'USD', total: '5.00' },
      storedCredential: { kind: 'first' },
      payer: { email: 'ada@example.com' },
      card: { number, expireMonth: 12, expireYear: 2034, cvv: '123' },
    });
    savedCards.push(readSavedCard(first).savedCardId!);
  }
  const props = { merchantId: merchant.sandbox.merchant.id, gatewayUrl: merchant.sandbox.url, savedCards };
  const client = await bundle('e2e/react/client.tsx', react);
  server = await serverRender('e2e/react/server.tsx', react, props);
  merchant.files.set('/', {
    type: 'text/html; charset=utf-8',
    body: `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>React checkout</title><link rel="stylesheet" href="/app.css">
<script type="module" src="/app.js"></script></head>
<body><div id="root" data-props="${escape(JSON.stringify(props))}">${server.html}</div></body></html>`,
  });
  merchant.files.set('/app.js', { type: 'text/javascript', body: client });
  merchant.files.set('/app.css', {
    type: 'text/css',
    body: 'body{font:16px system-ui,sans-serif;margin:2rem}.buttons{display:flex;flex-wrap:wrap;gap:.5rem}.box{border:1px solid #8a93a3;border-radius:6px;padding:0 .5rem;max-width:24rem}.otp{border:1px solid #8a93a3;padding:1rem}',
  });
  merchant.files.set('/favicon.ico', { type: 'image/x-icon', body: '' });
});
test.afterAll(() => merchant?.close());

const problems = new WeakMap<Page, string[]>();
/** Opens the server's page, recording console errors and warnings and uncaught errors, and waits for the hydrated form. */
async function open(page: Page): Promise<void> {
  const seen: string[] = [];
  problems.set(page, seen);
  page.on('console', (m) => ['error', 'warning'].includes(m.type()) && seen.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => seen.push(`pageerror: ${e.message}`));
  await page.goto(`${merchant.url}/`);
  await expect(status(page)).toHaveText('Ready', { timeout: 15_000 });
}
/** Nothing went wrong that a person would not see: no console error or warning (a CSP violation is one), no unhandled rejection. */
async function expectClean(page: Page): Promise<void> {
  expect(problems.get(page)).toEqual([]);
  expect(await page.evaluate(() => (window as any).rejections)).toEqual([]);
}
const status = (page: Page) => page.getByRole('form', { name: 'Payment' }).getByRole('status');
const input = (page: Page, field: Field, label: string = LABELS[field], box = `#card-${field}`) =>
  page.frameLocator(`${box} iframe`).getByLabel(label);
async function type(page: Page, field: Field, text: string): Promise<void> {
  await input(page, field).click();
  await page.keyboard.type(text);
}
async function typeCard(page: Page): Promise<void> {
  for (const field of Object.keys(LABELS) as Field[]) await type(page, field, CARD[field]);
}
/** Keeps the page's frames (and their boxes), to tell later whether the same ones are still there. */
const mark = (page: Page) =>
  page.evaluate(() => {
    (window as any).marked = [...document.querySelectorAll('iframe')];
    (window as any).boxes = [...document.querySelectorAll('.box')];
  });
const compare = (page: Page) =>
  page.evaluate(() => {
    const marked = (window as any).marked as HTMLIFrameElement[];
    const now = [...document.querySelectorAll('iframe')];
    return {
      same: marked.length === now.length && marked.every((f, i) => f === now[i]),
      markedConnected: marked.filter((f) => f.isConnected).length,
      now: now.length,
    };
  });
const framesAdded = (page: Page) => page.evaluate(() => (window as any).framesAdded as number);
const events = (page: Page) => page.getByRole('list', { name: 'Events' }).getByRole('listitem');

test('server rendering renders the boxes and reads no browser global, not even typeof window', () => {
  // Each box as the field components render it, empty: the frames come in the browser.
  for (const field of ['number', 'expiry', 'cvv', 'name']) expect(server.html).toContain(`<div id="card-${field}" class="box"></div>`);
  expect(server.html).toContain('Loading the card form…');
  expect(server.html).not.toContain('iframe');
  expect(server.touched).toEqual([]);
});

test('hydration of the server’s page gives no mismatch warning and one working form', async ({ page }) => {
  await open(page);
  await expect(page.locator('iframe')).toHaveCount(4);
  await typeCard(page);
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(status(page)).toHaveText('Tokenised: visa 1111', { timeout: 15_000 });
  await expectClean(page);
});

test('<StrictMode> (mount, unmount, mount again) leaves one set of frames and one working form', async ({ page, react }) => {
  await open(page);
  // StrictMode did mount twice: four frames destroyed at once, four kept, one in each box.
  expect(await framesAdded(page)).toBe(8);
  await expect(page.locator('iframe')).toHaveCount(4);
  for (const field of Object.keys(LABELS)) await expect(page.locator(`#card-${field} iframe`)).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Pay', exact: true })).toBeDisabled();
  await typeCard(page);
  await expect(page.getByText('Brand: Visa · complete')).toBeVisible();
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(status(page)).toHaveText('Tokenised: visa 1111', { timeout: 15_000 });
  expect(merchant.sandbox.requests().filter((r) => r.path.endsWith('/credit-card-nonce')).length).toBeGreaterThan(0);
  await page.screenshot({ path: `test-results/react-${react}-checkout.png`, fullPage: true });
  await expectClean(page);
});

test('a render with new but equal option objects keeps the same frames and what was typed', async ({ page }) => {
  await open(page);
  await type(page, 'number', '4111');
  await mark(page);
  for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Render again' }).click();
  await expect(page.getByText('Rendered again 3 times')).toBeVisible();
  expect(await compare(page)).toEqual({ same: true, markedConnected: 4, now: 4 });
  await expect(input(page, 'number')).toHaveValue('4111');
  expect(await framesAdded(page)).toBe(8);
  await expectClean(page);
});

test('another locale and another placeholder are applied in place (setLocale, setPlaceholder), keeping what was typed', async ({
  page,
}) => {
  await open(page);
  await type(page, 'number', '4111');
  await mark(page);
  await page.getByRole('button', { name: 'العربية' }).click();
  // The frame re-read the page's label, now in Arabic, and turned right to left.
  await expect(input(page, 'number', 'رقم البطاقة')).toHaveValue('4111');
  await expect(page.frameLocator('#card-number iframe').locator('html')).toHaveAttribute('dir', 'rtl');
  await page.getByRole('button', { name: 'Change the placeholder' }).click();
  await expect(input(page, 'number', 'رقم البطاقة')).toHaveAttribute('placeholder', 'Your card number');
  await page.getByRole('button', { name: 'English' }).click();
  await expect(input(page, 'number')).toHaveValue('4111');
  expect(await compare(page)).toEqual({ same: true, markedConnected: 4, now: 4 });
  expect(await framesAdded(page)).toBe(8);
  await expectClean(page);
});

test('another style is applied in place (setStyles), keeping what was typed; disabled takes the fields from the person and gives them back', async ({
  page,
}) => {
  await open(page);
  await type(page, 'number', '4111');
  await mark(page);
  // The name field (left empty: not shown as invalid) has the base style's colour.
  await expect(input(page, 'name')).toHaveCSS('color', 'rgb(29, 36, 51)');
  await page.getByRole('button', { name: 'Another colour' }).click();
  await expect(input(page, 'name')).toHaveCSS('color', 'rgb(170, 0, 0)');
  await expect(input(page, 'number')).toHaveValue('4111');
  await page.getByRole('button', { name: 'Disable the fields' }).click();
  for (const field of Object.keys(LABELS) as Field[]) await expect(input(page, field)).toBeDisabled();
  await input(page, 'cvv').click({ force: true });
  await page.keyboard.type('123');
  await expect(input(page, 'cvv')).toHaveValue('');
  await page.getByRole('button', { name: 'Enable the fields' }).click();
  await type(page, 'cvv', '123');
  await expect(input(page, 'cvv')).toHaveValue('123');
  await expect(input(page, 'number')).toHaveValue('4111');
  expect(await compare(page)).toEqual({ same: true, markedConnected: 4, now: 4 });
  expect(await framesAdded(page)).toBe(8);
  await expectClean(page);
});

test('another client mounts a new form, which uses it, and destroys the old one', async ({ page }) => {
  await open(page);
  await type(page, 'number', '4111');
  await mark(page);
  await page.getByRole('button', { name: 'Another client' }).click();
  await expect(page.getByText('client 2', { exact: false }).first()).toBeVisible();
  await expect(status(page)).toHaveText('Ready', { timeout: 15_000 });
  expect(await compare(page)).toEqual({ same: false, markedConnected: 0, now: 4 });
  await expect(input(page, 'number')).toHaveValue('');
  await typeCard(page);
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(status(page)).toHaveText('Tokenised: visa 1111', { timeout: 15_000 });
  // Each form asks its own client when it is ready (client 1's before the switch); the Pay asked none again.
  await expect(events(page).filter({ hasText: 'asked for a token' })).toHaveText([
    'client 1 asked for a token',
    'client 2 asked for a token',
  ]);
  await expectClean(page);
});

test('another saved card mounts a new CVV form and destroys the old one; the new one posts its CVV', async ({ page }) => {
  await open(page);
  await page.getByRole('button', { name: 'Saved card A' }).click();
  await expect(status(page)).toHaveText('Ready', { timeout: 15_000 });
  await expect(page.locator('iframe')).toHaveCount(1);
  await input(page, 'cvv', LABELS.cvv, '#saved-cvv').click();
  await page.keyboard.type('739');
  await mark(page);
  await page.getByRole('button', { name: 'Saved card B' }).click();
  await expect(status(page)).toHaveText('Ready', { timeout: 15_000 });
  expect(await compare(page)).toEqual({ same: false, markedConnected: 0, now: 1 });
  const cvv = input(page, 'cvv', LABELS.cvv, '#saved-cvv');
  await expect(cvv).toHaveValue('');
  await cvv.click();
  await page.keyboard.type('582');
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(status(page)).toHaveText('Paid: authorised', { timeout: 15_000 });
  expect(merchant.received.at(-1)).toEqual({ cvv: '582', body: { savedCardId: savedCards[1] } });
  await expectClean(page);
});

test('unmounting destroys the frames, mid-payment or mid-OTP too, and rejects nothing unhandled', async ({ page }) => {
  await open(page);
  await type(page, 'number', '4111');
  await mark(page);
  await page.getByRole('button', { name: 'Remove the checkout' }).click();
  await expect(page.locator('iframe')).toHaveCount(0);
  // Destroyed, not only taken off the page with their boxes: the boxes React dropped hold no frame and no class.
  expect(
    await page.evaluate(() => ((window as any).boxes as Element[]).map((b) => `${b.isConnected} ${b.children.length} ${b.className}`)),
  ).toEqual(Array(4).fill('false 0 box'));
  // Shown again: a new working form. Then removed while a payment is tokenising, and while an OTP form waits.
  await page.getByRole('button', { name: 'Show the checkout' }).click();
  await expect(status(page)).toHaveText('Ready', { timeout: 15_000 });
  await typeCard(page);
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await page.getByRole('button', { name: 'Remove the checkout' }).click();
  await expect(page.locator('iframe')).toHaveCount(0);
  await page.getByRole('button', { name: 'Show the checkout' }).click();
  await expect(status(page)).toHaveText('Ready', { timeout: 15_000 });
  merchant.files.set('/pending.json', { type: 'application/json', body: JSON.stringify(await otpPayment()) });
  await page.getByRole('button', { name: 'Confirm the pending payment' }).click();
  await expect(page.getByLabel('One-time password')).toBeFocused({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Remove the checkout' }).click();
  await expect(page.getByLabel('One-time password')).toHaveCount(0);
  // A rejection is reported a task after it is left unhandled: one more round trip through the page.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
  await expectClean(page);
});

test('handlers passed as props see the latest render’s values', async ({ page }) => {
  await open(page);
  await expect(events(page).filter({ hasText: 'ready' })).toHaveText(['ready at count 0']);
  for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Count' }).click();
  await expect(page.getByText('count 3', { exact: false })).toBeVisible();
  await type(page, 'number', '4');
  await expect(events(page).last()).toHaveText('number changed at count 3');
  await page.getByRole('button', { name: 'Count' }).click();
  await type(page, 'expiry', '1');
  await expect(events(page).last()).toHaveText('expiry changed at count 4');
  await expectClean(page);
});

test('a pending payment: its OTP form shows while it is pending, and its outcome is state', async ({ page }) => {
  await open(page);
  const pending = await otpPayment();
  merchant.files.set('/pending.json', { type: 'application/json', body: JSON.stringify(pending) });
  await page.getByRole('button', { name: 'Confirm the pending payment' }).click();
  const section = page.getByRole('region', { name: 'Pending payment' });
  await expect(section.getByText('Waiting for the code')).toBeVisible();
  // The box is rendered only while a payment is pending: it was there when the form came, which took the focus.
  await expect(section.getByLabel('One-time password')).toBeFocused({ timeout: 15_000 });
  await page.keyboard.type(testCards.otp.otp);
  await page.keyboard.press('Enter');
  await expect(section.getByText('Payment approved (captured)')).toBeVisible({ timeout: 15_000 });
  await expectClean(page);
});

async function otpPayment() {
  const card = testCards.otp;
  const payment = await merchant.gateway.payments.create({
    intent: 'sale',
    amount: { currency: 'USD', total: '25.00' },
    card: { number: card.number, expireMonth: card.expireMonth, expireYear: card.expireYear, cvv: card.cvv },
  });
  return toPending(payment);
}
