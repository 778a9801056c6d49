// The form's life on a real page: ready, destroy (twice), the StrictMode double mount, abort, a frame
// that never loads, tokenize() on an incomplete form, and a client token that expires mid-checkout.
import { expect, type Page, test } from '@playwright/test';
import { type Merchant, startMerchant } from './support/merchant';
import { fillCard, input, openCheckout, recorded } from './support/page';

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant({ testMode: true });
});
test.afterAll(() => merchant?.close());

const nonceRequests = () => merchant.sandbox.requests().filter((r) => r.path.endsWith('/credit-card-nonce') && r.method === 'POST').length;
const outcome = (page: Page, script: string) =>
  page.evaluate(`(${script})().then((v) => ({ ok: v }), (e) => ({ code: e.code, fields: e.fields, message: e.message }))`) as Promise<any>;

test('destroy removes every frame, class and listener, and a second destroy does nothing', async ({ page }) => {
  await openCheckout(page, merchant);
  await expect(page.locator('iframe')).toHaveCount(4);
  await page.evaluate(() => (window as any).form.destroy());
  await expect(page.locator('iframe')).toHaveCount(0);
  await expect(page.locator('.payframe-field')).toHaveCount(0);
  await page.evaluate(() => (window as any).form.destroy());
  expect(await outcome(page, '() => window.form.tokenize()')).toMatchObject({ code: 'aborted' });
  const events = (await recorded(page)).events.length;
  await page.locator('#card-number').click();
  expect((await recorded(page)).events.length).toBe(events);
  expect((await recorded(page)).errors).toEqual([]);
});

test('StrictMode: mount, destroy and mount again into the same containers in one tick leaves one working form', async ({ page }) => {
  await openCheckout(page, merchant, { auto: '0' });
  const first = await page.evaluate(() => {
    const w = window as any;
    const a = w.mount();
    const aReady = a.ready.then(
      () => 'ready',
      (e: any) => e.code,
    );
    a.destroy();
    w.form = w.mount();
    return aReady;
  });
  expect(first).toBe('aborted');
  await page.evaluate(() => (window as any).form.ready);
  await expect(page.locator('iframe')).toHaveCount(4);
  await fillCard(page, { number: '4111111111111111', expiry: '1234', cvv: '123', name: 'Ada Lovelace' });
  await page.keyboard.press('Enter');
  await expect(page.locator('#status')).toHaveText('Paid: captured visa 1111', { timeout: 15_000 });
  const { events, errors } = await recorded(page);
  expect(events.filter(([name]) => name === 'ready')).toHaveLength(1);
  expect(errors).toEqual([]);
});

test('a second mount into a container in use is refused, and changes nothing', async ({ page }) => {
  await openCheckout(page, merchant);
  expect(await outcome(page, 'async () => window.mount()')).toMatchObject({ code: 'invalid_config' });
  await expect(page.locator('iframe')).toHaveCount(4);
  await page.evaluate(() => (window as any).form.destroy());
  await page.evaluate(() => ((window as any).form = (window as any).mount()).ready);
  await expect(page.locator('iframe')).toHaveCount(4);
});

test('an abort while mounting removes the frames and rejects ready with aborted; after ready it destroys the form', async ({ page }) => {
  await openCheckout(page, merchant, { auto: '0' });
  expect(
    await page.evaluate(() => {
      const abort = new AbortController();
      const form = (window as any).mount({ signal: abort.signal });
      setTimeout(() => abort.abort(), 0);
      return form.ready.then(
        () => 'ready',
        (e: any) => e.code,
      );
    }),
  ).toBe('aborted');
  await expect(page.locator('iframe')).toHaveCount(0);
  await page.evaluate(async () => {
    const w = window as any;
    w.abort = new AbortController();
    w.form = w.mount({ signal: w.abort.signal });
    await w.form.ready;
  });
  await expect(page.locator('iframe')).toHaveCount(4);
  await page.evaluate(() => (window as any).abort.abort());
  await expect(page.locator('iframe')).toHaveCount(0);
  expect((await recorded(page)).errors).toEqual([]);
});

