// The form's rules as a payer meets them, in every engine: an expired card, a wrong check digit and a
// brand the merchant does not take each say why in the frame (English, Arabic, and the merchant's own
// text), and the unwanted brand sends nothing; the brand's mark and name follow the number as it is
// typed; a disabled form takes no key. What a screen reader hears is read in the frame: the input's
// `aria-describedby` targets' text (the brand's name, then the error), as the accessible description is
// made of them. The texts come from payframe's own table (src/frame/text.ts), not copied here.
import { TEXTS } from '../../src/frame/text';
import { checkoutUrl, type Merchant, startMerchant } from '../support/merchant';
import {
  expectNoCardData,
  expectNoProblems,
  type Field,
  field,
  formState,
  openCheckout,
  recorded,
  textOf,
  typeInto,
  valueOf,
} from './harness/checkout';
import type { Driver } from './harness/driver';
import { watchAll } from './harness/watch';
import { expect, playedInChromiumBy, test } from './harness/test';

// The e2e specs play every test here in Chromium with the same checks or more (what only this file checked was
// added to them): here, the other engines alone (no server is started for a file whose every test is skipped).
playedInChromiumBy(
  'e2e/card-reasons.spec.ts ("each say why, and the brand sends nothing"), merchant-texts.spec.ts ("the merchant\'s own error text") and hosted-marks.spec.ts ("follow the brand as a person types", "a disabled form takes no key")',
);

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant();
});
test.afterAll(() => merchant?.close());

/** What a screen reader hears after a field's name and value: the text of its input's `aria-describedby` targets, in order. */
const description = (driver: Driver, name: Field) =>
  driver.run(field(name).in, () => {
    const ids = (document.querySelector('input')!.getAttribute('aria-describedby') ?? '').split(/\s+/);
    return ids
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
  });
const reasonOf = async (driver: Driver, name: Field) => (await formState(driver)).fields[name].reason ?? null;
const nonceRequests = () => merchant.sandbox.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/credit-card-nonce')).length;

/** Opens the checkout without its form, mounts it with `options` (the page's `mount`) and waits for `ready`. */
async function mountWith(driver: Driver, query: Record<string, string>, options: Record<string, unknown>): Promise<void> {
  await driver.goto(checkoutUrl(merchant, { ...query, auto: '0' }));
  await expect.poll(() => driver.run(undefined, () => typeof (window as any).mount)).toBe('function');
  await driver.run(undefined, (o: Record<string, unknown>) => void ((window as any).form = (window as any).mount(o)), options);
  await expect.poll(async () => (await recorded(driver)).events.some(([name]) => name === 'ready'), { timeout: 15_000 }).toBe(true);
  await watchAll(driver);
}

const PAY = { en: 'Pay 25.00 USD', ar: 'ادفع 25.00 دولار' };
const LABELS = {
  en: { number: TEXTS.en.numberLabel, expiry: TEXTS.en.expiryLabel, cvv: TEXTS.en.cvvLabel, name: TEXTS.en.nameLabel },
  ar: { number: TEXTS.ar.numberLabel, expiry: TEXTS.ar.expiryLabel, cvv: TEXTS.ar.cvvLabel, name: TEXTS.ar.nameLabel },
};
/** The merchant's own words for the three reasons (markup in one: it must reach the frame as characters). */
const OWN = {
  numberInvalid: 'That is not a card number we know <b>yet</b>.',
  expiryExpired: 'This card is past its date.',
  numberUnsupportedBrand: 'We take Visa, Mastercard, Amex and Discover.',
};

const cases = [
  { title: 'English', locale: 'en', texts: TEXTS.en, own: undefined },
  { title: 'Arabic', locale: 'ar', texts: TEXTS.ar, own: undefined },
  { title: "the merchant's own English", locale: 'en', texts: { ...TEXTS.en, ...OWN }, own: { en: OWN } },
] as const;

