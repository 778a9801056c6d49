// `npm start` as a newcomer meets it: one printed block, pages that open in Chromium with no
// certificate to trust (this context does not ignore HTTPS errors) under the strict CSP, Ctrl-C,
// and a busy port.
import { createServer, type Server } from 'node:net';
import { expect, test } from '@playwright/test';
import { readmeBlock } from '../test/readme';
import { expectAccessible, launch, pay, refused, run, screenshot, useDemo, watchCsp } from './support/demo';
import { framesReady } from './support/demo-checkout';

test.use({ ignoreHTTPSErrors: false });

const demo = useDemo();

test('prints one short block: the pages, the test cards and the one-time password', async () => {
  const end = 'Ctrl-C stops everything.';
  const block = demo.output().slice(demo.output().indexOf('payframe demo:'), demo.output().indexOf(end) + end.length);
  const port = new URL(demo.shop).port;
  expect(block).toContain(`Checkout (script tag)   http://localhost:${port}/checkout`);
  expect(block).toContain(`Checkout (React)        http://localhost:${port}/spa/`);
  expect(block).toContain(`Your saved cards        http://localhost:${port}/account`);
  expect(block).toMatch(new RegExp(`\n  Back office             http://localhost:${port}/back-office#key=[0-9a-f]{32}\n`));
  expect(block).toMatch(/4111 1111 1111 1111 +approved/);
  expect(block).toMatch(/4000 0000 0000 0002 +declined/);
  expect(block).toMatch(/4644 2605 8166 1836 +asks for a one-time password/);
  expect(block).toContain('One-time password: 111111');
  expect(block.trim().split('\n').length).toBeLessThanOrEqual(16);
  // The README shows this very block, for the default ports; the staff key is new at each start.
  const shown = block
    .trim()
    .replaceAll(demo.shop, 'http://localhost:3000')
    .replaceAll(demo.sandbox, 'http://127.0.0.1:8443')
    .replace(/#key=[0-9a-f]{32}/, '#key=3f9a0c5e7b21d4869e0f1a2b3c4d5e6f');
  expect(shown).toBe(readmeBlock('npm-start.txt').trim());
  expect(demo.errors()).toBe('');
  // The sandbox it names answers over plain HTTP on loopback.
  expect(await (await fetch(`${demo.sandbox}/`)).json()).toEqual({ service: 'payframe sandbox' });
});

test('serves every page with the strict CSP, whose frame-src is the sandbox where the card frames live', async ({ request }) => {
  for (const path of ['/checkout', '/spa/', '/back-office', '/return']) {
    const response = await request.get(`${demo.shop}${path}`);
    expect(response.status(), path).toBe(200);
    expect(response.headers()['content-security-policy'], path).toBe(
      `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-src ${demo.sandbox}; connect-src 'self'; ` +
        "form-action 'self'; base-uri 'none'; frame-ancestors 'none'; require-trusted-types-for 'script'",
    );
  }
  expect((await request.get(`${demo.shop}/`, { maxRedirects: 0 })).headers()['location']).toBe('/checkout');
  expect((await request.get(`${demo.shop}/assets/../../package.json`)).status()).toBe(404);
  expect((await request.get(`${demo.shop}/demo/server/merchant.mjs`)).status()).toBe(404);
});

test('the script-tag checkout: order, language switch to Arabic right to left, 360 px, no CSP or axe violation', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000); // axe runs and full-page screenshots: near 30 s on two cores shared with other test runs
  const violations = await watchCsp(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${demo.shop}/checkout`);
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Order summary' })).toContainText('Total');
  await expect(page.getByRole('region', { name: 'Order summary' })).toContainText('OMR 13.750');
  await expect(page.getByRole('button', { name: 'Pay OMR 13.750' })).toBeDisabled();
  await expect(page.getByRole('radio', { name: /Pay now/ })).toBeChecked();
  // Each box holds one card frame of the sandbox's origin, named by the page's label; no card input is the page's own.
  for (const [id, label] of [
    ['card-number', 'Card number'],
    ['card-expiry', 'Expiry date'],
    ['card-cvv', 'Security code'],
    ['card-name', 'Name on card'],
  ]) {
    await expect(page.locator(`#${id} iframe`)).toHaveAttribute('src', new RegExp(`^${demo.sandbox}/frame/`));
    await expect(page.frameLocator(`#${id} iframe`).getByLabel(label!)).toBeEditable();
  }
  await expect(page.locator('#card-form-note')).toBeEmpty();
  await expect(page.locator('input[autocomplete^="cc-"]')).toHaveCount(0);
  await screenshot(page, testInfo, 'checkout-en');
  await expectNothing(violations);
  await expectAccessible(page);

  await page.getByRole('button', { name: 'العربية' }).press('Enter');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('إتمام الشراء');
  await expect(page.getByRole('button', { name: /^ادفع/ })).toContainText('ر.ع.');
  await expect(page.getByRole('button', { name: 'العربية' })).toHaveAttribute('aria-pressed', 'true');
  await framesReady(page, 'ar');
  await screenshot(page, testInfo, 'checkout-ar');
  await expectAccessible(page);

  // The choice is kept for the next page load; at 360 px nothing runs off the side.
  await page.setViewportSize({ width: 360, height: 780 });
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await framesReady(page, 'ar');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await screenshot(page, testInfo, 'checkout-ar-360');
  await page.getByRole('button', { name: 'English' }).click();
  await framesReady(page, 'en');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await screenshot(page, testInfo, 'checkout-en-360');
  await expectAccessible(page);
  await expectNothing(violations);
});

