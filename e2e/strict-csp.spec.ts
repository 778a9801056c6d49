// Issue 12, "Strict CSP": the merchant page under the hosted form's CSP with Trusted Types
// (support/merchant.ts: default-src 'self'; script-src 'self'; style-src 'self'; frame-src <frames>;
// connect-src 'self' <gateway>; require-trusted-types-for 'script'), and the frames under theirs
// (style-src 'none', trusted-types 'none'). Every flow of the hosted form runs once, and not one
// violation may happen anywhere: a listener in every document of the context, the console of every
// frame, and the reports the page's policy asks for (the Reporting API: sent by the whole browser, not
// by Chromium's headless shell, so the tests that read them are tagged @full-chromium). The pending
// helper's flows run under the same CSP in e2e/pending.spec.ts, whose tests check the console.
import { existsSync, readFileSync } from 'node:fs';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { testCards } from '../src/sandbox';
import { checkoutUrl, type Merchant, pageCsp, startMerchant } from './support/merchant';
import { fillCard, frameOf, input, openCheckout, recorded, typeInto } from './support/page';

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant({ testMode: true });
  const ttf = ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf'].find(
    existsSync,
  );
  merchant.files.set('/fonts/brand.woff2', {
    type: 'font/woff2',
    body: ttf ? readFileSync(ttf) : Buffer.from('not a font'),
    headers: { 'access-control-allow-origin': merchant.sandbox.url },
  });
});
test.afterAll(() => merchant?.close());

/** Every CSP violation in every document of the context (the frames' too), and CSP or Trusted Types console lines. */
async function watchCsp(context: BrowserContext, page: Page): Promise<string[]> {
  const seen: string[] = [];
  await context.exposeBinding('__cspViolation', (_, text: string) => void seen.push(text));
  await context.addInitScript(() => {
    document.addEventListener(
      'securitypolicyviolation',
      (e) => {
        void (window as any).__cspViolation(`${location.origin} ${e.violatedDirective} ${e.blockedURI}`);
      },
      true,
    );
  });
  page.on('console', (m) => /content security policy|trusted type/i.test(m.text()) && seen.push(`console ${m.type()}: ${m.text()}`));
  return seen;
}

const state = (page: Page) => page.evaluate(() => (window as any).form.getState());
const payButton = (page: Page) => page.getByRole('button', { name: 'Pay 25.00 USD' });
const CARD = { number: '4111111111111111', expiry: '1234', cvv: '123', name: 'Ada Lovelace' };

