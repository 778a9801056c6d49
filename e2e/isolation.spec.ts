// Issue 20, the third security review's four finds, each played as the attacker did, in Chromium over
// real HTTPS against the sandbox: frames on the checkout's own origin, the CVV echoed back through its
// route in every rendering, a redirect after the card, and a web page driving the developer's sandbox
// through a name of its own (DNS rebinding).
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { testCards } from '../src/sandbox';
import { readSavedCard } from '../src/server';
import { type Merchant, startMerchant } from './support/merchant';
import { type Origin, startOrigin } from './support/origin';
import { fillCard, openCheckout } from './support/page';
import { expectNoCardData, recordMerchant } from './support/recorder';

const FRAME_DIR = new URL('../dist/frame/', import.meta.url);
const CARD = { number: '4111111111111111', expiry: '1234', cvv: '123', name: 'Ada Lovelace' };

let merchant: Merchant;
let other: Origin;
test.beforeAll(async () => {
  [merchant, other] = await Promise.all([startMerchant(), startOrigin()]);
});
test.afterAll(async () => {
  await Promise.all([merchant?.close(), other?.close()]);
});

test.describe('finding 1: frames on the checkout’s own origin', () => {
  // The attack: dist/frame/ copied beside the checkout, served with no header at all (no CSP, nothing).
  test.beforeAll(() => {
    other.files.set('/frame/', { type: 'text/html; charset=utf-8', body: readFileSync(new URL('index.html', FRAME_DIR)) });
    other.files.set('/shop', {
      type: 'text/html; charset=utf-8',
      body: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title><script src="/payframe.umd.min.js"></script></head><body><div id="n"></div><div id="e"></div><div id="c"></div></body></html>',
    });
  });

  test('mountFields refuses a frameUrl on the page’s origin, and adds no frame', async ({ page }) => {
    await page.goto(`${other.url}/shop`);
    const answer = await page.evaluate(
      ({ gateway, merchantId }) => {
        const w = window as any;
        const client = w.Payframe.createClient({ merchantId, baseUrl: gateway, authorization: 'token' });
        try {
          w.Payframe.mountFields({
            client,
            fields: { number: { container: '#n' }, expiry: { container: '#e' }, cvv: { container: '#c' } },
            frameUrl: `${location.origin}/frame/`,
          });
          return 'mounted';
        } catch (e: any) {
          return `${e.code}: ${e.message}`;
        }
      },
      { gateway: merchant.sandbox.url, merchantId: merchant.sandbox.merchant.id },
    );
    expect(answer).toMatch(/^invalid_config: mountFields: frameUrl must be on another origin than this page's/);
    expect(await page.locator('iframe').count()).toBe(0);
  });

  test('a frame put on the page’s own origin by hand shows no input: nothing for a script of the page to read', async ({ page }) => {
    await page.goto(`${other.url}/shop`);
    const read = await page.evaluate(
      async ({ gateway }) => {
        const failures: unknown[] = [];
        addEventListener('message', (e) => e.data?.t === 'failure' && failures.push(e.data.error));
        const iframe = document.createElement('iframe');
        const channel = 'a'.repeat(32);
        const config = JSON.stringify({ ch: channel, t: 'config', locale: 'en', fields: ['number'] });
        iframe.src = `/frame/?merchant=m&gateway=${encodeURIComponent(`${gateway}/`)}&field=number#channel=${channel}&origin=${encodeURIComponent(location.origin)}&config=${encodeURIComponent(config)}`;
        document.body.append(iframe);
        await new Promise((r) => iframe.addEventListener('load', r));
        await new Promise((r) => setTimeout(r, 500)); // the frame's deferred script has run
        return { inputs: iframe.contentDocument!.querySelectorAll('input').length, failures };
      },
      { gateway: merchant.sandbox.url },
    );
    expect(read.inputs).toBe(0);
    expect(read.failures).toEqual([
      {
        code: 'invalid_config',
        message: "the card frames refuse to run on the page's own origin: serve them from another origin (frameUrl)",
      },
    ]);
  });
});

test('finding 2: a CVV route that echoes the CVV, in any rendering, gets none of it to the page', async ({ page }) => {
  const first = await merchant.gateway.payments.create({
    intent: 'sale',
    amount: { currency: 'USD', total: '5.00' },
    storedCredential: { kind: 'first' },
    card: { number: testCards.approved.number, expireMonth: 12, expireYear: 2034, cvv: '123' },
  });
  const card = readSavedCard(first).savedCardId!;
  // A merchant route that pays, then answers with the payment and whatever its framework echoed.
  await merchant.useSavedCardRoutes(`
export const issueTicket = () => ({ ticket: 't' });
export const paySavedCard = (gateway) => async (request) => {
  const origin = request.headers.get('origin');
  const cors = { 'access-control-allow-origin': origin, 'access-control-allow-headers': 'content-type', 'content-type': 'application/json' };
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: cors });
  const { cvv, cardId } = await request.json();
  const payment = await gateway.payments.create({ intent: 'auth', amount: { currency: 'USD', total: '5.00' }, card: { savedCardId: cardId, cvv }, storedCredential: { kind: 'cardholder' } });
  const n = Number(cvv);
  const echo = { cvv: n, ref: 'cvv_' + cvv, glued: '9' + cvv + '1', split: cvv.split('').join('-'), hex: '0x' + n.toString(16), note: 'cvv ' + cvv + ' ok', [cvv]: true };
  return new Response(JSON.stringify({ status: 'approved', referenceId: payment.reference_id, state: payment.state, code: payment.result.code, ...echo }), { headers: cors });
};`);
  const recorder = await recordMerchant(page);
  const query = new URLSearchParams({ merchant: merchant.sandbox.merchant.id, gateway: merchant.sandbox.url, card });
  await page.goto(`${merchant.url}/saved-card?${query}`);
  await page.frameLocator('#saved-cvv iframe').getByLabel('Security code of the Visa ending in 1111').click();
  await page.keyboard.type('042');
  // The page has heard the code complete from its frame, as before a person's click on Pay: on a busy
  // machine the call could otherwise come first and be refused (invalid_card: cvv) for a state one key old.
  await expect.poll(async () => (await page.evaluate(() => (window as any).form.getState())).fields.cvv.isValid).toBe(true);
  const answer = await page.evaluate(() =>
    (window as any).form.postCvv({ url: '/saved-card/pay', body: { cardId: new URLSearchParams(location.search).get('card') } }),
  );
  // The sandbox's payment id, whatever hex digits it holds (they may include 042 by chance), and nothing echoed.
  const { referenceId, ...rest } = answer;
  expect(referenceId).toMatch(/^PAY-[\dA-F]{24}$/);
  expect(rest).toEqual({ status: 'approved', state: 'authorised', code: '0000' });
  expect(JSON.stringify(rest)).not.toMatch(/042|42|2a|0-4/);
  await expectNoCardData(recorder, { cvv: '042' });
});

test('finding 3: a redirect answered to the frame’s nonce request is an error, and the card goes nowhere else', async ({ page }) => {
  await openCheckout(page, merchant);
  await fillCard(page, CARD);
  const nonce = `/v1/merchants/${merchant.sandbox.merchant.id}/credit-card-nonce`;
  merchant.sandbox.injectFault({ method: 'POST', path: nonce, kind: 'reply', status: 307, location: `${other.url}/steal` });
  const before = other.requests.length;
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(page.locator('#status')).toHaveText(
    /^invalid_response: POST \/v1\/merchants\/[\w-]+\/credit-card-nonce: the service answered a redirect/,
    { timeout: 15_000 },
  );
  expect(other.requests.slice(before).filter((r) => r.path === '/steal')).toEqual([]);
});

test('finding 4: a web page reaching the sandbox through a name of its own (DNS rebinding) gets 421, not a client token', async ({
  playwright,
  launchOptions,
}) => {
  // The project's browser, with a resolver rule of its own: the attacker's name leads to the sandbox.
  const browser = await playwright.chromium.launch({
    ...launchOptions,
    args: [...(launchOptions.args ?? []), '--host-resolver-rules=MAP rebind.evil.example 127.0.0.1'],
  });
  try {
    const page = await (await browser.newContext({ ignoreHTTPSErrors: true })).newPage();
    const port = new URL(merchant.sandbox.url).port;
    const evil = `https://rebind.evil.example:${port}`;
    await page.goto(`${evil}/`); // the attacker's page, now on the sandbox's address
    const answers = await page.evaluate(async (merchantId) => {
      const basic = `Basic ${btoa('sandbox-client:sandbox-secret')}`; // the credentials the sandbox prints
      const token = await fetch(`/v1/merchants/${merchantId}/client_token`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/json' },
        body: '{"grant_type":"client_credentials"}',
      });
      const clock = await fetch('/__sandbox/clock', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"advanceMs":1}',
      });
      return [token.status, (await token.json()).name, clock.status];
    }, merchant.sandbox.merchant.id);
    expect(answers).toEqual([421, 'MISDIRECTED_REQUEST', 421]);
  } finally {
    await browser.close();
  }
});

