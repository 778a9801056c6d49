/**
 * The merchant's texts (`texts` of mountFields and handlePending), checked where they are shown: the
 * frames check theirs (frame/text.ts), the OTP form its own on the page. One rule for both tables: a
 * locale tag maps to some texts of a shipped locale, or to every text of a new one, its `dir` included;
 * the keys are those of the shipped English table, so a text added there is one the merchant may give.
 */
import { isText, MAX_TEXT } from './is';
import { isLocale, isLocaleTag, type Locale } from '../shared/names';

/**
 * A frame's texts in one locale: the keys a merchant may give (the shipped tables, frame/text.ts, hold
 * every one). `dir` lays the field out; a label is the field's accessible name (and its frame's title)
 * when the page has no `<label>` for it; the expiry's placeholder is its format, shown until the person
 * types; the others are what a screen reader hears when a field shows as invalid, by field and by why
 * (`FieldState.reason`): `<field><Reason>`, for the reasons that can happen in that field.
 */
export type FieldTexts = {
  dir: string;
  numberLabel: string;
  expiryLabel: string;
  cvvLabel: string;
  nameLabel: string;
  expiryPlaceholder: string;
  numberEmpty: string;
  numberIncomplete: string;
  numberInvalid: string;
  numberUnsupportedBrand: string;
  expiryEmpty: string;
  expiryIncomplete: string;
  expiryInvalid: string;
  expiryExpired: string;
  cvvEmpty: string;
  cvvIncomplete: string;
  cvvInvalid: string;
  nameEmpty: string;
  nameInvalid: string;
};

const isPlain = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * The texts of `locale`: the shipped ones under the merchant's, or the merchant's alone for a locale
 * payframe does not ship. A string says what is wrong (every locale of `given` is checked, not only this one).
 */
export function textsFor<T extends { dir: string }>(shipped: Record<Locale, T>, given: unknown, locale: string): T | string {
  const keys = Object.keys(shipped.en);
  const all = isPlain(given) ? given : {};
  if (given !== undefined && all !== given) return 'texts must map locale tags to texts';
  for (const [tag, own] of Object.entries(all)) {
    const name = `texts[${JSON.stringify(tag.slice(0, 40))}]`;
    if (!isLocaleTag(tag) || !isPlain(own)) return `${name}: not a locale tag ('pt-BR') with texts`;
    // A text a form does not have; not text (`isText`); a direction not 'ltr' or 'rtl', or a shipped locale's.
    const bad = Object.entries(own).find(
      ([key, text]) => !keys.includes(key) || !isText(text) || (key === 'dir' && (isLocale(tag) || (text !== 'ltr' && text !== 'rtl'))),
    );
    if (bad)
      return `${name}.${bad[0].slice(0, 40)}: not a known text of at most ${MAX_TEXT} characters (dir: ltr or rtl, new locales only)`;
    const missing = isLocale(tag) ? [] : keys.filter((key) => !(key in own));
    if (missing.length > 0) return `${name}: a new locale needs every text; it lacks ${missing.join(', ')}`;
  }
  const own = isLocale(locale) ? shipped[locale] : isLocaleTag(locale) && all[locale];
  return own ? ({ ...own, ...(all[locale] as object) } as T) : `locale must be en, ar or one given in texts`;
}