for (const { title, locale, texts, own } of cases) {
  test(`${title}: an expired card, a wrong check digit and an unwanted brand each say why; the brand sends nothing`, async ({ driver }) => {
    if (own) await mountWith(driver, { locale }, { texts: own });
    else await openCheckout(driver, merchant, { locale });
    const click = (name: Field) => driver.click(field(name, LABELS[locale][name]));
    // A click by the field's label in the locale: the frame's input is named by it.
    const typeIn = async (name: Field, text: string) => {
      await click(name);
      await driver.type(text);
    };

    // '01 / 20' could still become 01 / 2030: it shows once the payer leaves the field.
    await typeIn('expiry', '0120');
    await expect.poll(() => valueOf(driver, 'expiry')).toBe('01 / 20');
    await click('number');
    await expect.poll(() => description(driver, 'expiry')).toBe(texts.expiryExpired);
    expect(await reasonOf(driver, 'expiry')).toBe('expired');

    // Mastercard numbers have 16 digits: a wrong check digit shows at once. The brand's name comes first.
    await driver.type('5555555555554445');
    await expect.poll(() => description(driver, 'number')).toBe(`Mastercard ${texts.numberInvalid}`);
    expect(await reasonOf(driver, 'number')).toBe('invalid');
    if (own) expect(await driver.run(field('number').in, () => document.querySelectorAll('b').length)).toBe(0);

    // A JCB number: not among the default brands, refused as soon as the brand is known.
    await driver.run(undefined, () => (window as any).form.clear('number'));
    await expect.poll(() => valueOf(driver, 'number')).toBe('');
    await typeIn('number', '35');
    await expect.poll(() => description(driver, 'number')).toBe(`JCB ${texts.numberUnsupportedBrand}`);
    await driver.type('30111333300000');
    await expect.poll(() => valueOf(driver, 'number')).toBe('3530 1113 3330 0000');
    expect(await description(driver, 'number')).toBe(`JCB ${texts.numberUnsupportedBrand}`);
    expect(await reasonOf(driver, 'number')).toBe('unsupported_brand');
    expect((await recorded(driver)).events).toContainEqual(['brandChange', 'number', 'jcb']);

    // The rest of the card right, then Pay: refused in the page, no nonce asked for.
    await driver.run(undefined, () => (window as any).form.clear('expiry'));
    await expect.poll(() => valueOf(driver, 'expiry')).toBe('');
    await typeIn('expiry', '1234');
    await typeIn('cvv', '123');
    await typeIn('name', 'Ada Lovelace');
    await expect.poll(async () => (await formState(driver)).fields.name.isValid).toBe(true);
    const before = { nonces: nonceRequests(), tokens: merchant.tokenRequests };
    await driver.click({ role: 'button', name: PAY[locale] });
    await expect.poll(() => textOf(driver, '#status')).toBe('invalid_card: number');
    const refused = await driver.run(undefined, () =>
      (window as any).form.tokenize().then(
        () => 'sent',
        (e: any) => e.toJSON(),
      ),
    );
    expect(refused).toMatchObject({ code: 'invalid_card', fields: ['number'], reasons: { number: 'unsupported_brand' } });
    expect(nonceRequests()).toBe(before.nonces);
    expect(merchant.tokenRequests).toBe(before.tokens);
    await expectNoCardData(driver, { number: '3530111333300000', cvv: '123' });
    await expectNoProblems(driver, merchant);
  });
}

test('the brand mark and its name follow the number as it is typed: 41 is Visa, 51 Mastercard', async ({ driver }) => {
  await openCheckout(driver, merchant);
  const mark = () =>
    driver.run(field('number').in, () => ({
      said: document.getElementById('brand')?.textContent ?? null,
      word: document.querySelector('svg text')?.textContent ?? null,
    }));
  // A neutral card while the brand is unknown, and nothing said.
  expect(await mark()).toEqual({ said: '', word: '' });
  expect(await description(driver, 'number')).toBe('');
  // A 4 could still be Elo (4011…): the card stays neutral until the 1.
  await typeInto(driver, 'number', '4');
  await expect.poll(() => valueOf(driver, 'number')).toBe('4');
  expect(await mark()).toEqual({ said: '', word: '' });
  await driver.type('1');
  await expect.poll(mark).toEqual({ said: 'Visa', word: 'VISA' });
  expect(await description(driver, 'number')).toBe('Visa');
  await driver.run(undefined, () => (window as any).form.clear('number'));
  await expect.poll(mark).toEqual({ said: '', word: '' });
  await typeInto(driver, 'number', '51');
  await expect.poll(mark).toEqual({ said: 'Mastercard', word: 'MC' });
  expect(await description(driver, 'number')).toBe('Mastercard');
  expect(await valueOf(driver, 'number')).toBe('51');
  await expectNoProblems(driver, merchant);
});

test('a disabled form takes no key and says so; enabled again, it takes keys and kept what was typed', async ({ driver }) => {
  await openCheckout(driver, merchant);
  await typeInto(driver, 'expiry', '12');
  await expect.poll(() => valueOf(driver, 'expiry')).toBe('12 / ');
  const disabled = () =>
    Promise.all(
      (['number', 'expiry', 'cvv', 'name'] as const).map((name) =>
        driver.run(field(name).in, () => document.querySelector('input')!.disabled),
      ),
    );
  await driver.run(undefined, () => (window as any).form.setDisabled(true));
  await expect.poll(disabled).toEqual([true, true, true, true]);
  // A click where the number field is (its iframe, from the page: a disabled input is no target of a
  // driver's click), then keys: none lands.
  await driver.click({ css: '#card-number iframe' });
  await driver.type('4111');
  await driver.press('Tab');
  await driver.type('9');
  expect(await valueOf(driver, 'number')).toBe('');
  expect(await valueOf(driver, 'expiry')).toBe('12 / ');

  await driver.run(undefined, () => (window as any).form.setDisabled(false));
  await expect.poll(disabled).toEqual([false, false, false, false]);
  await typeInto(driver, 'number', '4242');
  // Only the keys typed once enabled: none of the earlier ones arrived late.
  await expect.poll(() => valueOf(driver, 'number')).toBe('4242');
  expect(await valueOf(driver, 'expiry')).toBe('12 / ');
  await expectNoProblems(driver, merchant);
});
