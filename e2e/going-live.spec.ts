// Issue 16: a live checkout's three origins. The merchant's page (https://localhost:P2, strict CSP), the
// card frames from the merchant's own frame host made with createFrameHost (https://127.0.0.2:P3), and the
// gateway, the sandbox standing for the live service (https://127.0.0.1:P1), which the frames call
// cross-origin. A card typed in the frames pays a sale, an OTP payment and a saved card's CVV pay too,
// the page never sees the card, and neither another gateway nor another page can use the frames.
import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { testCards } from '../src/sandbox';
import { readSavedCard } from '../src/server';
import { readmeBlock } from '../test/readme';
import { type Merchant, startMerchant } from './support/merchant';
import { type Origin, startOrigin } from './support/origin';
import { fillCard, input, openCheckout, recorded } from './support/page';
import { expectNoCardData, recordMerchant } from './support/recorder';

const CARD = { number: '4111 1111 1111 1111', expiry: '1234', cvv: '123', name: 'Ada Lovelace' };

let merchant: Merchant;
let other: Origin;
test.beforeAll(async () => {
  [merchant, other] = await Promise.all([startMerchant({ frameHost: true }), startOrigin()]);
});
test.afterAll(async () => {
  await Promise.all([merchant?.close(), other?.close()]);
});

const frameOrigin = () => new URL(merchant.frameHost!.url).origin;
const gatewayRequests = (method: string) =>
  merchant.sandbox.requests().filter((r) => r.method === method && r.path.endsWith('/credit-card-nonce'));

async function pay(page: Page, card = CARD, expected = 'Paid: captured visa 1111') {
  await fillCard(page, card);
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(page.locator('#status')).toHaveText(expected, { timeout: 15_000 });
}

test(
  'a card typed in the frames of the merchant’s frame host pays a sale; the frames call the gateway cross-origin, one request per tokenize after the first',
  { tag: '@full-chromium' },
  async ({ page }) => {
    const recorder = await recordMerchant(page);
    await openCheckout(page, merchant);
    // Every frame from the frame host, none from the gateway.
    const sources = await page.locator('iframe').evaluateAll((frames) => frames.map((f) => new URL((f as HTMLIFrameElement).src).origin));
    expect(new Set(sources)).toEqual(new Set([frameOrigin()]));
    // One response per frame: the page, with its script inline, and no script file after it.
    const asked = merchant.frameHost!.requests.map((r) => new URL(r.path, 'https://frames.invalid').pathname);
    expect(asked.filter((path) => path.endsWith('/')).length).toBeGreaterThanOrEqual(3);
    expect(asked.filter((path) => !path.endsWith('/'))).toEqual([]);

    const [posts, preflights] = [gatewayRequests('POST').length, gatewayRequests('OPTIONS').length];
    await pay(page);
    // The nonce request left the frame host's origin for the gateway's, after one preflight.
    const nonce = gatewayRequests('POST').at(-1)!;
    expect(nonce.headers['origin']).toBe(frameOrigin());
    expect(gatewayRequests('POST').length - posts).toBe(1);
    expect(gatewayRequests('OPTIONS').length - preflights).toBe(1);

    // Two more payments on the same page: one request each, the preflight cached (Access-Control-Max-Age).
    for (let i = 0; i < 2; i++) {
      for (const field of ['number', 'expiry', 'cvv', 'name'] as const) {
        await input(page, field).click();
        await input(page, field).press('ControlOrMeta+a');
        await input(page, field).press('Delete');
      }
      await pay(page);
    }
    expect(gatewayRequests('POST').length - posts).toBe(3);
    expect(gatewayRequests('OPTIONS').length - preflights).toBe(1);

    await expectNoCardData(recorder, { number: CARD.number.replace(/ /g, ''), cvv: CARD.cvv });
    expect((await recorded(page)).violations).toEqual([]);
    expect(merchant.reports).toEqual([]);
  },
);

