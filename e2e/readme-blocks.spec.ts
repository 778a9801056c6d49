// The browser blocks of the hosted form and of pending payments (docs/hosted-form.md, docs/pending.md), run as written in Chromium on
// the test merchant's page (https://localhost, strict CSP, the frames on the sandbox's origin): each is an
// ES module of the page, imported by a small runner script that calls it.
import { expect, test } from '@playwright/test';
import { testCards } from '../src/sandbox';
import { toPending } from '../src/server';
import { readmeBlock } from '../test/readme';
import { type Merchant, startMerchant } from './support/merchant';

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant();
  const page = (body: string, runner: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>README block</title>
<link rel="stylesheet" href="/readme/page.css"><script src="/payframe.umd.min.js"></script><script type="module" src="${runner}"></script></head>
<body>${body}</body></html>`;
  // The runner: the client, as the five-minute integration makes it, then the block's function.
  const client = `Payframe.createClient({ merchantId: ${JSON.stringify(merchant.sandbox.merchant.id)}, baseUrl: ${JSON.stringify(merchant.sandbox.url)},
  authorization: () => fetch('/client-token', { method: 'POST' }).then((r) => r.json()) })`;
  const js = (body: string) => ({ type: 'text/javascript', body });
  merchant.files.set('/readme/hosted', {
    type: 'text/html; charset=utf-8',
    body: page(readmeBlock('hosted/page.html'), '/readme/hosted-run.mjs'),
  });
  merchant.files.set('/readme/hosted.mjs', js(readmeBlock('hosted/form.mjs')));
  merchant.files.set('/readme/page.css', { type: 'text/css', body: readmeBlock('hosted/page.css') });
  merchant.files.set(
    '/readme/hosted-run.mjs',
    js(`import { mountCheckout } from './hosted.mjs';\nwindow.form = mountCheckout(${client});\n`),
  );
  merchant.files.set('/readme/pending', {
    type: 'text/html; charset=utf-8',
    body: page('<div id="otp"></div>', '/readme/pending-run.mjs'),
  });
  merchant.files.set('/readme/pending.mjs', js(readmeBlock('pending/page.mjs')));
  merchant.files.set(
    '/readme/pending-run.mjs',
    js(`import { finish } from './pending.mjs';\nwindow.finish = (pending) => finish(pending, ${client});\n`),
  );
});
test.afterAll(() => merchant?.close());

test('hosted/page.html and hosted/form.mjs: the form mounts, the pay button follows it, and tokenize gives the card', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${merchant.url}/readme/hosted`);
  const pay = page.getByRole('button', { name: 'Pay' });
  await expect(pay).toBeDisabled();
  // What a person sees: a box with a border round each field, tall enough to type in (the frames' inputs have none).
  await expect(page.frameLocator('#card-name iframe').getByLabel('Name on card')).toBeEditable({ timeout: 15_000 });
  for (const id of ['card-number', 'card-expiry', 'card-cvv', 'card-name']) {
    expect(await page.locator(`#${id}`).evaluate((el) => getComputedStyle(el).borderTopStyle), id).toBe('solid');
    expect((await page.locator(`#${id}`).boundingBox())!.height, id).toBeGreaterThanOrEqual(40);
  }
  await page.screenshot({ path: test.info().outputPath('hosted-page.png') });
  for (const [id, label, text] of [
    ['card-number', 'Card number', '4111111111111111'],
    ['card-expiry', 'Expiry date', '1234'],
    ['card-cvv', 'Security code', '123'],
    ['card-name', 'Name on card', 'Ada Lovelace'],
  ]) {
    await page.frameLocator(`#${id} iframe`).getByLabel(label!).click();
    await page.keyboard.type(text!);
  }
  await expect(page.frameLocator('#card-number iframe').getByLabel('Card number')).toHaveAttribute('placeholder', '1234 5678 9012 3456');
  await pay.click();
  await expect(page.locator('output')).toHaveText('visa 1111 12/2034, Ada Lovelace: paying…', { timeout: 15_000 });
  await page.evaluate(() => (window as any).form.destroy());
  await expect(page.locator('iframe')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('pending/page.mjs renders pending/otp-form.html, and the right OTP approves the payment', async ({ page }) => {
  const card = testCards.otp;
  const payment = await merchant.gateway.payments.create({
    intent: 'sale',
    amount: { currency: 'USD', total: '25.00' },
    card: { number: card.number, expireMonth: card.expireMonth, expireYear: card.expireYear, cvv: card.cvv },
  });
  await page.goto(`${merchant.url}/readme/pending`);
  const outcome = page.evaluate((pending) => (window as any).finish(pending), toPending(payment));
  const otp = page.getByLabel('One-time password');
  await expect(otp).toBeFocused({ timeout: 15_000 });
  // The markup docs/pending.md shows, as rendered (whitespace between tags, attribute order and `=""` aside).
  const rendered = await page.locator('#otp').innerHTML();
  expect(normalise(rendered)).toBe(normalise(readmeBlock('pending/otp-form.html')));
  await page.keyboard.type(card.otp);
  await page.keyboard.press('Enter');
  expect(await outcome).toMatchObject({ status: 'approved', state: 'captured', code: '0000', referenceId: payment.reference_id });
});

/** HTML with each tag's attributes sorted, boolean ones bare, and no whitespace between tags. */
function normalise(html: string): string {
  return html
    .replace(/>\s+</g, '><')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/<(\w+)((?:\s+[\w-]+(?:="[^"]*")?)*)\s*>/g, (_, tag: string, attributes: string) => {
      const sorted = [...attributes.matchAll(/([\w-]+)(?:="([^"]*)")?/g)]
        .map(([, name, value]) => (value ? `${name}="${value}"` : name))
        .sort();
      return `<${[tag, ...sorted].join(' ')}>`;
    });
}
