// What both checkouts share besides the words: the saved-card lookup and how a saved card reads.
import { api, ApiError } from './api';
import { count, type Locale, t } from './i18n';
import type { SavedCard } from './types';

// A dot inside the domain, found without backtracking: the run before the first dot holds none.
const EMAIL = /^[^\s@]+@[^\s@][^\s@.]*\.[^\s@]+$/;

export type CardsLookup = { kind: 'found'; cards: SavedCard[]; note: string } | { kind: 'none' | 'error'; note: string };

/** The payer's saved cards for this email, with the sentence the page shows about them. */
export async function findSavedCards(email: string, locale: Locale): Promise<CardsLookup> {
  if (!EMAIL.test(email.trim())) return { kind: 'error', note: t(locale, 'invalidEmail') };
  try {
    const { cards } = await api<{ cards: SavedCard[] }>(`/api/saved-cards?email=${encodeURIComponent(email.trim())}`);
    if (cards.length === 0) return { kind: 'none', note: t(locale, 'noCards') };
    return { kind: 'found', cards, note: t(locale, 'foundCards', { n: count(locale, cards.length) }) };
  } catch (error) {
    const network = error instanceof ApiError && error.code === 'network';
    return { kind: 'error', note: network ? t(locale, 'network') : (error as Error).message };
  }
}

/** "Visa ending in 1111" and "Expires 12/34". */
export function cardText(
  card: Pick<SavedCard, 'brand' | 'last4' | 'expireMonth' | 'expireYear'>,
  locale: Locale,
): { title: string; expiry: string } {
  return {
    title: t(locale, 'cardEnding', { brand: card.brand, last4: card.last4 }),
    expiry: t(locale, 'expires', { mm: String(card.expireMonth).padStart(2, '0'), yy: String(card.expireYear).slice(-2) }),
  };
}