test('a pending payment is finished by OTP on the same page', async ({ page }) => {
  await openCheckout(page, merchant);
  const otp = testCards.otp;
  await fillCard(page, { number: otp.number, expiry: `12${String(otp.expireYear).slice(2)}`, cvv: otp.cvv, name: 'Ada Lovelace' });
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  const field = page.getByLabel('One-time password');
  await expect(field).toBeFocused({ timeout: 15_000 });
  await field.fill(otp.otp);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.locator('#status')).toHaveText('Paid: captured visa 1836', { timeout: 15_000 });
  expect((await recorded(page)).violations).toEqual([]);
});

test('a saved card’s CVV goes from its frame on the frame host to the merchant’s server, which pays', async ({ page }) => {
  const first = await merchant.gateway.payments.create({
    intent: 'sale',
    amount: { currency: 'USD', total: '5.00' },
    storedCredential: { kind: 'first' },
    payer: { email: 'ada@example.com' },
    card: { number: testCards.approved.number, expireMonth: 12, expireYear: 2034, cvv: '123' },
  });
  const card = readSavedCard(first).savedCardId!;
  const recorder = await recordMerchant(page);
  const routeAsked = () => merchant.requests.filter((r) => r.path === '/pay/saved-card');
  const before = routeAsked().length;
  const query = new URLSearchParams({
    merchant: merchant.sandbox.merchant.id,
    gateway: merchant.sandbox.url,
    card,
    frameUrl: merchant.frameHost!.url,
  });
  await page.goto(`${merchant.url}/saved-card?${query}`);
  const cvv = page.frameLocator('#saved-cvv iframe').getByLabel('Security code of the Visa ending in 1111');
  await cvv.click();
  await page.keyboard.type('739');
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(page.locator('#status')).toHaveText('Paid: authorised', { timeout: 15_000 });
  expect(merchant.received.at(-1)).toEqual({ cvv: '739', body: { savedCardId: card } });
  // The route was asked by the CVV-only form's own page on the frame host (whose CSP alone admits the
  // merchant's origin), a preflight first, without cookies: the page itself posted nothing there.
  expect(
    routeAsked()
      .slice(before)
      .map((r) => [r.method, r.headers.origin, r.headers.cookie]),
  ).toEqual([
    ['OPTIONS', frameOrigin(), undefined],
    ['POST', frameOrigin(), undefined],
  ]);
  expect(merchant.frameHost!.requests.some((r) => r.path.startsWith('/cvv/?'))).toBe(true);
  await expectNoCardData(recorder, { cvv: '739' });
});