test(
  'every flow of the hosted form, under the strict CSP with Trusted Types: zero violations',
  { tag: '@full-chromium' },
  async ({ page, context }) => {
    test.setTimeout(180_000);
    const violations = await watchCsp(context, page);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: merchant.url });
    const reportsBefore = merchant.reports.length;
    const flows: string[] = [];
    const flow = (name: string, body: () => Promise<void>) =>
      test.step(name, async () => {
        await body();
        flows.push(name);
      });

    await flow('mount with styles and a web font', async () => {
      await openCheckout(page, merchant, { auto: '0' });
      await page.evaluate((base) => {
        const w = window as any;
        w.form = w.mount({
          styles: { base: { fontFamily: 'Brand, sans-serif', color: '#222' }, focus: { outline: 'none' } },
          fonts: [{ family: 'Brand', src: `${base}/fonts/brand.woff2` }],
        });
        return w.form.ready;
      }, merchant.url);
      await frameOf(page, 'number')
        .locator('input')
        .evaluate(() => document.fonts.ready);
    });
    await flow('type every field with the keyboard', async () => {
      await fillCard(page, CARD);
      await expect.poll(async () => (await state(page)).isValid).toBe(true);
    });
    await flow('paste a number from the clipboard', async () => {
      await page.evaluate(() => navigator.clipboard.writeText('5555-5555-5555-4444'));
      await input(page, 'number').click();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.press('ControlOrMeta+v');
      await expect(input(page, 'number')).toHaveValue('5555 5555 5555 4444');
    });
    await flow('Arabic-Indic digits, and backspace across a space', async () => {
      await input(page, 'number').fill('');
      await typeInto(page, 'number', '٤١١١١');
      await expect(input(page, 'number')).toHaveValue('4111 1');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('Backspace');
      await expect(input(page, 'number')).toHaveValue('4111');
    });
    await flow('an impossible number shows as invalid, with its error text in the frame', async () => {
      await input(page, 'number').fill('');
      await typeInto(page, 'number', '5555555555554445');
      await expect(input(page, 'number')).toHaveAccessibleDescription('Mastercard The card number is not valid.');
      await expect(page.locator('#card-number')).toHaveClass(/payframe-field--invalid/);
    });
    await flow("the page's label focuses a field, and Tab moves on", async () => {
      await page.getByText('Expiry date', { exact: true }).click();
      await expect(input(page, 'expiry')).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(input(page, 'cvv')).toBeFocused();
    });
    await flow('focus(), clear() and setPlaceholder() from the page', async () => {
      await page.evaluate(() => (window as any).form.focus('name'));
      await expect(input(page, 'name')).toBeFocused();
      await page.evaluate(() => (window as any).form.clear('number'));
      await expect(input(page, 'number')).toHaveValue('');
      await page.evaluate(() => (window as any).form.setPlaceholder('name', 'As on the card'));
      await expect(input(page, 'name')).toHaveAttribute('placeholder', 'As on the card');
    });
    await flow('tokenize() on an incomplete form marks the fields', async () => {
      expect(await page.evaluate(() => (window as any).form.tokenize().catch((e: any) => e.code))).toBe('invalid_card');
      await expect(input(page, 'number')).toHaveAttribute('aria-invalid', 'true');
    });
    await flow("setLocale('ar') and back to English", async () => {
      await page.evaluate(() => (window as any).form.setLocale('ar'));
      await expect(frameOf(page, 'expiry').locator('html')).toHaveAttribute('dir', 'rtl');
      await page.evaluate(() => (window as any).form.setLocale('en'));
      await expect(frameOf(page, 'expiry').locator('html')).toHaveAttribute('dir', 'ltr');
    });
    await flow('Enter in a field tokenises, and the sale is paid', async () => {
      await typeInto(page, 'number', CARD.number);
      await input(page, 'name').click();
      await page.keyboard.press('Enter');
      await expect(page.locator('#status')).toHaveText('Paid: captured visa 1111', { timeout: 15_000 });
    });
    await flow('a refused nonce request, then a paid retry', async () => {
      merchant.sandbox.injectFault({ method: 'POST', path: /credit-card-nonce$/, kind: 'error', times: 3 });
      await payButton(page).click();
      await expect(page.locator('#status')).toHaveText(/^server_error: /, { timeout: 15_000 });
      await payButton(page).click();
      await expect(page.locator('#status')).toHaveText('Paid: captured visa 1111', { timeout: 15_000 });
    });
    await flow('destroy(), then the StrictMode double mount, and a payment', async () => {
      await page.evaluate(() => {
        const w = window as any;
        w.form.destroy();
        w.mount().destroy();
        w.form = w.mount();
        return w.form.ready;
      });
      await fillCard(page, CARD);
      await payButton(page).click();
      await expect(page.locator('#status')).toHaveText('Paid: captured visa 1111', { timeout: 15_000 });
    });
    await flow('an abort while mounting, and a frame that never loads', async () => {
      const outcomes = await page.evaluate(async () => {
        const w = window as any;
        w.form.destroy();
        const abort = new AbortController();
        const aborted = w.mount({ signal: abort.signal });
        abort.abort();
        // The CVV frame never loads, as an extension blocking it would have it (set before the mount:
        // replacing the src afterwards races with a frame page already loaded from the cache).
        const src = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'src')!;
        Object.defineProperty(HTMLIFrameElement.prototype, 'src', {
          ...src,
          set(value: string) {
            src.set!.call(this, value.includes('field=cvv') ? 'about:blank' : value);
          },
        });
        const late = w.mount({ timeoutMs: 1500 });
        Object.defineProperty(HTMLIFrameElement.prototype, 'src', src);
        return Promise.all([aborted.ready.catch((e: any) => e.code), late.ready.catch((e: any) => e.code)]);
      });
      expect(outcomes).toEqual(['aborted', 'timeout']);
    });
    await flow('mount in Arabic, right to left, and pay', async () => {
      await openCheckout(page, merchant, { locale: 'ar' });
      for (const [field, text] of [
        ['number', CARD.number],
        ['expiry', '١٢٣٤'],
        ['cvv', CARD.cvv],
        ['name', 'عائشة'],
      ] as const) {
        await frameOf(page, field).locator('input').click();
        await page.keyboard.type(text);
      }
      await page.getByRole('button', { name: 'ادفع 25.00 دولار' }).click();
      await expect(page.locator('#status')).toHaveText('Paid: captured visa 1111', { timeout: 15_000 });
    });

    expect(flows).toHaveLength(14);
    expect((await recorded(page)).errors).toEqual([]);
    expect(violations).toEqual([]);
    expect(merchant.reports.slice(reportsBefore)).toEqual([]);
  },
);

