// The script-tag bundle in real Chromium: a checkout page on one origin tokenises a card against
// the sandbox on another origin (CORS), and the merchant's server pays with the nonce.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { generate } from 'selfsigned';
import { type SandboxHandle, startSandbox, testCards } from '../src/sandbox';

const BUNDLE = new URL('../dist/payframe.umd.min.js', import.meta.url);

// The page gets its gateway and token from the query, as a server-rendered page would embed them.
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>checkout</title>
<form id="pay">
  <input id="number" autocomplete="cc-number"> <input id="month"> <input id="year"> <input id="cvv">
  <button>Pay</button>
</form>
<output id="nonce"></output><output id="brand"></output><output id="error"></output>
<script src="/payframe.umd.min.js"></script>
<script>
  const query = new URLSearchParams(location.search);
  const client = Payframe.createClient({
    merchantId: query.get('merchant'),
    baseUrl: query.get('gateway'),
    authorization: async () => query.get('token'),
  });
  const value = (id) => document.getElementById(id).value;
  document.getElementById('pay').addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const card = await client.tokenize({ number: value('number'), expireMonth: value('month'), expireYear: value('year'), cvv: value('cvv') });
      document.getElementById('brand').textContent = card.brand + ' ' + card.last4;
      document.getElementById('nonce').textContent = card.nonce;
    } catch (error) {
      document.getElementById('error').textContent = error.code + ': ' + error.message;
    }
  });
</script>`;

let sandbox: SandboxHandle;
let page: Server;
let pageUrl: string;

test.beforeAll(async () => {
  sandbox = await startSandbox();
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] }],
  });
  const bundle = await readFile(BUNDLE);
  page = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://localhost').pathname;
    if (path === '/payframe.umd.min.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    else if (path === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => page.listen(0, 'localhost', resolve));
  pageUrl = `https://localhost:${(page.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => page?.close(resolve));
  await sandbox?.close();
});

test('a page on another origin tokenises a card with the bundle, and the nonce pays a sale', async ({ page: tab, request }) => {
  const errors: string[] = [];
  tab.on('pageerror', (error) => errors.push(error.message));

  const basic = `Basic ${Buffer.from(`${sandbox.merchant.clientId}:${sandbox.merchant.clientSecret}`).toString('base64')}`;
  const minted = await request.post(`${sandbox.url}/v1/merchants/${sandbox.merchant.id}/client_token`, {
    headers: { authorization: basic },
    data: { grant_type: 'client_credentials' },
  });
  expect(minted.status()).toBe(200);
  const { accessToken } = await minted.json();

  const query = new URLSearchParams({ merchant: sandbox.merchant.id, gateway: sandbox.url, token: accessToken });
  await tab.goto(`${pageUrl}/?${query}`);
  const card = testCards.approved;
  await tab.fill('#number', card.number.replace(/(\d{4})(?=\d)/g, '$1 '));
  await tab.fill('#month', String(card.expireMonth).padStart(2, '0'));
  await tab.fill('#year', String(card.expireYear).slice(-2));
  await tab.fill('#cvv', card.cvv);
  await tab.click('button');

  await expect(tab.locator('#nonce')).toHaveText(/^[0-9a-f-]{36}$/, { timeout: 10_000 });
  await expect(tab.locator('#brand')).toHaveText('visa 1111');
  await expect(tab.locator('#error')).toHaveText('');
  const nonce = await tab.locator('#nonce').textContent();

  // The browser's request came from the page's origin and carried the client token, not credentials.
  const sent = sandbox.requests().filter((r) => r.path.endsWith('/credit-card-nonce') && r.method === 'POST');
  expect(sent).toHaveLength(1);
  expect(sent[0]!.headers.origin).toBe(pageUrl);
  expect(sent[0]!.headers.authorization).toBe('Bearer [redacted]');

  const paid = await request.post(`${sandbox.url}/v1/merchants/${sandbox.merchant.id}/payment`, {
    headers: { authorization: basic },
    data: {
      intent: 'sale',
      payer: { payment_type: 'CC', funding_instrument: { credit_card_nonce: { nonce } } },
      transaction: { amount: { currency: 'USD', total: '25.00' } },
    },
  });
  expect(paid.status()).toBe(200);
  const payment = await paid.json();
  expect(payment.state).toBe('captured');
  expect(payment.result.code).toBe('0000');
  expect(errors).toEqual([]);
});