test('docs/saved-card-cvv.md’s page script and routes, as written, on three origins: the CVV frame from the frame host, a payment', async ({
  page,
}) => {
  const first = await merchant.gateway.payments.create({
    intent: 'sale',
    amount: { currency: 'USD', total: '5.00' },
    storedCredential: { kind: 'first' },
    payer: { email: 'grace@example.com' },
    card: { number: testCards.approved.number, expireMonth: 12, expireYear: 2034, cvv: '123' },
  });
  const card = readSavedCard(first).savedCardId!;
  await merchant.useSavedCardRoutes(readmeBlock('hosted/saved-card.mjs'));
  // The page a merchant's server renders, with what docs/saved-card-cvv.md says it writes into the form.
  const data = {
    'card-id': card,
    brand: 'visa',
    'merchant-id': merchant.sandbox.merchant.id,
    'gateway-url': merchant.sandbox.url,
    'frame-url': merchant.frameHost!.url,
  };
  const html = (await readFile(new URL('support/saved-card.html', import.meta.url), 'utf8'))
    .replace(
      '<form id="pay" novalidate>',
      `<form id="pay" novalidate ${Object.entries(data)
        .map(([k, v]) => `data-${k}="${v}"`)
        .join(' ')}>`,
    )
    .replace('/saved-card.js', '/readme/saved-card.js');
  merchant.files.set('/readme/saved-card', { type: 'text/html; charset=utf-8', body: html });
  merchant.files.set('/readme/saved-card.js', { type: 'text/javascript', body: readmeBlock('hosted/saved-card.js') });
  const recorder = await recordMerchant(page);
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text())); // a CSP violation is one
  await page.goto(`${merchant.url}/readme/saved-card`);
  await expect(page.locator('#saved-cvv iframe')).toHaveAttribute('src', new RegExp(`^${frameOrigin()}/cvv/`));
  await page.frameLocator('#saved-cvv iframe').getByLabel('Security code of the Visa ending in 1111').click();
  await page.keyboard.type('739');
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(page.getByRole('status')).toHaveText('Paid: captured', { timeout: 15_000 });
  const sent = merchant.requests.filter((r) => r.path === '/saved-card/pay').map((r) => `${r.method} ${r.headers.origin}`);
  expect(sent).toEqual([`OPTIONS ${frameOrigin()}`, `POST ${frameOrigin()}`]);
  await expectNoCardData(recorder, { cvv: '739' });
  expect(problems).toEqual([]);

  // The same page without data-frame-url (as the guide read before): the frames would come from the gateway, which
  // the page's frame-src does not name. The page says why it has no field, and Pay says the same, not "destroyed".
  merchant.files.set('/readme/saved-card', { type: 'text/html; charset=utf-8', body: html.replace(/ data-frame-url="[^"]*"/, '') });
  await page.goto(`${merchant.url}/readme/saved-card`);
  const why = "the cvv field blocked by the page's CSP \\(frame-src\\)";
  await expect(page.getByRole('status')).toHaveText(new RegExp(`^The card form is unavailable: ${why}`), { timeout: 15_000 });
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(page.getByRole('status')).toHaveText(new RegExp(`^Not paid: ${why}`));
});

test('a page script that points the frames at another gateway gets a refusal at once, and no request leaves', async ({ page }) => {
  const tokens = () => merchant.sandbox.requests().filter((r) => r.path.endsWith('/client_token')).length;
  const tokensBefore = tokens();
  await openCheckout(page, merchant);
  // The checkout's own form asks for its client token as it loads, and may be ready before the shop asked
  // the service: counted once that call has come (a loaded run counted it after).
  await expect.poll(tokens).toBeGreaterThan(tokensBefore);
  const before = merchant.sandbox.requests().length;
  const answer = await page.evaluate(
    async ({ frameUrl }) => {
      for (const id of ['n', 'e', 'c']) document.body.append(Object.assign(document.createElement('div'), { id }));
      const w = window as any;
      const elsewhere = w.Payframe.createClient({ merchantId: 'm', baseUrl: 'https://127.0.0.3:9/', authorization: 'token' });
      const form = w.Payframe.mountFields({
        client: elsewhere,
        fields: { number: { container: '#n' }, expiry: { container: '#e' }, cvv: { container: '#c' } },
        frameUrl,
      });
      const started = performance.now();
      return form.ready.then(
        () => ({ code: 'ready' }),
        (e: any) => ({ code: e.code, message: e.message, ms: performance.now() - started }),
      );
    },
    { frameUrl: merchant.frameHost!.url },
  );
  expect(answer).toMatchObject({ code: 'invalid_config', message: expect.stringContaining('this frame host serves the card frames of') });
  expect(answer.ms).toBeLessThan(10_000); // said by the frames, not by the 30 s timeout
  expect(merchant.sandbox.requests().length).toBe(before);
});

test('a page on an origin the frame host does not name cannot frame the fields', async ({ page }) => {
  const refusals: string[] = [];
  page.on('console', (m) => /frame-ancestors/.test(m.text()) && refusals.push(m.text()));
  await page.goto(`${other.url}/`);
  await page.evaluate(
    (src) => document.body.append(Object.assign(document.createElement('iframe'), { src })),
    `${merchant.frameHost!.url}?merchant=m`,
  );
  await expect.poll(() => refusals.length, { timeout: 10_000 }).toBeGreaterThan(0);
  // The frame shows no field: its document never loaded.
  await expect(page.frameLocator('iframe').getByRole('textbox')).toHaveCount(0);
});
