import type { FieldName, Locale } from '../protocol/names';

/** Each field's accessible name (and its frame's title) when the page has no `<label>` for it. */
export const LABELS: Record<Locale, Record<FieldName, string>> = {
  en: { number: 'Card number', expiry: 'Expiry date', cvv: 'Security code', name: 'Name on card' },
  ar: { number: 'رقم البطاقة', expiry: 'تاريخ الانتهاء', cvv: 'رمز الأمان', name: 'الاسم على البطاقة' },
};

/** The expiry's format, shown until the person types. */
export const EXPIRY_PLACEHOLDER: Record<Locale, string> = { en: 'MM / YY', ar: 'شهر / سنة' };

/** What a screen reader hears when a field shows as invalid. */
export const ERRORS: Record<Locale, Record<FieldName, string>> = {
  en: {
    number: 'Enter a valid card number.',
    expiry: 'Enter a valid expiry date, month and year.',
    cvv: 'Enter the security code from the card.',
    name: 'Enter the name shown on the card.',
  },
  ar: {
    number: 'أدخل رقم بطاقة صحيحًا.',
    expiry: 'أدخل تاريخ انتهاء صحيحًا، الشهر والسنة.',
    cvv: 'أدخل رمز الأمان المطبوع على البطاقة.',
    name: 'أدخل الاسم كما يظهر على البطاقة.',
  },
};
