// Pending payments end to end in Chromium: the merchant's page on https://localhost (strict CSP with
// Trusted Types) finishes a real sandbox payment with the OTP form or the redirect, driven as a
// person would, by labels, roles and the keyboard. The OTP form in Arabic is a flow of every engine
// (e2e/engines/pending.flow.ts); its keyboard and redirect flows run there in Firefox and WebKit only,
// as Chromium plays them here. axe-core and the screenshots stay here.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { type SandboxHandle, testCards } from '../src/sandbox';
import { createGateway, type Gateway } from '../src/server';
import { type Shop, startShop } from './support/pending-shop';
import { watchOtpForm } from './support/otp-watch';
import { startSandbox } from './support/tls';

let sandbox: SandboxHandle;
let gateway: Gateway;
let shop: Shop;

test.beforeAll(async () => {
  sandbox = await startSandbox();
  const { id, clientId, clientSecret } = sandbox.merchant;
  gateway = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: sandbox.url });
  shop = await startShop(sandbox);
});

test.afterAll(async () => {
  await shop?.close();
  await sandbox?.close();
});

/** CSP violations and page errors on every page of the test, the sandbox's included. */
let problems: string[];

test.beforeEach(async ({ page }) => {
  problems = [];
  await page.exposeFunction('reportViolation', (text: string) => problems.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { reportViolation(text: string): void }).reportViolation(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // Chromium logs every 4xx it receives ("Failed to load resource"): the tests assert those answers.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(`console: ${message.text()}`);
  });
});

test.afterEach(() => {
  expect(problems).toEqual([]);
});

type Checkout = { card: 'otp' | 'redirectOnly'; intent: 'auth' | 'sale'; mode: 'otp' | 'redirect' | 'auto'; lang?: 'en' | 'ar' };

async function checkout(page: Page, { card, intent, mode, lang = 'en' }: Checkout) {
  const query = new URLSearchParams({ merchant: sandbox.merchant.id, gateway: sandbox.url, card, intent, mode, lang });
  await page.goto(`${shop.url}/?${query}`);
  await expect(page.getByRole('button', { name: lang === 'ar' ? 'ادفع' : 'Pay' })).toBeEnabled();
}

const result = (page: Page) => page.locator('#result');
const otpInput = (page: Page, name = 'One-time password') => page.getByRole('textbox', { name });
const confirm = (page: Page, name = 'Confirm') => page.getByRole('button', { name });

/** The reference id of the payment the shop created last. */
const lastPayment = () => [...shop.payments.keys()].at(-1)!;

test('a sale with the OTP card: the inline form, OTP 111111 confirmed by the keyboard, captured with its actions', async ({ page }) => {
  await checkout(page, { card: 'otp', intent: 'sale', mode: 'otp' });
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(otpInput(page)).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: 'Enter the code your bank sent you.' })).toBeVisible();
  await otpInput(page).fill(testCards.otp.otp);
  await page.keyboard.press('Tab');
  await expect(confirm(page)).toBeFocused();
  await page.keyboard.press('Enter');

  const confirmed = page.getByRole('status').filter({ hasText: 'Payment confirmed.' });
  await expect(confirmed).toBeVisible();
  // The finished form hands the focus to its status line: a keyboard user is not dropped at the page's top.
  await expect(confirmed).toBeFocused();
  await expect(result(page)).toHaveText('approved: captured 0000');
  await expect(otpInput(page)).toBeDisabled();
  const payment = await gateway.payments.get(lastPayment());
  expect(payment.state).toBe('captured');
  expect(payment.result.actions).toMatchObject({ authorization: { state: 'authorised' }, capture: { state: 'captured', code: '0000' } });
});

test('an auth with OTP: authorised in the page, captured later by the merchant', async ({ page }) => {
  await checkout(page, { card: 'otp', intent: 'auth', mode: 'auto' });
  await page.getByRole('button', { name: 'Pay' }).click();
  await otpInput(page).fill(testCards.otp.otp);
  await otpInput(page).press('Enter');
  await expect(result(page)).toHaveText('approved: authorised 0000');
  const capture = await gateway.payments.capture(lastPayment());
  expect(capture.state).toBe('captured');
  expect((await gateway.payments.get(lastPayment())).state).toBe('captured');
});