// The script-tag bundle's pending flow is a file beside it (payframe.pending.umd.min.js), loaded at Pay once
// the nonce is there (docs/pending.md, "The script-tag bundle"): under each policy a merchant may write, the
// OTP form appears, its file asked for once and only after Pay, and not one violation happens.
const NONCE = 'bm9uY2Utb2YtdGhlLXBhZ2U';
const pendingPolicies = (m: Merchant): Record<string, string> => {
  const rest = ["default-src 'self'", "style-src 'self'", `frame-src ${m.sandbox.url}`, `connect-src 'self' ${m.sandbox.url}`];
  return {
    // Trusted Types required, no `trusted-types` directive: any policy name may be made.
    "script-src 'self'": pageCsp(m.sandbox.url),
    // The page's scripts by their nonce alone: the chunk's <script> carries the bundle's.
    "script-src 'nonce-…', trusted-types payframe": [
      ...rest,
      `script-src 'nonce-${NONCE}'`,
      "require-trusted-types-for 'script'",
      'trusted-types payframe',
    ].join('; '),
    "script-src 'nonce-…' 'strict-dynamic', trusted-types payframe": [
      ...rest,
      `script-src 'nonce-${NONCE}' 'strict-dynamic' https: 'unsafe-inline'`,
      "require-trusted-types-for 'script'",
      'trusted-types payframe',
    ].join('; '),
  };
};

/** The checkout under `csp`, its scripts carrying the nonce; answers the page's address. */
async function pendingCheckout(csp: string): Promise<string> {
  const html = readFileSync(new URL('support/checkout.html', import.meta.url), 'utf8').replaceAll('<script ', `<script nonce="${NONCE}" `);
  merchant.files.set('/pending', { type: 'text/html; charset=utf-8', body: html, headers: { 'content-security-policy': csp } });
  return checkoutUrl(merchant).replace('/?', '/pending?');
}

const OTP_CARD = { number: testCards.otp.number, expiry: `12${String(testCards.otp.expireYear).slice(2)}`, cvv: testCards.otp.cvv };
const APPROVED_CARD = { number: testCards.approved.number, expiry: '1234', cvv: '123' };
const isChunk = (url: string) => new URL(url).pathname === '/payframe.pending.umd.min.js';

/** The script-tag checkout under `csp`, its form ready, `card` typed into its frames. */
async function typedCheckout(page: Page, csp: string, card: typeof OTP_CARD): Promise<void> {
  await page.goto(await pendingCheckout(csp));
  await expect.poll(async () => (await recorded(page)).events.some(([event]) => event === 'ready'), { timeout: 15_000 }).toBe(true);
  await fillCard(page, { ...card, name: 'Ada Lovelace' });
}