test('the React checkout in StrictMode: the same shell, in both languages, no CSP (Trusted Types) or axe violation', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000); // axe runs and full-page screenshots: near 30 s on two cores shared with other test runs
  const violations = await watchCsp(page);
  await page.goto(`${demo.shop}/spa/?lang=en`);
  await expect(page.getByRole('region', { name: 'Order summary' })).toContainText('OMR 13.750');
  await expect(page.getByRole('button', { name: 'Pay OMR 13.750' })).toBeDisabled();
  // StrictMode mounted, destroyed and mounted again: one frame per box.
  for (const id of ['card-number', 'card-expiry', 'card-cvv', 'card-name']) await expect(page.locator(`#${id} iframe`)).toHaveCount(1);
  await framesReady(page, 'en');
  await page.getByRole('radio', { name: /Reserve now/ }).check();
  await expect(page.getByRole('radio', { name: /Reserve now/ })).toBeChecked();
  await screenshot(page, testInfo, 'spa-en');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'العربية' }).click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('region', { name: 'ملخص الطلب' })).toBeVisible();
  await framesReady(page, 'ar');
  await screenshot(page, testInfo, 'spa-ar');
  await expectAccessible(page);
  await expectNothing(violations);
});

test('a returning payer finds only the cards they asked to keep, by email, and chooses one: its CVV box appears', async ({ page }) => {
  const request = page.context().request; // the page's browser: saved cards are offered to the browser that saved them
  await pay(request, demo, { intent: 'sale', email: 'returning@example.com', saveCard: true });
  await pay(request, demo, { intent: 'sale', email: 'once@example.com' }); // paid once, not kept for the payer
  const violations = await watchCsp(page);
  await page.goto(`${demo.shop}/checkout?lang=en`);
  const email = page.getByRole('textbox', { name: 'Email' });
  await email.fill('not an email');
  await page.getByRole('button', { name: 'Find my saved cards' }).click();
  await expect(page.getByText('Enter a valid email address.')).toBeVisible();
  await email.fill('once@example.com');
  await email.press('Tab');
  await page.keyboard.press('Enter'); // the focused "Find my saved cards" button
  await expect(page.getByText('No saved cards for this email.')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Pay with' })).toBeHidden();

  await email.fill('Returning@Example.com');
  await page.getByRole('button', { name: 'Find my saved cards' }).click();
  await expect(page.getByText('Saved cards found: 1. Choose one below.')).toBeVisible();
  await page.getByRole('radio', { name: /Visa ending in 1111/ }).check();
  await expect(page.getByText('Expires 12/34')).toBeVisible();
  const cvvBox = page.locator('#saved-card-cvv');
  await expect(cvvBox).toBeVisible();
  await expect(page.locator('label[for="saved-card-cvv"]')).toHaveText('Security code of the Visa ending in 1111');
  await expect(page.frameLocator('#saved-card-cvv iframe').getByLabel('Security code of the Visa ending in 1111')).toBeEditable();
  await expect(page.getByRole('group', { name: 'Card details' })).toBeHidden();
  await expectAccessible(page);
  await page.getByRole('radio', { name: /A new card/ }).check();
  await expect(page.getByRole('group', { name: 'Card details' })).toBeVisible();
  await expectNothing(violations);
});

test('the back office and the return page load clean too', async ({ page }, testInfo) => {
  const violations = await watchCsp(page);
  await page.goto(demo.backOffice);
  await expect(page.getByRole('heading', { level: 1, name: 'Back office' })).toBeVisible();
  await expect(page.getByRole('table', { name: /Choose a payment/ })).toBeVisible(); // shown only once the staff cookie is taken
  expect(page.url()).toBe(`${demo.shop}/back-office`);
  await expectAccessible(page);
  await page.goto(`${demo.shop}/return`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('We could not check your payment');
  await expect(page.getByRole('status')).toContainText('This address has none.');
  await screenshot(page, testInfo, 'return-without-session');
  await expectAccessible(page);
  await expectNothing(violations);
});

async function expectNothing(violations: () => Promise<string[]>) {
  expect(await violations()).toEqual([]);
}

test.describe('stopping and ports', () => {
  let blocker: Server | undefined;
  test.afterEach(() => void blocker?.close());

  test('Ctrl-C stops the shop and the sandbox cleanly', async () => {
    test.setTimeout(60_000);
    const own = await launch();
    own.child.kill('SIGINT');
    expect(await own.exited).toBe(0);
    expect(own.output()).toContain('payframe demo stopped.');
    expect(await refused(`${own.shop}/checkout`)).toBe(true);
    expect(await refused(`${own.sandbox}/`)).toBe(true);
  });

  test('the shop server prints each call to the service, and why a route failed where the page reads a generic 502', async ({
    request,
  }) => {
    test.setTimeout(60_000);
    const own = await launch(['--test-mode']);
    try {
      await pay(request, own, { intent: 'sale' });
      const lines = () =>
        own
          .output()
          .split('\n')
          .filter((line) => line.startsWith('payframe: '));
      await expect
        .poll(lines)
        .toContainEqual(expect.stringMatching(/^payframe: POST \/v1\/merchants\/sandbox-merchant\/payment: 200 in \d+ ms$/));

      const fault = await request.post(`${own.sandbox}/__sandbox/fault`, {
        data: { kind: 'error', method: 'POST', path: '/v1/merchants/sandbox-merchant/client_token' },
      });
      expect(fault.status()).toBe(200);
      const token = await request.post(`${own.shop}/api/client-token`);
      expect(token.status()).toBe(502);
      expect((await token.json()).error.message).toBe('the payment service failed or refused this server');
      await expect
        .poll(lines)
        .toContainEqual(
          expect.stringMatching(
            /^payframe: handlers\.clientToken\(\) answered 502: server_error: POST \/v1\/merchants\/sandbox-merchant\/client_token: INTERNAL_ERROR \(service event [\da-f-]{36}\)$/,
          ),
        );
      expect(own.errors()).toBe('');
    } finally {
      own.child.kill('SIGTERM');
      await own.exited;
    }
  });

  test('busy ports are named all at once, each with the flag that moves it', async () => {
    test.setTimeout(60_000);
    const blockers = [createServer(), createServer()];
    try {
      const ports = await Promise.all(
        blockers.map(
          (b) => new Promise<string>((resolve) => b.listen(0, '127.0.0.1', () => resolve(String((b.address() as { port: number }).port)))),
        ),
      );
      const cli = run(['--port', ports[0]!, '--sandbox-port', ports[1]!]);
      expect(await cli.exited).toBe(1);
      expect(cli.errors().trim().split('\n')).toEqual([
        `Port ${ports[0]} is already in use: stop what uses it, or choose another port with --port N.`,
        `Port ${ports[1]} is already in use: stop what uses it, or choose another port with --sandbox-port N.`,
      ]);
      expect(cli.output()).toBe('');
    } finally {
      for (const blocker of blockers) blocker.close();
    }
  });

  test('a busy port is one clear line, for the shop and for the sandbox', async () => {
    test.setTimeout(60_000);
    blocker = createServer();
    await new Promise<void>((resolve) => blocker!.listen(0, '127.0.0.1', resolve));
    const busy = String((blocker.address() as { port: number }).port);
    for (const flag of ['--port', '--sandbox-port']) {
      const other = flag === '--port' ? '--sandbox-port' : '--port';
      const cli = run([flag, busy, other, '0']);
      expect(await cli.exited, flag).toBe(1);
      const lines = cli.errors().trim().split('\n');
      expect(lines, flag).toEqual([`Port ${busy} is already in use: stop what uses it, or choose another port with ${flag} N.`]);
    }
  });

  test('a bad option prints the usage', async () => {
    const cli = run(['--port', 'eighty']);
    expect(await cli.exited).toBe(2);
    expect(cli.errors()).toContain('--port must be a number from 0 to 65535, not "eighty"');
    const unknown = run(['--colour']);
    expect(await unknown.exited).toBe(2);
    expect(unknown.errors()).toContain('Usage: npm start --');
    const same = run(['--port', '4321', '--sandbox-port', '4321']);
    expect(await same.exited).toBe(2);
    expect(same.errors()).toMatch(/^--port and --sandbox-port must be two ports, not both 4321\n\nUsage: npm start --/);
  });
});