test('a wrong OTP declines the payment (1202); a second try on the used session is told that outcome, and changes nothing', async ({
  page,
}, testInfo) => {
  await checkout(page, { card: 'otp', intent: 'sale', mode: 'otp' });
  await page.getByRole('button', { name: 'Pay' }).click();
  await otpInput(page).fill('12');
  await confirm(page).click();
  await expect(page.getByText('Enter the 4 to 8 digit code.')).toBeVisible();
  await expect(otpInput(page)).toHaveAttribute('aria-invalid', 'true');
  await expect(otpInput(page)).toBeFocused();
  await page.screenshot({ path: testInfo.outputPath('otp-error-en.png') });

  await otpInput(page).fill('222222');
  await confirm(page).click();
  await expect(page.getByText('Wrong code: the payment was declined.')).toBeVisible();
  await expect(result(page)).toHaveText('declined: declined 1202');
  expect((await gateway.payments.get(lastPayment())).state).toBe('declined');

  // The same pending payment again (a second tab, a replay): the session is used up, and the merchant's
  // route answers how the payment ended rather than "expired" (a payer whose first answer was lost is not
  // sent to pay twice); the right code now changes nothing.
  await page.evaluate(() => {
    const { Payframe, checkoutPending } = window as unknown as { Payframe: any; checkoutPending: unknown };
    const client = Payframe.createClient({ merchantId: 'm', baseUrl: 'https://127.0.0.1', authorization: 'unused' });
    const post = (body: unknown) =>
      fetch('/authenticate', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) =>
        r.json(),
      );
    document.getElementById('result')!.textContent = '';
    Payframe.handlePending(checkoutPending, { client, mode: 'otp', container: '#otp', submitOtp: post }).then(
      (outcome: any) => (document.getElementById('result')!.textContent = `again: ${outcome.status} ${outcome.code}`),
      (error: any) => (document.getElementById('result')!.textContent = `${error.code} ${error.reason}`),
    );
  });
  await otpInput(page).fill('111111');
  await confirm(page).click();
  await expect(result(page)).toHaveText('again: declined 1202');
  expect((await gateway.payments.get(lastPayment())).state).toBe('declined');
});

test('another payer cannot finish this payment: the authorize hook answers 403', async ({ page, browser }) => {
  await checkout(page, { card: 'otp', intent: 'sale', mode: 'otp' });
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(otpInput(page)).toBeFocused();
  const { referenceId, sessionId } = await page.evaluate(
    () => (window as unknown as { checkoutPending: { referenceId: string; sessionId: string } }).checkoutPending,
  );

  const other = await browser.newPage({ ignoreHTTPSErrors: true });
  try {
    await other.goto(`${shop.url}/return`);
    const answer = await other.evaluate(
      async (body) => {
        const response = await fetch('/authenticate', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: response.status, body: await response.json() };
      },
      { referenceId, sessionId, otp: '111111' },
    );
    expect(answer).toEqual({ status: 403, body: { error: { code: 'forbidden', message: expect.any(String) } } });
  } finally {
    await other.close();
  }
  expect((await gateway.payments.get(lastPayment())).state).toBe('pending');
  await otpInput(page).fill('111111');
  await confirm(page).click();
  await expect(result(page)).toHaveText('approved: captured 0000');
});

test('the redirect-only card in auto mode goes to the bank’s page at once: no OTP form is ever drawn', async ({ page }) => {
  const drawn = await watchOtpForm(page);
  await checkout(page, { card: 'redirectOnly', intent: 'sale', mode: 'auto' });
  await page.getByRole('button', { name: 'Pay' }).click();
  await page.waitForURL((url) => url.href.startsWith(`${sandbox.url}/v1/redirect/`));
  const { sessionId } = shop.payments.get(lastPayment())!;
  expect(page.url()).toBe(`${sandbox.url}/v1/redirect/${sessionId}`);
  expect(drawn()).toBe(false);
  await expect(page.getByRole('heading', { name: 'Confirm your payment' })).toBeVisible();
  expect((await gateway.payments.get(lastPayment())).state).toBe('pending');
});

test('the domestic card in auto mode gets the OTP form', async ({ page }) => {
  const drawn = await watchOtpForm(page);
  await checkout(page, { card: 'otp', intent: 'sale', mode: 'auto' });
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(otpInput(page)).toBeFocused();
  expect(drawn()).toBe(true);
  await otpInput(page).fill(testCards.otp.otp);
  await confirm(page).click();
  await expect(result(page)).toHaveText('approved: captured 0000');
});

