import type { Locale } from '../protocol/names';

/**
 * Every text a field frame shows, by locale. The merchant may replace any of them per locale, or give
 * them all for a locale of its own (`texts` of mountFields, checked by protocol/texts.ts): the English
 * table's keys are the list. `dir` lays the field out; a label is the field's accessible name (and its
 * frame's title) when the page has no `<label>` for it; an error is what a screen reader hears when the
 * field shows as invalid; the expiry's placeholder is its format, shown until the person types.
 */
const EN = {
  dir: 'ltr',
  numberLabel: 'Card number',
  expiryLabel: 'Expiry date',
  cvvLabel: 'Security code',
  nameLabel: 'Name on card',
  expiryPlaceholder: 'MM / YY',
  numberError: 'Enter a valid card number.',
  expiryError: 'Enter a valid expiry date, month and year.',
  cvvError: 'Enter the security code from the card.',
  nameError: 'Enter the name shown on the card.',
};
/** A frame's texts in one locale. */
export type FieldTexts = Record<keyof typeof EN, string>;

export const TEXTS: Record<Locale, FieldTexts> = {
  en: EN,
  ar: {
    dir: 'rtl',
    numberLabel: 'رقم البطاقة',
    expiryLabel: 'تاريخ الانتهاء',
    cvvLabel: 'رمز الأمان',
    nameLabel: 'الاسم على البطاقة',
    expiryPlaceholder: 'شهر / سنة',
    numberError: 'أدخل رقم بطاقة صحيحًا.',
    expiryError: 'أدخل تاريخ انتهاء صحيحًا، الشهر والسنة.',
    cvvError: 'أدخل رمز الأمان المطبوع على البطاقة.',
    nameError: 'أدخل الاسم كما يظهر على البطاقة.',
  },
};