test('a frame whose URL config it cannot read (a page of another version) refuses it, and shows and takes nothing', async ({ page }) => {
  await openCheckout(page, merchant);
  const refusals = await page.evaluate(async () => {
    const heard: string[] = [];
    addEventListener('message', (e) => e.data?.t === 'failure' && heard.push(String(e.data.error?.code)));
    const url = new URL(document.querySelector<HTMLIFrameElement>('#card-number iframe')!.src);
    const hash = new URLSearchParams(url.hash.slice(1));
    const ch = 'b'.repeat(32);
    hash.set('channel', ch);
    hash.set('config', JSON.stringify({ ch, t: 'config', locale: 'en', fields: ['number', 'pin'] }));
    url.hash = hash.toString();
    const iframe = Object.assign(document.createElement('iframe'), { id: 'skew', src: url.href });
    document.body.append(iframe);
    await new Promise((resolve) => iframe.addEventListener('load', resolve));
    for (let i = 0; i < 50 && heard.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    return heard;
  });
  expect(refusals).toEqual(['invalid_config']);
  const frame = page.frameLocator('#skew');
  await expect(frame.getByRole('textbox')).toHaveCount(0);
  await page.locator('#skew').click();
  await page.keyboard.type(CARD.number);
  expect(await frame.locator('input').inputValue()).toBe('');
});
