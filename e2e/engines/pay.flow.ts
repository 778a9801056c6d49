// A payer types a card into the hosted form and pays: typed key by key, formatted, tokenised by the
// frames, paid by the merchant's server; and the merchant's page never held the card.
import { type Merchant, startMerchant } from '../support/merchant';
import {
  expectNoCardData,
  expectNoProblems,
  field,
  focused,
  formState,
  openCheckout,
  recorded,
  textOf,
  typeInto,
  valueOf,
} from './harness/checkout';
import { expect, playedInChromiumBy, test } from './harness/test';

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant();
});
test.afterAll(() => merchant?.close());

const CARD = { number: '4111111111111111', expiry: '1234', cvv: '123', name: 'Ada Lovelace' };

// e2e/hosted-typing.spec.ts plays it in Chromium with more checks (each field's state, the brand's events),
// and e2e/containment.spec.ts pays a typed card by the Pay button and finds no card on the page.
test.describe(() => {
  playedInChromiumBy(
    'e2e/hosted-typing.spec.ts ("typing a card formats it, names the brand") and e2e/containment.spec.ts ("a whole checkout under a hostile script")',
  );
  test('a card typed into the hosted form is formatted, tokenised and paid; the page never holds it', async ({ driver }) => {
    await openCheckout(driver, merchant);
    await typeInto(driver, 'number', CARD.number);
    await expect.poll(() => valueOf(driver, 'number')).toBe('4111 1111 1111 1111');
    await typeInto(driver, 'expiry', CARD.expiry);
    await expect.poll(() => valueOf(driver, 'expiry')).toBe('12 / 34');
    await typeInto(driver, 'cvv', CARD.cvv);
    await typeInto(driver, 'name', CARD.name);
    await expect.poll(() => focused(driver)).toBe('Name on card');
    await expect.poll(async () => (await formState(driver)).isValid).toBe(true);
    expect((await formState(driver)).brand).toEqual({ id: 'visa', name: 'Visa', code: { name: 'CVV', size: 3 } });

    await driver.click({ role: 'button', name: 'Pay 25.00 USD' });
    await expect.poll(() => textOf(driver, '#status'), { timeout: 15_000 }).toBe('Paid: captured visa 1111');
    expect((await recorded(driver)).events.filter(([name]) => name === 'brandChange')).toEqual([['brandChange', 'number', 'visa']]);
    await expectNoCardData(driver, CARD);
    await expectNoProblems(driver, merchant);
  });
});

// Chromium plays it in e2e/hosted-typing.spec.ts, the same steps on the same page, its frames watched.
test.describe(() => {
  playedInChromiumBy('e2e/hosted-typing.spec.ts ("Enter in a field submits: an invalid card is refused first")');
  test('Enter in the last field pays; an invalid card is refused first, its fields marked', async ({ driver }) => {
    await openCheckout(driver, merchant);
    await typeInto(driver, 'number', '4111111111111112');
    await typeInto(driver, 'expiry', CARD.expiry);
    await typeInto(driver, 'cvv', CARD.cvv);
    await driver.press('Enter');
    await expect.poll(() => textOf(driver, '#status')).toBe('invalid_card: number, name');
    await expect.poll(() => textOf(driver, '#number-hint')).toBe('Check the card number.');

    // After the last digit, as a person clicks to correct it (the input's centre is inside the number: the brand's mark takes its end).
    await driver.click({ label: 'Card number', in: '#card-number iframe', at: { x: 300, y: 20 } });
    await driver.press('Backspace');
    await driver.type('1');
    await typeInto(driver, 'name', CARD.name);
    await driver.press('Enter');
    await expect.poll(() => textOf(driver, '#status'), { timeout: 15_000 }).toBe('Paid: captured visa 1111');
    await expect.poll(() => textOf(driver, '#number-hint')).toBe('');
    await expectNoCardData(driver, { ...CARD, number: '4111111111111112' });
    await expectNoProblems(driver, merchant);
  });
});