test('an older server (no otp in its pending answer): the form first, then the service refusal sends the payer to the bank', async ({
  page,
}) => {
  await checkout(page, { card: 'redirectOnly', intent: 'sale', mode: 'auto' });
  shop.answerAsOlderServer();
  await page.getByRole('button', { name: 'Pay' }).click();
  await otpInput(page).fill(testCards.redirectOnly.otp);
  await confirm(page).click();
  const { sessionId } = shop.payments.get(lastPayment())!;
  await page.waitForURL(`${sandbox.url}/v1/redirect/${sessionId}`);
  await expect(page.getByRole('heading', { name: 'Confirm your payment' })).toBeVisible();
  expect((await gateway.payments.get(lastPayment())).state).toBe('pending');
});

test('the redirect flow: the sandbox page, the OTP, back on the return page, the session read on the server', async ({ page }) => {
  await checkout(page, { card: 'redirectOnly', intent: 'sale', mode: 'redirect' });
  await page.getByRole('button', { name: 'Pay' }).click();
  // The payment exists once the page has left for the bank's: read it then, not at the click.
  await page.waitForURL((url) => url.href.startsWith(`${sandbox.url}/v1/redirect/`));
  const { sessionId } = shop.payments.get(lastPayment())!;
  expect(page.url()).toBe(`${sandbox.url}/v1/redirect/${sessionId}`);

  // A malformed OTP on the issuer's page is refused and leaves the session usable.
  await page.getByLabel('One-time password').fill('11111l');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('alert')).toHaveText('The one-time password is 4 to 8 digits.');
  await page.getByLabel('One-time password').fill(testCards.redirectOnly.otp);
  await page.getByRole('button', { name: 'Confirm' }).click();

  await page.waitForURL(`${shop.url}/return?payment-session-id=${sessionId}`);
  await expect(page.getByRole('status')).toHaveText('Payment captured (0000)');
  const payment = await gateway.payments.session(sessionId!);
  expect(payment.state).toBe('captured');
  expect(payment.result.actions?.capture?.state).toBe('captured');
});

test('the return page refuses a URL without a session id', async ({ page }) => {
  await page.goto(`${shop.url}/return?payment-session-id=../../v1/x`);
  await expect(page.getByRole('status')).toHaveText('No payment to show (invalid_request)');
});

test('every unsafe redirectUrl is refused: unsafe_url, and the page stays where it is', async ({ page }) => {
  const port = new URL(sandbox.url).port;
  const unsafe: ((id: string) => string)[] = [
    (id) => `https://evil.test:${port}/v1/redirect/${id}`,
    (id) => `https://localhost:${port}/v1/redirect/${id}`,
    (id) => `https://127.0.0.1.evil.test:${port}/v1/redirect/${id}`,
    (id) => `https://127.0.0.1:${port}@evil.test/v1/redirect/${id}`,
    (id) => `https://payer:secret@127.0.0.1:${port}/v1/redirect/${id}`,
    (id) => `http://127.0.0.1:${port}/v1/redirect/${id}`,
    (id) => `javascript:alert(document.domain)//${sandbox.url}/v1/redirect/${id}`,
    (id) => `data:text/html,<h1>${sandbox.url}/v1/redirect/${id}</h1>`,
    (id) => `https://xn--127-0-0-1-3bb.test:${port}/v1/redirect/${id}`,
    (id) => `JAVASCRIPT:location='${sandbox.url}/v1/redirect/${id}'`,
    (id) => `blob:${sandbox.url}/v1/redirect/${id}`,
    (id) => `${sandbox.url}/v1/redirect/../authenticate/${id}`,
    (id) => `${sandbox.url}/v1/authenticate/${id}`,
    () => `${sandbox.url}/v1/redirect/${'0'.repeat(32)}`,
  ];
  const navigations: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations.push(frame.url());
  });
  for (const mode of ['redirect', 'auto'] as const) {
    for (const forge of unsafe) {
      await checkout(page, { card: 'redirectOnly', intent: 'sale', mode });
      const before = page.url();
      navigations.length = 0;
      shop.forgeRedirectUrl(({ sessionId }) => forge(sessionId));
      await page.getByRole('button', { name: 'Pay' }).click();
      await expect(result(page), forge('ID')).toHaveText('unsafe_url');
      expect(page.url()).toBe(before);
      expect(navigations).toEqual([]);
      await expect(page.locator('#otp')).toBeEmpty();
      expect((await gateway.payments.get(lastPayment())).state).toBe('pending');
    }
  }
});

