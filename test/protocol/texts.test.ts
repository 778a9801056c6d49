// The merchant's texts, checked by one rule for the frames and the OTP form: some texts of a shipped
// locale, or every text of a new one with its direction; strings only, capped, known keys, locale tags.
import { describe, expect, it } from 'vitest';
import { TEXTS as OTP } from '../../src/client/pending/otp-form';
import { TEXTS } from '../../src/frame/text';
import { textsFor } from '../../src/protocol/texts';
import { FR } from '../../e2e/support/fr-texts';

const badText = (at: string) => `${at}: not a known text of at most 200 characters (dir: ltr or rtl, new locales only)`;
const badTag = (tag: string) => `texts["${tag}"]: not a locale tag ('pt-BR') with texts`;

describe('textsFor', () => {
  it('answers the shipped texts without the merchant, and keeps their direction', () => {
    expect(textsFor(TEXTS, undefined, 'en')).toEqual(TEXTS.en);
    expect(textsFor(TEXTS, {}, 'ar')).toEqual(TEXTS.ar);
    expect(TEXTS.ar.dir).toBe('rtl');
  });

  it("overrides one text of a shipped locale, the others stay payframe's", () => {
    const texts = textsFor(TEXTS, { en: { numberInvalid: 'That card number does not look right.' } }, 'en');
    expect(texts).toEqual({ ...TEXTS.en, numberInvalid: 'That card number does not look right.' });
    // Another locale's overrides do not leak into this one.
    expect(textsFor(TEXTS, { en: { numberInvalid: 'x' } }, 'ar')).toEqual(TEXTS.ar);
  });

  it('takes a new locale given whole, its direction its own', () => {
    expect(textsFor(TEXTS, { fr: FR }, 'fr')).toEqual(FR);
    const fa = { ...FR, dir: 'rtl' };
    expect(textsFor(TEXTS, { fa, 'pt-BR': FR }, 'fa')).toEqual(fa);
  });

  it('refuses a new locale that lacks a text, naming it', () => {
    const { cvvInvalid: _, ...partial } = FR;
    expect(textsFor(TEXTS, { fr: partial }, 'fr')).toBe('texts["fr"]: a new locale needs every text; it lacks cvvInvalid');
    // Checked even while another locale shows: setLocale('fr') must not fail later.
    expect(textsFor(TEXTS, { fr: partial }, 'en')).toMatch(/lacks cvvInvalid$/);
    const { dir: __, ...noDir } = FR;
    expect(textsFor(TEXTS, { fr: noDir }, 'fr')).toMatch(/lacks dir$/);
    expect(textsFor(TEXTS, { fr: { ...FR, dir: 'up' } }, 'fr')).toBe(badText('texts["fr"].dir'));
  });

  it.each([
    ['a number', { en: { numberInvalid: 42 } }, badText('texts["en"].numberInvalid')],
    ['markup as an object', { en: { numberLabel: { html: '<b>x</b>' } } }, badText('texts["en"].numberLabel')],
    ['a text too long', { en: { nameInvalid: 'x'.repeat(201) } }, badText('texts["en"].nameInvalid')],
    ['an unknown key', { en: { pinError: 'x' } }, badText('texts["en"].pinError')],
    ["a shipped locale's direction", { ar: { dir: 'ltr' } }, badText('texts["ar"].dir')],
    ['a tag that is not BCP 47', { fr_FR: FR }, badTag('fr_FR')],
    ['a prototype key', JSON.parse('{"__proto__": {"dir": "ltr"}}'), badTag('__proto__')],
    ['texts of a locale not an object', { fr: 'Bonjour' }, badTag('fr')],
    ['texts not an object', ['fr'], 'texts must map locale tags to texts'],
  ])('refuses %s', (_, given, message) => {
    expect(textsFor(TEXTS, given, 'en')).toBe(message);
  });

  it('refuses a locale neither shipped nor given, and one that is no tag', () => {
    expect(textsFor(TEXTS, { fr: FR }, 'de')).toBe('locale must be en, ar or one given in texts');
    expect(textsFor(TEXTS, undefined, 'toString')).toBe('locale must be en, ar or one given in texts');
    expect(textsFor(TEXTS, undefined, 'constructor')).toBe('locale must be en, ar or one given in texts');
  });

  it("takes the OTP form's texts by the same rule, its keys its own", () => {
    expect(textsFor(OTP, { en: { submit: 'Pay now' } }, 'en')).toEqual({ ...OTP.en, submit: 'Pay now' });
    expect(textsFor(OTP, { fr: { dir: 'ltr', label: 'Code' } }, 'fr')).toMatch(
      /^texts\["fr"\]: a new locale needs every text; it lacks submit, ready, /,
    );
    expect(textsFor(OTP, { en: { numberInvalid: 'x' } }, 'en')).toBe(badText('texts["en"].numberInvalid'));
  });
});
