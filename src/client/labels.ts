import type { FieldName } from '../fields';
import type { Locale } from '../protocol';

/** Each field's accessible name and frame title, when the page has no `<label>` for its container. */
export const LABELS: Record<Locale, Record<FieldName, string>> = {
  en: { number: 'Card number', expiry: 'Expiry date', cvv: 'Security code', name: 'Name on card' },
  ar: { number: 'رقم البطاقة', expiry: 'تاريخ الانتهاء', cvv: 'رمز الأمان', name: 'الاسم على البطاقة' },
};

/** The expiry's format, shown until the person types. */
export const EXPIRY_PLACEHOLDER: Record<Locale, string> = { en: 'MM / YY', ar: 'شهر / سنة' };

/** The text of the page's `<label for=id>` of an element, or of a `<label>` around it, in its own tree (a shadow root too). */
export function labelOf(el: Element): string | undefined {
  const root = el.getRootNode() as Document | ShadowRoot;
  const label = [...root.querySelectorAll('label')].find((l) => el.id !== '' && l.htmlFor === el.id) ?? el.closest('label');
  const text = label?.textContent?.replace(/\s+/g, ' ').trim().slice(0, 200);
  return text || undefined;
}
