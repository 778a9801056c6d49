/**
 * The merchant's texts (`texts` of mountFields and handlePending), checked where they are shown: the
 * frames check theirs (frame/text.ts), the OTP form its own on the page. One rule for both tables: a
 * locale tag maps to some texts of a shipped locale, or to every text of a new one, its `dir` included;
 * the keys are those of the shipped English table, so a text added there is one the merchant may give.
 */
import { isLocale, isLocaleTag, type Locale } from './names';

/** A text's cap, as a label's or a placeholder's. */
const MAX = 200;

const isPlain = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * The texts of `locale`: the shipped ones under the merchant's, or the merchant's alone for a locale
 * payframe does not ship. A string says what is wrong (every locale of `given` is checked, not only this one).
 */
export function textsFor<T extends { dir: string }>(shipped: Record<Locale, T>, given: unknown, locale: string): T | string {
  const keys = Object.keys(shipped.en);
  if (given !== undefined && !isPlain(given)) return 'texts must map locales to their texts: { fr: { ... } }';
  const all = isPlain(given) ? given : {};
  for (const [tag, own] of Object.entries(all)) {
    if (!isLocaleTag(tag)) return `texts: ${JSON.stringify((tag as string).slice(0, 40))} is not a locale tag (BCP 47: 'fr', 'pt-BR')`;
    if (!isPlain(own)) return `texts.${tag} must be an object of texts`;
    for (const [key, text] of Object.entries(own)) {
      // A shipped locale keeps its direction.
      if (!keys.includes(key) || (key === 'dir' && isLocale(tag)))
        return `texts.${tag}: ${JSON.stringify(key.slice(0, 40))} is not a text of this form (see the list in the docs)`;
      if (typeof text !== 'string' || text.length > MAX) return `texts.${tag}.${key} must be text of at most ${MAX} characters`;
    }
    const missing = isLocale(tag) ? [] : keys.filter((key) => !(key in own));
    if (missing.length > 0) return `texts.${tag}: a locale payframe does not ship needs every text, and lacks ${missing.join(', ')}`;
    if (!isLocale(tag) && own['dir'] !== 'ltr' && own['dir'] !== 'rtl') return `texts.${tag}.dir must be 'ltr' or 'rtl'`;
  }
  if (isLocale(locale)) return { ...shipped[locale], ...(all[locale] as Partial<T>) };
  return isLocaleTag(locale) && isPlain(all[locale])
    ? (all[locale] as T)
    : `locale must be ${Object.keys(shipped).join(', ')} or one given in texts`;
}
