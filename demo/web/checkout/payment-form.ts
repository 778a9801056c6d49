// ─── Phase 2 integration point of the script-tag checkout ────────────────────────────────────────
// The hosted card form (issue 8, `Payframe.mountFields`) and the pending-payment helper (issue 9,
// `Payframe.handlePending`) are not on this branch. This module is the one place where this page
// will call them. Until then it mounts nothing: the page says so next to the empty field boxes and
// keeps its pay button disabled. Nothing here imitates a card field.
//
// Phase 2 replaces the two bodies below:
//   mountCardForm  -> Payframe.mountFields({ client, fields: CARD_FIELDS (or { cvv: KEPT_CARD_CVV }
//                     for a kept card), locale }); `complete` from its change events; `tokenize()`.
//   finishPending  -> Payframe.handlePending(answer.pending, { client, mode: 'auto',
//                     container: OTP_CONTAINER, submitOtp, locale }).
// and main.ts's submit handler: tokenize, POST /api/pay { intent, email, name, saveCard,
// card: { nonce } or { keptCardId, cvv }, browserInfo: Payframe.collectBrowserInfo(), locale }.
import type { Client } from 'payframe';
import { api } from '../lib/api';
import type { Locale } from '../lib/i18n';

/** The boxes in checkout.html that the hosted fields fill, each named by a `<label for>`. */
export const CARD_FIELDS = { number: '#card-number', expiry: '#card-expiry', cvv: '#card-cvv', name: '#card-name' } as const;
/** The box of the security code of a kept card (paid again with its CVV). */
export const KEPT_CARD_CVV = '#kept-card-cvv';
/** Where a payment that asks for a one-time password shows its form. */
export const OTP_CONTAINER = '#otp';

/** What the page needs from a mounted card form. */
export interface CardForm {
  /** True when every field is filled and valid: the pay button follows it. */
  readonly complete: boolean;
  onComplete(listener: (complete: boolean) => void): void;
  setLocale(locale: Locale): void;
  destroy(): void;
}

/** Mounts the hosted fields for a new card, or the CVV field of a kept card. Not available on this branch. */
export function mountCardForm(_options: { client: Client; locale: Locale; keptCard: boolean }): CardForm | undefined {
  return undefined;
}

/** What `handlePending` posts to finish a payment with its one-time password (the shop's own route). */
export const submitOtp = (body: { referenceId: string; sessionId: string; otp: string }) =>
  api<unknown>('/api/authenticate', { method: 'POST', body });
