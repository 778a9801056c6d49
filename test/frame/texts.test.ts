// @vitest-environment happy-dom
// A field frame shows the merchant's texts (checked in start.ts by protocol/texts.ts) as text: its
// label, placeholder, error text and direction, markup left as the characters typed. (Chromium: e2e/merchant-texts.)
import { beforeEach, describe, expect, it } from 'vitest';
import { createField } from '../../src/frame/field';
import { TEXTS } from '../../src/frame/text';
import type { Config } from '../../src/protocol/messages';
import { textsFor } from '../../src/protocol/texts';

const config = (m: Partial<Config> = {}): Config => ({
  ch: 'a'.repeat(32),
  t: 'config',
  locale: 'en',
  fields: ['number', 'expiry', 'cvv'],
  ...m,
});
const apply = (field: ReturnType<typeof createField>, m: Config) => {
  const texts = textsFor(TEXTS, m.texts, m.locale);
  if (typeof texts === 'string') throw new Error(texts);
  return field.configure(m, undefined, texts);
};

beforeEach(() => document.body.replaceChildren());

describe('a field frame with the merchant texts', () => {
  it('shows an overridden error text when the field is invalid, and keeps the other texts', () => {
    const field = createField('number', () => undefined);
    apply(field, config({ texts: { en: { numberInvalid: 'That card number does not look right.' } } }));
    expect(document.querySelector('label')!.textContent).toBe('Card number');
    field.input.value = '5555 5555 5555 4445'; // Mastercard has 16 digits only: a wrong check digit is invalid
    field.input.dispatchEvent(new InputEvent('input', { bubbles: true }));
    field.touch();
    expect(field.input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById('error')!.textContent).toBe('That card number does not look right.');
  });

  it('lays out and names a new locale by its own texts', () => {
    const field = createField('expiry', () => undefined);
    const fr = { ...TEXTS.en, expiryLabel: "Date d'expiration", expiryPlaceholder: 'MM / AA' };
    const { label } = apply(field, config({ locale: 'fr', texts: { fr } }));
    expect(label).toBe("Date d'expiration");
    expect(field.input.placeholder).toBe('MM / AA');
    expect(document.documentElement.lang).toBe('fr');
    expect(document.documentElement.dir).toBe('ltr');
    apply(field, config({ locale: 'fa', texts: { fa: { ...fr, dir: 'rtl' } } }));
    expect(document.documentElement.dir).toBe('rtl');
    // The page's own label and placeholder still come first.
    expect(apply(field, config({ locale: 'fr', texts: { fr }, label: 'Expiry', placeholder: 'mm/yy' })).label).toBe('Expiry');
    expect(field.input.placeholder).toBe('mm/yy');
  });

  it('shows markup in a text as the characters typed, never as elements', () => {
    const field = createField('cvv', () => undefined);
    const markup = '<img src=x onerror=alert(1)><b>Code</b>';
    apply(field, config({ texts: { en: { cvvLabel: markup, cvvEmpty: markup } } }));
    field.touch();
    expect(document.querySelector('label')!.textContent).toBe(markup);
    expect(document.title).toBe(markup);
    expect(document.getElementById('error')!.textContent).toBe(markup);
    expect(document.querySelectorAll('img, b')).toHaveLength(0);
  });
});
