import type { FieldName, FieldReason, Locale } from '../protocol/names';

/** Each field's accessible name (and its frame's title) when the page has no `<label>` for it. */
export const LABELS: Record<Locale, Record<FieldName, string>> = {
  en: { number: 'Card number', expiry: 'Expiry date', cvv: 'Security code', name: 'Name on card' },
  ar: { number: 'رقم البطاقة', expiry: 'تاريخ الانتهاء', cvv: 'رمز الأمان', name: 'الاسم على البطاقة' },
};

/** The expiry's format, shown until the person types. */
export const EXPIRY_PLACEHOLDER: Record<Locale, string> = { en: 'MM / YY', ar: 'شهر / سنة' };

/**
 * What a screen reader hears when a field shows as invalid, by field and by why (`FieldState.reason`):
 * the text a reason has in the field where it can happen.
 */
export const ERRORS: Record<Locale, Record<FieldName, Partial<Record<FieldReason, string>>>> = {
  en: {
    number: {
      empty: 'Enter the card number.',
      incomplete: 'The card number is incomplete.',
      invalid: 'The card number is not valid.',
      unsupported_brand: 'This card brand is not accepted here.',
    },
    expiry: {
      empty: 'Enter the expiry date, month and year.',
      incomplete: 'The expiry date is incomplete.',
      invalid: 'The expiry date is not valid.',
      expired: 'The card has expired.',
    },
    cvv: {
      empty: 'Enter the security code from the card.',
      incomplete: 'The security code is incomplete.',
      invalid: 'The security code is not valid.',
    },
    name: {
      empty: 'Enter the name shown on the card.',
      invalid: 'The name on the card has no digits.',
    },
  },
  ar: {
    number: {
      empty: 'أدخل رقم البطاقة.',
      incomplete: 'رقم البطاقة غير مكتمل.',
      invalid: 'رقم البطاقة غير صحيح.',
      unsupported_brand: 'نوع البطاقة هذا غير مقبول هنا.',
    },
    expiry: {
      empty: 'أدخل تاريخ الانتهاء، الشهر والسنة.',
      incomplete: 'تاريخ الانتهاء غير مكتمل.',
      invalid: 'تاريخ الانتهاء غير صحيح.',
      expired: 'انتهت صلاحية البطاقة.',
    },
    cvv: {
      empty: 'أدخل رمز الأمان المطبوع على البطاقة.',
      incomplete: 'رمز الأمان غير مكتمل.',
      invalid: 'رمز الأمان غير صحيح.',
    },
    name: {
      empty: 'أدخل الاسم كما يظهر على البطاقة.',
      invalid: 'الاسم على البطاقة لا يحتوي على أرقام.',
    },
  },
};