test("the script-tag bundle's pending flow, beside it: unreachable, then tampered with, each refused as network with nothing drawn; the right file then loads", async ({
  page,
}) => {
  const built = shop.chunk!;
  const asked: string[] = [];
  page.on('request', (request) => request.url().includes('/payframe.pending.umd.min.js') && asked.push(request.url()));
  // Again on the same page, with the same pending payment: the page's own code keeps it (checkoutPending).
  const again = () =>
    page.evaluate(() => {
      const { Payframe, checkoutPending } = window as unknown as { Payframe: any; checkoutPending: unknown };
      const client = Payframe.createClient({ merchantId: 'm', baseUrl: 'https://127.0.0.1', authorization: 'unused' });
      const post = (body: unknown) =>
        fetch('/authenticate', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) =>
          r.json(),
        );
      const result = document.getElementById('result')!;
      result.textContent = '';
      return Payframe.handlePending(checkoutPending, { client, mode: 'otp', container: '#otp', submitOtp: post }).then(
        (outcome: any) => (result.textContent = `${outcome.status}: ${outcome.state} ${outcome.code}`),
        (error: any) => (result.textContent = `${error.code}: ${error.message}`),
      );
    });
  const nothingLeft = async () => {
    await expect(page.locator('#otp')).toBeEmpty();
    expect(await page.locator('script').evaluateAll((all) => all.map((s) => (s as HTMLScriptElement).src))).toEqual([
      `${shop.url}/payframe.umd.min.js`,
      `${shop.url}/checkout.js`,
    ]);
  };
  try {
    // Unreachable (a deploy in between, a blip): the server answers 503.
    shop.chunk = null;
    await checkout(page, { card: 'otp', intent: 'sale', mode: 'otp' });
    expect(asked).toEqual([]);
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect(result(page)).toHaveText('network');
    await nothingLeft();
    // And again: the failure was not kept, the file is asked for anew.
    await again();
    await expect(result(page)).toHaveText(
      /^network: handlePending: https:\/\/localhost:\d+\/payframe\.pending\.umd\.min\.js\?v=[0-9a-f]{12} did not load: /,
    );
    await nothingLeft();

    // Another file than the one this bundle was built with: the same code, and one statement more,
    // which would run first. The browser refuses it by its digest; not a line of it runs.
    shop.chunk = `window.tampered = true;\n${built}`;
    await again();
    await expect(result(page)).toHaveText(/^network: handlePending: .* did not load: .*\(integrity\)$/);
    expect(await page.evaluate(() => (window as any).tampered)).toBeUndefined();
    await nothingLeft();
    const refused = problems.filter((p) => p.includes("Failed to find a valid digest in the 'integrity' attribute"));
    expect(refused).toHaveLength(1);
    problems = problems.filter((p) => !refused.includes(p));

    // The right file: the next call loads it, and the payment is finished.
    shop.chunk = built;
    void again();
    await otpInput(page).fill(testCards.otp.otp);
    await confirm(page).click();
    await expect(result(page)).toHaveText('approved: captured 0000');
    // One request per call, each for the same address; none before the first call (this shop has no card
    // form: nothing is fetched at its Pay).
    expect(asked).toHaveLength(4);
    expect(new Set(asked).size).toBe(1);
    // Its errors are the bundle's one error class (a merchant's `instanceof` holds), and it is not asked for again.
    const refusal = await page.evaluate(() => {
      const { Payframe } = window as unknown as { Payframe: any };
      return Payframe.handlePending({}, { client: {} }).catch((e: unknown) => [e instanceof Payframe.PayframeError, (e as any).code]);
    });
    expect(refusal).toEqual([true, 'invalid_config']);
    expect(asked).toHaveLength(4);
  } finally {
    shop.chunk = built;
  }
});

test('the OTP form passes axe-core, in English and in Arabic', async ({ page }, testInfo) => {
  for (const lang of ['en', 'ar'] as const) {
    await checkout(page, { card: 'otp', intent: 'sale', mode: 'otp', lang });
    await page.getByRole('button', { name: lang === 'ar' ? 'ادفع' : 'Pay' }).click();
    await expect(page.locator('form.payframe-otp')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`otp-${lang}.png`) });
    // The CSP check of this page is done before axe, whose own injected code is not the page's.
    expect(problems).toEqual([]);
    const { violations } = await new AxeBuilder({ page }).include('form.payframe-otp').analyze();
    expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    problems = [];
  }
});