test("the CVV's last digit, then tokenize at once: the frames send the card with it (issue 21 item 4)", async ({ driver }) => {
  await openCheckout(driver, merchant);
  await typeInto(driver, 'number', CARD.number);
  await typeInto(driver, 'expiry', CARD.expiry);
  await typeInto(driver, 'cvv', CARD.cvv.slice(0, -1));
  await typeInto(driver, 'name', CARD.name);
  await driver.click(field('cvv')); // the caret after its two digits: the click is past their end
  // The last key and the page's call, with nothing in between. The CVV frame posts its value to the number
  // frame with each change, then its state to the page, which names the version it heard in its tokenize:
  // the number frame pays no value older than that one.
  await driver.type(CARD.cvv.slice(-1));
  const { heard, outcome } = await driver.run(undefined, async () => {
    const form = (window as any).form;
    const heard = form.getState().fields.cvv.isValid as boolean;
    const outcome = await form.tokenize().then(
      (r: any) => ({ last4: r.last4 }),
      (e: any) => ({ code: e.code, fields: e.fields }),
    );
    return { heard, outcome };
  });
  test.info().annotations.push({ type: 'the page had heard the last digit when it called tokenize()', description: String(heard) });
  if ('last4' in outcome) expect(outcome).toEqual({ last4: '1111' });
  else {
    // On a busy machine the key's state may not have reached the page yet: the page refuses what it has not
    // seen valid; the call once it has heard pays the card, its last digit with it.
    expect(heard).toBe(false);
    expect(outcome).toEqual({ code: 'invalid_card', fields: ['cvv'] });
    await expect.poll(async () => (await formState(driver)).isValid).toBe(true);
    const again = await driver.run(undefined, () => (window as any).form.tokenize().then((r: any) => r.last4));
    expect(again).toBe('1111');
  }
  await expectNoCardData(driver, CARD);
});

test("a Pay right after a correction, while the expiry's posts to the number frame are held back: the number frame waits for the version the page saw, and pays it", async ({
  driver,
}) => {
  await openCheckout(driver, merchant);
  for (const name of ['number', 'expiry', 'cvv', 'name'] as const) await typeInto(driver, name, CARD[name]);
  await expect.poll(async () => (await formState(driver)).isValid).toBe(true);
  // From now on the expiry frame's posts on the frames' channel wait until the test lets them go.
  await driver.run(field('expiry').in, () => {
    const held: (() => void)[] = [];
    const post = BroadcastChannel.prototype.postMessage;
    BroadcastChannel.prototype.postMessage = function (this: BroadcastChannel, m: unknown) {
      held.push(() => post.call(this, m));
    };
    Object.assign(window, {
      held: () => held.length,
      release: () => {
        BroadcastChannel.prototype.postMessage = post;
        held.splice(0).forEach((send) => send());
      },
    });
  });
  // The number frame notes the page's tokenize as it comes: its job has begun once that is heard.
  await driver.run(field('number').in, () =>
    addEventListener('message', (e) => e.data?.t === 'tokenize' && ((window as any).asked = true)),
  );
  const changes = async () => (await recorded(driver)).events.filter(([name, f]) => name === 'change' && f === 'expiry').length;
  const before = await changes();

  // The person corrects the year, 12 / 34 → 12 / 35 (the click is past the text's end).
  await driver.click(field('expiry'));
  await driver.press('Backspace');
  await driver.type('5');
  await expect.poll(() => driver.run(field('expiry').in, () => (window as any).held() as number)).toBe(2);
  await expect.poll(changes).toBe(before + 2); // the page heard both: its tokenize names the last version
  await driver.run(undefined, () => {
    (window as any).form.tokenize().then(
      (r: any) => ((window as any).outcome = { expireMonth: r.expireMonth, expireYear: r.expireYear }),
      (e: any) => ((window as any).outcome = { code: e.code, fields: e.fields }),
    );
  });
  await expect.poll(() => driver.run(field('number').in, () => !!(window as any).asked)).toBe(true);
  await driver.run(field('expiry').in, () => (window as any).release());
  await expect
    .poll(() => driver.run(undefined, () => (window as any).outcome), { timeout: 15_000 })
    .toEqual({ expireMonth: 12, expireYear: 2035 });
  await expectNoCardData(driver, CARD);
});