test('a frame blocked by an extension (left on about:blank) makes ready reject within seconds, network FRAME_NOT_ANSWERING naming that field, and the form is gone', async ({
  page,
}) => {
  await openCheckout(page, merchant, { auto: '0' });
  const error = await page.evaluate(() => {
    // As an extension blocking the frame would: the CVV frame's page is about:blank, where no frame speaks.
    // (Replacing its src after the mount raced with a cached frame page that had already loaded.)
    const src = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'src')!;
    Object.defineProperty(HTMLIFrameElement.prototype, 'src', {
      ...src,
      set(value: string) {
        src.set!.call(this, value.includes('field=cvv') ? 'about:blank' : value);
      },
    });
    const started = performance.now();
    const form = (window as any).mount({ timeoutMs: 60_000 });
    return form.ready.then(
      () => 'ready',
      (e: any) => ({ code: e.code, reason: e.reason, fields: e.fields, message: e.message, ms: performance.now() - started }),
    );
  });
  expect(error).toMatchObject({ code: 'network', reason: 'FRAME_NOT_ANSWERING', fields: ['cvv'] });
  expect(error.message).toContain('the cvv field: the page arrived from');
  expect(error.ms).toBeLessThan(20_000);
  await expect(page.locator('iframe')).toHaveCount(0);
  expect((await recorded(page)).events).toContainEqual(['error', null, 'network']);
});

test('tokenize() on an incomplete form names the fields, sends nothing and changes no value', async ({ page }) => {
  await openCheckout(page, merchant);
  await input(page, 'number').click();
  await page.keyboard.type('4111111111111111');
  await input(page, 'expiry').click();
  await page.keyboard.type('12');
  const before = nonceRequests();
  // The form fetched its client token when it was ready; the refused call fetches none more.
  await expect.poll(() => merchant.tokenRequests).toBeGreaterThan(0);
  const tokensBefore = merchant.tokenRequests;
  expect(await outcome(page, '() => window.form.tokenize()')).toMatchObject({ code: 'invalid_card', fields: ['expiry', 'cvv', 'name'] });
  expect(nonceRequests()).toBe(before);
  expect(merchant.tokenRequests).toBe(tokensBefore);
  await expect(input(page, 'number')).toHaveValue('4111 1111 1111 1111');
  await expect(input(page, 'expiry')).toHaveValue('12 / ');
  // The fields it names now show as invalid, the empty ones too.
  for (const id of ['#card-expiry', '#card-cvv', '#card-name']) await expect(page.locator(id)).toHaveClass(/payframe-field--invalid/);
  await expect(input(page, 'cvv')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#card-number')).not.toHaveClass(/payframe-field--invalid/);
});

test('a client token that expires mid-checkout: one refresh, one retry, a nonce; a failing refresh is a typed error, not a loop', async ({
  page,
}) => {
  await openCheckout(page, merchant);
  await fillCard(page, { number: '4111111111111111', expiry: '1234', cvv: '123', name: 'Ada Lovelace' });
  expect(await outcome(page, '() => window.form.tokenize()')).toHaveProperty('ok');
  // A day later on the gateway's clock, the page's token is refused (401).
  merchant.sandbox.advanceClock(25 * 3600_000);
  const tokens = merchant.tokenRequests;
  const nonces = nonceRequests();
  expect(await outcome(page, '() => window.form.tokenize()')).toHaveProperty('ok.last4', '1111');
  expect([merchant.tokenRequests - tokens, nonceRequests() - nonces]).toEqual([1, 2]);

  merchant.sandbox.advanceClock(25 * 3600_000);
  merchant.refuseTokens = true;
  try {
    const failed = await outcome(page, '() => window.form.tokenize()');
    expect(failed).toMatchObject({
      code: 'server_error',
      message: expect.stringMatching(/^the merchant's server answered an error instead of a client token/),
    });
    expect([merchant.tokenRequests - tokens, nonceRequests() - nonces]).toEqual([2, 3]);
  } finally {
    merchant.refuseTokens = false;
  }
  expect(await outcome(page, '() => window.form.tokenize()')).toHaveProperty('ok.last4', '1111');
});
