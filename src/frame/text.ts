import type { FieldName } from '../fields';
import type { Locale } from '../protocol';

/** What a screen reader hears when a field shows as invalid (the page gives the labels). */
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