/** Every address the page asks for from now on; answers those of the pending file. */
function chunksAsked(page: Page): () => string[] {
  const asked: string[] = [];
  page.on('request', (request) => void asked.push(request.url()));
  return () => asked.filter(isChunk);
}

for (const name of [
  "script-src 'self'",
  "script-src 'nonce-…', trusted-types payframe",
  "script-src 'nonce-…' 'strict-dynamic', trusted-types payframe",
]) {
  test(`a pending payment on the script-tag checkout under ${name}: the OTP form's file loads at Pay, once; zero violations`, async ({
    page,
    context,
  }) => {
    const violations = await watchCsp(context, page);
    const asked = chunksAsked(page);
    await typedCheckout(page, pendingPolicies(merchant)[name]!, OTP_CARD);
    expect(asked()).toEqual([]);

    await payButton(page).click();
    const otp = page.getByLabel('One-time password');
    await expect(otp).toBeFocused({ timeout: 15_000 });
    // One request more, beside the bundle, and only after Pay.
    expect(asked()).toEqual([expect.stringMatching(new RegExp(`^${merchant.url}/payframe\\.pending\\.umd\\.min\\.js\\?v=[0-9a-f]{12}$`))]);
    await otp.fill(testCards.otp.otp);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.locator('#status')).toHaveText('Paid: captured visa 1836', { timeout: 15_000 });
    expect(asked()).toHaveLength(1);
    expect((await recorded(page)).errors).toEqual([]);
    expect(violations).toEqual([]);
  });
}

test("an approved payment on the script-tag checkout: the OTP form's file is asked for at Pay, once per page; zero violations", async ({
  page,
  context,
}) => {
  const violations = await watchCsp(context, page);
  const asked = chunksAsked(page);
  await typedCheckout(page, pendingPolicies(merchant)["script-src 'nonce-…', trusted-types payframe"]!, APPROVED_CARD);
  expect(asked()).toEqual([]);
  // Pay: the nonce, then the file beside the bundle while the shop makes the payment, which no OTP needs.
  await payButton(page).click();
  await expect(page.locator('#status')).toHaveText(/^Paid: captured visa 1111/, { timeout: 15_000 });
  await expect.poll(asked).toHaveLength(1);
  // Paying again on the page asks for nothing more.
  const nonces = () => merchant.sandbox.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/credit-card-nonce')).length;
  const before = nonces();
  await payButton(page).click();
  await expect.poll(nonces).toBe(before + 1);
  await expect(page.locator('#status')).toHaveText(/^Paid: captured visa 1111/, { timeout: 15_000 });
  expect(asked()).toHaveLength(1);
  expect((await recorded(page)).errors).toEqual([]);
  expect(violations).toEqual([]);
});

test('a page that does not serve the file: its first Pay asks for it, the next Pay does not; both pay', async ({ page }) => {
  const asked: string[] = [];
  await page.route(
    (url) => isChunk(url.href),
    (route) => (asked.push(route.request().url()), route.fulfill({ status: 404, body: 'none here' })),
  );
  await typedCheckout(page, pendingPolicies(merchant)["script-src 'self'"]!, APPROVED_CARD);
  for (const pay of [1, 2]) {
    // The file is asked for as the nonce arrives, before the page posts it to its shop's /pay.
    const paid = page.waitForResponse((response) => new URL(response.url()).pathname === '/pay');
    await payButton(page).click();
    await paid;
    await expect(page.locator('#status')).toHaveText(/^Paid: captured visa 1111/, { timeout: 15_000 });
    expect(asked, `after Pay ${pay}`).toHaveLength(1);
  }
});

