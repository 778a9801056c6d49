import type { FieldName, FieldReason, Locale } from '../shared/names';
import type { FieldTexts } from '../protocol/texts';

/**
 * Every text a field frame shows, by locale. The merchant may replace any of them per locale, or give
 * them all for a locale of its own (`texts` of mountFields, checked by protocol/texts.ts): the English
 * table's keys are the list. `dir` lays the field out; a label is the field's accessible name (and its
 * frame's title) when the page has no `<label>` for it; the expiry's placeholder is its format, shown
 * until the person types; the others are what a screen reader hears when a field shows as invalid, by
 * field and by why (`FieldState.reason`): `<field><Reason>`, for the reasons that can happen in that field.
 */
const EN: FieldTexts = {
  dir: 'ltr',
  numberLabel: 'Card number',
  expiryLabel: 'Expiry date',
  cvvLabel: 'Security code',
  nameLabel: 'Name on card',
  expiryPlaceholder: 'MM / YY',
  numberEmpty: 'Enter the card number.',
  numberIncomplete: 'The card number is incomplete.',
  numberInvalid: 'The card number is not valid.',
  numberUnsupportedBrand: 'This card brand is not accepted here.',
  expiryEmpty: 'Enter the expiry date, month and year.',
  expiryIncomplete: 'The expiry date is incomplete.',
  expiryInvalid: 'The expiry date is not valid.',
  expiryExpired: 'The card has expired.',
  cvvEmpty: 'Enter the security code from the card.',
  cvvIncomplete: 'The security code is incomplete.',
  cvvInvalid: 'The security code is not valid.',
  nameEmpty: 'Enter the name shown on the card.',
  nameInvalid: 'The name on the card has no digits.',
};

export const TEXTS: Record<Locale, FieldTexts> = {
  en: EN,
  ar: {
    dir: 'rtl',
    numberLabel: 'رقم البطاقة',
    expiryLabel: 'تاريخ الانتهاء',
    cvvLabel: 'رمز الأمان',
    nameLabel: 'الاسم على البطاقة',
    expiryPlaceholder: 'شهر / سنة',
    numberEmpty: 'أدخل رقم البطاقة.',
    numberIncomplete: 'رقم البطاقة غير مكتمل.',
    numberInvalid: 'رقم البطاقة غير صحيح.',
    numberUnsupportedBrand: 'نوع البطاقة هذا غير مقبول هنا.',
    expiryEmpty: 'أدخل تاريخ الانتهاء، الشهر والسنة.',
    expiryIncomplete: 'تاريخ الانتهاء غير مكتمل.',
    expiryInvalid: 'تاريخ الانتهاء غير صحيح.',
    expiryExpired: 'انتهت صلاحية البطاقة.',
    cvvEmpty: 'أدخل رمز الأمان المطبوع على البطاقة.',
    cvvIncomplete: 'رمز الأمان غير مكتمل.',
    cvvInvalid: 'رمز الأمان غير صحيح.',
    nameEmpty: 'أدخل الاسم كما يظهر على البطاقة.',
    nameInvalid: 'الاسم على البطاقة لا يحتوي على أرقام.',
  },
};

/** The text a screen reader hears for a field shown invalid for `reason`: the field's own, else its `invalid` text. */
export function errorText(texts: FieldTexts, field: FieldName, reason: FieldReason | undefined): string {
  const key = `${field}${(reason ?? 'invalid').replace(/(?:^|_)(\w)/g, (_, c: string) => c.toUpperCase())}`;
  return (texts as Record<string, string>)[key] ?? texts[`${field}Invalid`];
}
