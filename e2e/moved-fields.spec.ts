// A field's container moved in the document (the merchant's layout drawn again): the browser makes its
// iframe anew, in a new window, empty. The page hears the new frame, says the field is empty, and a Pay
// pays what the payer typed into the new frame, never what the frame before it held.
import { expect, type Page, test } from '@playwright/test';
import { type Merchant, startMerchant } from './support/merchant';
import { type Field, fillCard, input, openCheckout } from './support/page';
import { expectNoCardData, recordMerchant } from './support/recorder';

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant();
});
test.afterAll(() => merchant?.close());

const nonceRequests = () => merchant.sandbox.requests().filter((r) => r.path.endsWith('/credit-card-nonce') && r.method === 'POST').length;
const tokenize = (page: Page) =>
  page.evaluate(() =>
    (window as any).form.tokenize().then(
      (r: any) => ({ last4: r.last4, name: r.name }),
      (e: any) => ({ code: e.code, fields: e.fields }),
    ),
  );
const fieldState = (page: Page, field: Field) => page.evaluate((f) => (window as any).form.getState().fields[f], field);

/** Moves the field's container to the end of its parent, as a layout drawn again would; resolves once its frame loaded anew. */
async function move(page: Page, field: Field) {
  const loaded = page.waitForEvent('framenavigated', (f) => f.url().includes(`field=${field}`));
  await page.evaluate((f) => {
    const container = document.querySelector(`#card-${f}`)!;
    container.parentElement!.append(container);
  }, field);
  await loaded;
  await expect(input(page, field)).toHaveValue('');
}

test('the CVV moved: the page says it is empty, a Pay names it and sends nothing; typed again, the card pays', async ({ page }) => {
  const recorder = await recordMerchant(page);
  await openCheckout(page, merchant);
  await fillCard(page, { number: '4111111111111111', expiry: '1234', cvv: '123', name: 'Ada Lovelace' });
  await expect.poll(() => page.evaluate(() => (window as any).form.getState().isValid)).toBe(true);
  await move(page, 'cvv');
  await expect.poll(() => fieldState(page, 'cvv')).toMatchObject({ isEmpty: true, isValid: false });
  const before = nonceRequests();
  expect(await tokenize(page)).toEqual({ code: 'invalid_card', fields: ['cvv'] });
  expect(nonceRequests()).toBe(before);

  await input(page, 'cvv').click();
  await page.keyboard.type('456');
  await expect.poll(() => fieldState(page, 'cvv')).toMatchObject({ isValid: true });
  expect(await tokenize(page)).toEqual({ last4: '1111', name: 'Ada Lovelace' });
  // The frame made anew keeps the card from the page as the first one did.
  await expectNoCardData(recorder, { number: '4111111111111111', cvv: '456' });
});

test('the number moved: the card typed into the new frame pays at once (the page hears the new frame)', async ({ page }) => {
  await openCheckout(page, merchant);
  await fillCard(page, { number: '4111111111111111', expiry: '1234', cvv: '123', name: 'Ada Lovelace' });
  await move(page, 'number');
  await expect.poll(() => fieldState(page, 'number')).toMatchObject({ isEmpty: true });
  await input(page, 'number').click();
  await page.keyboard.type('5555555555554444');
  await expect.poll(() => page.evaluate(() => (window as any).form.getState().isValid)).toBe(true);
  expect(await tokenize(page)).toEqual({ last4: '4444', name: 'Ada Lovelace' });
});

test('the name moved and its new frame is slow on the frames’ channel: a Pay waits for the new name, never pays the old', async ({
  page,
  context,
}) => {
  // A name frame that starts while the tab's flag is set holds its posts on the frames' channel until released.
  await context.addInitScript(() => {
    if (new URLSearchParams(location.search).get('field') !== 'name' || sessionStorage.getItem('hold') !== '1') return;
    const held: (() => void)[] = [];
    const post = BroadcastChannel.prototype.postMessage;
    BroadcastChannel.prototype.postMessage = function (this: BroadcastChannel, m: unknown) {
      held.push(() => post.call(this, m));
    };
    Object.assign(window, { held: () => held.length, release: () => held.splice(0).forEach((send) => send()) });
  });
  await openCheckout(page, merchant);
  await fillCard(page, { number: '4111111111111111', expiry: '1234', cvv: '123', name: 'Ada Lovelace' });
  await expect.poll(() => page.evaluate(() => (window as any).form.getState().isValid)).toBe(true);
  const nameFrame = () => page.frames().find((f) => f.url().includes('field=name'))!;
  await nameFrame().evaluate(() => sessionStorage.setItem('hold', '1'));
  await move(page, 'name');
  await input(page, 'name').click();
  await page.keyboard.type('Bob');
  await expect.poll(() => fieldState(page, 'name')).toMatchObject({ isValid: true });
  await expect.poll(() => nameFrame().evaluate(() => (window as any).held())).toBeGreaterThanOrEqual(3); // its 3 keys

  await page.evaluate(() => {
    const paying = (window as any).form.tokenize();
    Object.assign(window, { paying, settled: false });
    paying.finally(() => Object.assign(window, { settled: true })).catch(() => undefined);
  });
  // Until the number frame asked for the new name (its answer held too), or the Pay settled without it.
  const waited = async () =>
    (await page.evaluate(() => (window as any).settled)) || (await nameFrame().evaluate(() => (window as any).held())) >= 4;
  await expect.poll(waited).toBe(true);
  await nameFrame().evaluate(() => (window as any).release());
  const paid = await page.evaluate(() => (window as any).paying.then((r: any) => ({ last4: r.last4, name: r.name })));
  expect(paid).toEqual({ last4: '1111', name: 'Bob' });
});

test('the name moved while a Pay waits for its client token: invalid_card naming it, nothing sent; typed again, it pays', async ({
  page,
}) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/client-token', async (route) => {
    await held;
    await route.continue();
  });
  await openCheckout(page, merchant);
  await fillCard(page, { number: '4111111111111111', expiry: '1234', cvv: '123', name: 'Ada Lovelace' });
  await expect.poll(() => page.evaluate(() => (window as any).form.getState().isValid)).toBe(true);
  const before = nonceRequests();
  await page.evaluate(() => Object.assign(window, { paying: (window as any).form.tokenize() }));
  await move(page, 'name');
  await expect.poll(() => fieldState(page, 'name')).toMatchObject({ isEmpty: true });
  release();
  const outcome = await page.evaluate(() =>
    (window as any).paying.then(
      (r: any) => ({ name: r.name }),
      (e: any) => ({ code: e.code, fields: e.fields }),
    ),
  );
  expect(outcome).toEqual({ code: 'invalid_card', fields: ['name'] }); // never the name of the frame before
  expect(nonceRequests()).toBe(before);

  await input(page, 'name').click();
  await page.keyboard.type('Bob');
  await expect.poll(() => fieldState(page, 'name')).toMatchObject({ isValid: true });
  expect(await tokenize(page)).toEqual({ last4: '1111', name: 'Bob' });
});
