// The hosted card form as both checkouts mount it: the four card fields of a new card, or the security
// code alone for a saved card (its frame posts the code to the shop's server; this page never sees it).
import type * as Payframe from 'payframe';
import type { BrandId, CardForm, Client } from 'payframe';
import type { Locale } from './i18n';
import type { SavedCard } from './types';

/** What `mountCardForm` takes from payframe: the script tag's global `Payframe` (the React page mounts with payframe/react). */
export type PayframeLib = Pick<typeof Payframe, 'mountFields'>;

/** The boxes the fields fill, each named by the page's `<label for>` (the script page's; the React page renders its own). */
export const CARD_FIELDS = { number: '#card-number', expiry: '#card-expiry', cvv: '#card-cvv', name: '#card-name' } as const;
/** The box of a saved card's security code. */
export const SAVED_CARD_CVV = '#saved-card-cvv';
/** Where a payment that asks for a one-time password shows its form (outside the pay form: forms do not nest). */
export const OTP_CONTAINER = '#otp';

/** The inputs inside the frames, in the page's colours (the frames are transparent on the page's boxes). */
export const STYLES = {
  base: { color: '#1d2433', 'font-size': '16px', 'font-family': 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif' },
  // The page's box draws the focus ring (.payframe-field--focused): without this a second, square one
  // showed inside it, the frames' default.
  focus: { outline: 'none' },
  placeholder: { color: '#6b7280' },
  invalid: { color: '#a51c12' },
};

/**
 * A saved card's brand id from the vault's card type ("Visa", "American Express"), as the frames name
 * brands (`visa`, `american-express`). No card rules on the page for it: the script-tag bundle of the
 * hosted form has none. A type the frames do not know fails the mount, which the page then says.
 */
export const brandOf = (card: SavedCard) => card.brand.trim().toLowerCase().replace(/\s+/g, '-') as BrandId;

/** Mounts the fields of a new card, or the security code of `savedCard`. Returns at once; `ready` says when. */
export function mountCardForm(payframe: PayframeLib, client: Client, locale: Locale, savedCard: SavedCard | undefined): CardForm {
  if (savedCard) {
    return payframe.mountFields({
      client,
      fields: { cvv: { container: SAVED_CARD_CVV } },
      brand: brandOf(savedCard),
      locale,
      styles: STYLES,
    });
  }
  return payframe.mountFields({
    client,
    fields: {
      number: { container: CARD_FIELDS.number, placeholder: '1234 1234 1234 1234' },
      expiry: { container: CARD_FIELDS.expiry },
      cvv: { container: CARD_FIELDS.cvv },
      name: { container: CARD_FIELDS.name },
    },
    locale,
    styles: STYLES,
  });
}

/**
 * What `handlePending` posts to finish a payment with its one-time password (the shop's own route). It
 * answers the route's JSON, a refusal too: `handlePending` reads `{ error: { reason } }` to tell a wrong
 * session from a card whose bank wants its own page after all (AUTHENTICATE_NOT_SUPPORTED: then the redirect).
 */
export const submitOtp = (body: { referenceId: string; sessionId: string; otp: string }, { signal }: { signal?: AbortSignal }) =>
  fetch('/api/authenticate', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  }).then((response) => response.json());
