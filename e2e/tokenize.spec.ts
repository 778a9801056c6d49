// The full script-tag bundle (client.tokenize takes the card on the page) in real Chromium: a checkout page on one origin gets its client token from
// its own server (payframe/server's handler), tokenises a card against the sandbox on another origin
// (CORS), and the merchant's server pays with the nonce.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { type SandboxHandle, testCards } from '../src/sandbox';
import { createGateway, type Gateway, toNodeListener } from '../src/server';
import { startSandbox, trustedTls } from './support/tls';

const BUNDLE = new URL('../dist/payframe.full.umd.min.js', import.meta.url);
const HOSTED_BUNDLE = new URL('../dist/payframe.umd.min.js', import.meta.url);

// The page gets its gateway from the query, as a server-rendered page would embed it; its client
// token comes from its own server, as payframe/server's handler answers it.
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>checkout</title>
<form id="pay">
  <input id="number" autocomplete="cc-number"> <input id="month"> <input id="year"> <input id="cvv">
  <button>Pay</button>
</form>
<output id="nonce"></output><output id="brand"></output><output id="error"></output>
<script src="/payframe.full.umd.min.js"></script>
<script>
  const query = new URLSearchParams(location.search);
  const client = Payframe.createClient({
    merchantId: query.get('merchant'),
    baseUrl: query.get('gateway'),
    authorization: () => fetch('/client-token', { method: 'POST' }).then((r) => r.json()),
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
let gateway: Gateway;
let page: Server;
let pageUrl: string;
let tokenRequests = 0;

test.beforeAll(async () => {
  sandbox = await startSandbox();
  const { id, clientId, clientSecret } = sandbox.merchant;
  gateway = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: sandbox.url });
  const mintToken = toNodeListener(gateway.handlers.clientToken());
  const bundle = await readFile(BUNDLE);
  const hostedBundle = await readFile(HOSTED_BUNDLE);
  page = createServer(trustedTls(), (req, res) => {
    const path = new URL(req.url ?? '/', 'https://localhost').pathname;
    if (path === '/client-token') {
      tokenRequests++;
      mintToken(req, res);
    } else if (path === '/payframe.full.umd.min.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    else if (path === '/payframe.umd.min.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(hostedBundle);
    else if (path === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    // The same page with the hosted form's bundle, which leaves client.tokenize out.
    else if (path === '/hosted')
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(PAGE.replace('payframe.full.umd.min.js', 'payframe.umd.min.js'));
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => page.listen(0, 'localhost', resolve));
  pageUrl = `https://localhost:${(page.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => page?.close(resolve));
  await sandbox?.close();
});

test('a page on another origin tokenises a card with the bundle, and the nonce pays a sale', async ({ page: tab }) => {
  const errors: string[] = [];
  tab.on('pageerror', (error) => errors.push(error.message));

  const query = new URLSearchParams({ merchant: sandbox.merchant.id, gateway: sandbox.url });
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

  // One token from the merchant's own server; the browser's nonce request came from the page's origin
  // and carried that client token, never the merchant's credentials.
  expect(tokenRequests).toBe(1);
  const sent = sandbox.requests().filter((r) => r.path.endsWith('/credit-card-nonce') && r.method === 'POST');
  expect(sent).toHaveLength(1);
  expect(sent[0]!.headers.origin).toBe(pageUrl);
  expect(sent[0]!.headers.authorization).toBe('Bearer [redacted]');

  const payment = await gateway.payments.create({ intent: 'sale', amount: { currency: 'USD', total: '25.00' }, card: { nonce: nonce! } });
  expect(payment.state).toBe('captured');
  expect(payment.result.code).toBe('0000');
  expect(errors).toEqual([]);
});

test("the hosted form's bundle answers client.tokenize with invalid_config naming the full bundle, and sends nothing", async ({
  page: tab,
}) => {
  const before = { tokens: tokenRequests, gateway: sandbox.requests().length };
  const query = new URLSearchParams({ merchant: sandbox.merchant.id, gateway: sandbox.url });
  await tab.goto(`${pageUrl}/hosted?${query}`);
  const card = testCards.approved;
  await tab.fill('#number', card.number);
  await tab.fill('#month', String(card.expireMonth));
  await tab.fill('#year', String(card.expireYear));
  await tab.fill('#cvv', card.cvv);
  await tab.click('button');
  await expect(tab.locator('#error')).toHaveText(
    "invalid_config: client.tokenize is in payframe.full.umd.min.js, not in the hosted form's bundle",
  );
  await expect(tab.locator('#nonce')).toHaveText('');
  expect(tokenRequests).toBe(before.tokens);
  expect(sandbox.requests()).toHaveLength(before.gateway);
});