test('the file fails to load at Pay (a blip): handlePending asks for it again, and the OTP form shows on the same Pay', async ({
  page,
  context,
}) => {
  const violations = await watchCsp(context, page);
  const answered: number[] = [];
  // The first ask, Pay's, answered 503 once handlePending has been called (it joined that load on its
  // way); the next one, handlePending's own, gets the file.
  await page.route(
    (url) => isChunk(url.href),
    async (route) => {
      if (answered.push(answered.length ? 200 : 503) > 1) return route.continue();
      await page.waitForFunction(() => (window as any).pendingCalled === true);
      await route.fulfill({ status: 503, body: 'blip' });
    },
  );
  await typedCheckout(page, pendingPolicies(merchant)["script-src 'self'"]!, OTP_CARD);
  await page.evaluate(() => {
    const payframe = (window as any).Payframe;
    const handle = payframe.handlePending;
    payframe.handlePending = (...args: unknown[]) => (((window as any).pendingCalled = true), handle(...args));
  });
  await payButton(page).click();
  await expect(page.getByLabel('One-time password')).toBeFocused({ timeout: 15_000 });
  expect(answered).toEqual([503, 200]);
  expect(violations).toEqual([]);
});

test('a page whose Trusted Types allow no policy named payframe: handlePending says so (invalid_config), and nothing is drawn or asked for', async ({
  page,
  context,
}) => {
  const violations = await watchCsp(context, page);
  const asked = chunksAsked(page);
  const csp = pendingPolicies(merchant)["script-src 'nonce-…', trusted-types payframe"]!.replace(
    'trusted-types payframe',
    'trusted-types shop',
  );
  await typedCheckout(page, csp, OTP_CARD);
  await payButton(page).click();
  await expect(page.locator('#status')).toHaveText(
    'invalid_config: handlePending: Trusted Types refused payframe.pending.umd.min.js: the CSP must allow `trusted-types payframe`',
    { timeout: 15_000 },
  );
  await expect(page.locator('#otp')).toBeEmpty();
  expect(asked()).toEqual([]);
  // The browser reports both refusals to the merchant, once (at Pay, not again at handlePending): the policy's name, then the plain URL.
  const refusals = () => violations.filter((v) => !v.startsWith('console')).map((v) => v.split(' ')[1]);
  await expect.poll(refusals).toEqual(['trusted-types', 'require-trusted-types-for']);
  // And no second pair after it: the refusal at Pay is kept, handlePending does not ask again.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
  expect(refusals()).toEqual(['trusted-types', 'require-trusted-types-for']);
});

/** Breaks the policy once on the page and once in the CVV frame, as a stray inline style would. */
async function violate(page: Page) {
  await openCheckout(page, merchant);
  await page.evaluate(() => document.body.setAttribute('style', 'color: red'));
  await page
    .frames()
    .find((f) => f.url().includes('field=cvv'))!
    .evaluate(() => document.body.setAttribute('style', 'color: red'));
}

// The suites that watch the console alone (pending, React) rely on this: each violation is an error there.
test('the CSP watch does see a violation, on the page and in a frame, as an event and as a console error (so that zero means zero)', async ({
  page,
  context,
}) => {
  const violations = await watchCsp(context, page);
  await violate(page);
  // The frame's twice: it is under two policies, its host's header and its own page's meta, which
  // holds wherever the page is served (docs/security.md, "The frame page guards itself").
  await expect
    .poll(() => violations.filter((v) => !v.startsWith('console')).sort())
    .toEqual([
      `${merchant.sandbox.url} style-src-attr inline`,
      `${merchant.sandbox.url} style-src-attr inline`,
      `${merchant.url} style-src-attr inline`,
    ]);
  await expect.poll(() => violations.filter((v) => v.startsWith('console error: ') && /inline style/i.test(v)).length).toBe(3);
});

test(
  "a violation is reported to the page's report endpoint (so that no report means none)",
  { tag: '@full-chromium' },
  async ({ page }) => {
    const before = merchant.reports.length;
    await violate(page);
    await expect.poll(() => merchant.reports.length - before, { timeout: 10_000 }).toBeGreaterThan(0);
  },
);
