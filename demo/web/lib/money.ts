import type { Locale } from './i18n';

/**
 * An amount as the payer reads it: the currency's own decimals (OMR three), Arabic-Indic digits
 * in Arabic. The amount stays a decimal string everywhere else; this is display only.
 */
export function formatMoney(total: string, currency: string, locale: Locale): string {
  const format = new Intl.NumberFormat(locale === 'ar' ? 'ar-OM' : 'en-OM', { style: 'currency', currency });
  return format.format(Number(total));
}
