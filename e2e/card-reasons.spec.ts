// Why a field is invalid, as a person meets it: an expired card, a wrong check digit and a brand the
// merchant does not take each get their own text in the frame (English and Arabic), and the unwanted
// brand is refused in the field: tokenize() sends nothing, and the page never holds the card. Real
// Chromium, page and frames on two origins.
import { expect, type Page, test } from '@playwright/test';
import { type Merchant, startMerchant } from './support/merchant';
import { type Field, frameOf, input, openCheckout, recorded, typeInto } from './support/page';
import { expectNoCardData, problemsOf, recordMerchant } from './support/recorder';

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant();
});
test.afterAll(() => merchant?.close());

const nonceRequests = () => merchant.sandbox.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/credit-card-nonce')).length;
const reasonOf = (page: Page, field: Field) => page.evaluate((f) => (window as any).form.getState().fields[f].reason, field);

const TEXTS = {
  en: {
    labels: { number: 'Card number', expiry: 'Expiry date', cvv: 'Security code', name: 'Name on card' },
    expired: 'The card has expired.',
    invalid: 'The card number is not valid.',
    unsupported: 'This card brand is not accepted here.',
  },
  ar: {
    labels: { number: 'رقم البطاقة', expiry: 'تاريخ الانتهاء', cvv: 'رمز الأمان', name: 'الاسم على البطاقة' },
    expired: 'انتهت صلاحية البطاقة.',
    invalid: 'رقم البطاقة غير صحيح.',
    unsupported: 'نوع البطاقة هذا غير مقبول هنا.',
  },
} as const;

/** The frame's error text is for screen readers (hidden from sight): shown for the screenshot only, over the input. */
async function shoot(page: Page, field: Field, path: string) {
  await frameOf(page, field)
    .locator('#error')
    .evaluate((el: HTMLElement) => {
      el.classList.remove('hidden');
      Object.assign(el.style, { position: 'absolute', inset: '0', background: '#fff8', font: '12px sans-serif' });
    });
  await page.locator('#pay').screenshot({ path });
  await frameOf(page, field)
    .locator('#error')
    .evaluate((el: HTMLElement) => {
      el.classList.add('hidden');
      el.removeAttribute('style');
    });
}

for (const locale of ['en', 'ar'] as const) {
  const t = TEXTS[locale];
  const field = (page: Page, name: Field) => input(page, name, t.labels[name]);
  /** Clicks into a field, by its label in the locale, and types key by key once the caret shows there. */
  const typeIn = async (page: Page, name: Field, text: string) => {
    await field(page, name).click();
    await expect(field(page, name)).toBeFocused();
    await page.keyboard.type(text);
  };

  test(`${locale}: an expired card, a wrong check digit and an unwanted brand each say why, and the brand sends nothing`, async ({
    page,
  }, info) => {
    const recorder = await recordMerchant(page);
    await openCheckout(page, merchant, { locale });

    // '01 / 20' could still become 01 / 2030: it shows once the person leaves the field.
    await typeIn(page, 'expiry', '0120');
    await expect(field(page, 'expiry')).toHaveValue('01 / 20');
    await field(page, 'number').click();
    await expect(page.locator('#card-expiry')).toHaveClass(/payframe-field--invalid/);
    await expect(field(page, 'expiry')).toHaveAccessibleDescription(t.expired);
    expect(await reasonOf(page, 'expiry')).toBe('expired');
    await shoot(page, 'expiry', info.outputPath(`expired-${locale}.png`));

    // Mastercard numbers have 16 digits: a wrong check digit cannot be fixed by typing on.
    await typeIn(page, 'number', '5555555555554445');
    await expect(page.locator('#card-number')).toHaveClass(/payframe-field--invalid/);
    // The brand's name first (the mark's live text), then why.
    await expect(field(page, 'number')).toHaveAccessibleDescription(`Mastercard ${t.invalid}`);
    expect(await reasonOf(page, 'number')).toBe('invalid');
    await shoot(page, 'number', info.outputPath(`check-digit-${locale}.png`));

    // A JCB number: the default brands are the four the service documents. Refused as soon as the brand is known.
    await field(page, 'number').fill('');
    await typeIn(page, 'number', '35');
    await expect(page.locator('#card-number')).toHaveClass(/payframe-field--invalid/);
    await expect(field(page, 'number')).toHaveAccessibleDescription(`JCB ${t.unsupported}`);
    await page.keyboard.type('30111333300000');
    await expect(field(page, 'number')).toHaveValue('3530 1113 3330 0000');
    await expect(field(page, 'number')).toHaveAccessibleDescription(`JCB ${t.unsupported}`);
    expect(await reasonOf(page, 'number')).toBe('unsupported_brand');
    expect((await recorded(page)).events).toContainEqual(['brandChange', 'number', 'jcb']);
    await shoot(page, 'number', info.outputPath(`unsupported-brand-${locale}.png`));

    await field(page, 'expiry').fill('');
    await typeIn(page, 'expiry', '1234');
    await typeIn(page, 'cvv', '123');
    await typeIn(page, 'name', 'Ada Lovelace');
    // Only the brand is wrong now, as the person sees it (a loaded run once asked before the name was in).
    await expect(field(page, 'name')).toHaveValue('Ada Lovelace');
    const before = { nonces: nonceRequests(), tokens: merchant.tokenRequests };
    const refused = await page.evaluate(() =>
      (window as any).form.tokenize().then(
        () => 'sent',
        (e: any) => e.toJSON(),
      ),
    );
    expect(refused).toMatchObject({ code: 'invalid_card', fields: ['number'], reasons: { number: 'unsupported_brand' } });
    // The pay button too: the page's own text, from the error.
    await page.locator('#pay-button').click();
    await expect(page.locator('#status')).toHaveText('invalid_card: number');
    expect(nonceRequests()).toBe(before.nonces);
    expect(merchant.tokenRequests).toBe(before.tokens);
    await expectNoCardData(recorder, { number: '3530111333300000', cvv: '123' });
    // Nothing went wrong unseen, in the page or a frame.
    expect(problemsOf(recorder)).toEqual([]);
    expect((await recorded(page)).errors).toEqual([]);
  });
}

test('a merchant that takes JCB gets its nonce; a brand list that is not one refuses the mount', async ({ page }) => {
  await openCheckout(page, merchant, { auto: '0' });
  await page.evaluate(() => ((window as any).form = (window as any).mount({ brands: ['visa', 'jcb'] })));
  await page.evaluate(() => (window as any).form.ready);
  await typeInto(page, 'number', '3530111333300000');
  await typeInto(page, 'expiry', '1234');
  await typeInto(page, 'cvv', '123');
  await typeInto(page, 'name', 'Ada Lovelace');
  expect(await reasonOf(page, 'number')).toBeUndefined();
  const before = nonceRequests();
  const card = await page.evaluate(() => (window as any).form.tokenize());
  expect(card).toMatchObject({ brand: 'jcb', last4: '0000' });
  expect(nonceRequests()).toBe(before + 1);

  // Mastercard is not among them now.
  await input(page, 'number').fill('');
  await typeInto(page, 'number', '5555555555554444');
  expect(await reasonOf(page, 'number')).toBe('unsupported_brand');

  await page.evaluate(() => (window as any).form.destroy());
  const error = await page.evaluate(() =>
    (window as any).mount({ brands: ['visa', 'amex'] }).ready.then(
      () => undefined,
      (e: any) => e.toJSON(),
    ),
  );
  expect(error.code).toBe('invalid_config');
  expect(error.message).toContain('mountFields: brands must be a non-empty list of brand ids among visa, mastercard, american-express');
});
