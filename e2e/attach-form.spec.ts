// attachForm: the hosted form's formatting, validation, events and tokenize() on the merchant's own
// inputs (outside the frames' isolation: the page holds the card, so the merchant's PCI scope grows).
import { expect, test } from '@playwright/test';
import { type Merchant, startMerchant } from './support/merchant';

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Own inputs</title>
<link rel="stylesheet" href="/checkout.css">
<script src="/payframe.full.umd.min.js" defer></script><script src="/attach.js" defer></script></head>
<body><main class="checkout"><form id="pay" novalidate>
<label for="number">Card number</label><input id="number" class="input" autocomplete="cc-number" inputmode="numeric">
<label for="expiry">Expiry date</label><input id="expiry" class="input" autocomplete="cc-exp" inputmode="numeric">
<label for="cvv">Security code</label><input id="cvv" class="input" autocomplete="cc-csc" inputmode="numeric">
<button>Pay</button><p id="status" role="status"></p></form></main></body></html>`;

const SCRIPT = `(() => {
  const q = new URLSearchParams(location.search);
  const client = Payframe.createClient({ merchantId: q.get('merchant'), baseUrl: q.get('gateway'), authorization: () => fetch('/client-token', { method: 'POST' }).then((r) => r.json()) });
  const events = (window.events = []);
  const form = (window.form = Payframe.attachForm({ client, number: '#number', expiry: '#expiry', cvv: '#cvv' }));
  for (const name of ['ready', 'change', 'brandChange', 'validityChange', 'focus', 'blur', 'submit']) form.on(name, (state, field) => events.push([name, field || null, state.brand ? state.brand.id : null]));
  document.getElementById('pay').addEventListener('submit', async (e) => {
    e.preventDefault();
    const status = document.getElementById('status');
    try {
      const card = await form.tokenize();
      const paid = await fetch('/pay', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ nonce: card.nonce }) }).then((r) => r.json());
      status.textContent = 'Paid: ' + paid.state + ' ' + card.brand + ' ' + card.last4;
    } catch (error) {
      status.textContent = error.code + ': ' + (error.fields || []).join(', ');
    }
  });
})();`;

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant();
  merchant.files.set('/attach', { type: 'text/html; charset=utf-8', body: PAGE });
  merchant.files.set('/attach.js', { type: 'text/javascript', body: SCRIPT });
});
test.afterAll(() => merchant?.close());

test("the merchant's own inputs format, validate, report events and tokenise through the direct path", async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (m) => /security policy/i.test(m.text()) && violations.push(m.text()));
  await page.goto(
    `${merchant.url}/attach?${new URLSearchParams({ merchant: merchant.sandbox.merchant.id, gateway: merchant.sandbox.url })}`,
  );
  await page.getByLabel('Card number').click();
  await page.keyboard.type('٥٥٥٥٥٥٥٥٥٥٥٥٤٤٤٤');
  await expect(page.getByLabel('Card number')).toHaveValue('5555 5555 5555 4444');
  await expect(page.getByLabel('Card number')).toHaveClass(/payframe-field--valid/);
  await page.getByLabel('Expiry date').click();
  await page.keyboard.type('13');
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.locator('#status')).toHaveText('invalid_card: expiry, cvv');
  await expect(page.getByLabel('Expiry date')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Expiry date')).toHaveValue('01 / 3');

  await page.getByLabel('Expiry date').fill('');
  await page.getByLabel('Expiry date').click();
  await page.keyboard.type('1234');
  await page.getByLabel('Security code').click();
  await page.keyboard.type('1234');
  await expect(page.getByLabel('Security code')).toHaveValue('123');
  await page.keyboard.press('Enter');
  await expect(page.locator('#status')).toHaveText('Paid: captured mastercard 4444', { timeout: 15_000 });
  const events = await page.evaluate(() => (window as any).events);
  expect(events.filter((e: string[]) => e[0] === 'brandChange')).toEqual([['brandChange', 'number', 'mastercard']]);
  expect(events.filter((e: string[]) => e[0] === 'submit')).toEqual([['submit', 'cvv', 'mastercard']]);
  expect(events[0]).toEqual(['ready', null, null]);
  expect(violations).toEqual([]);
  // The nonce request left the merchant's own page (CORS to the gateway), as documented.
  const nonce = merchant.sandbox
    .requests()
    .filter((r) => r.path.endsWith('/credit-card-nonce') && r.method === 'POST')
    .at(-1)!;
  expect(nonce.headers.origin).toBe(merchant.url);
});
