// ─── Phase 2 integration point of the React checkout ─────────────────────────────────────────────
// The hosted card form (issue 8, `mountFields` from 'payframe') and the pending-payment helper
// (issue 9, `handlePending`) are not on this branch. This hook is the one place where the React
// checkout will call them. Until then it mounts nothing: the page says so next to the empty field
// boxes and keeps its pay button disabled. Nothing here imitates a card field.
//
// Phase 2 replaces the hook's body with an effect that mounts and destroys the form (StrictMode runs
// it twice: mount, destroy, mount):
//   useEffect(() => {
//     const form = mountFields({ client, fields: keptCard ? { cvv: { container: KEPT_CARD_CVV } } : CARD_FIELDS, locale });
//     form.on('change', (state) => setComplete(...));
//     setForm(form);
//     return () => form.destroy();
//   }, [client, keptCard]);
// and adds `finishPending` with handlePending(answer.pending, { client, mode: 'auto', container:
// OTP_CONTAINER, submitOtp, locale }). App.tsx's onSubmit then tokenises and posts /api/pay.
import type { Client } from 'payframe';
import { api } from '../lib/api';
import type { Locale } from '../lib/i18n';

/** The boxes App.tsx renders for the hosted fields, each named by a `<label htmlFor>`. */
export const CARD_FIELDS = { number: '#card-number', expiry: '#card-expiry', cvv: '#card-cvv', name: '#card-name' } as const;
export const KEPT_CARD_CVV = '#kept-card-cvv';
export const OTP_CONTAINER = '#otp';

export interface CardFormState {
  /** False on this branch: there is no hosted form to mount yet. */
  available: boolean;
  /** Every field filled and valid: the pay button follows it. */
  complete: boolean;
}

/** The hosted fields for a new card, or the CVV field of a kept card. Not available on this branch. */
export function useCardForm(_client: Client | undefined, _locale: Locale, _keptCard: boolean): CardFormState {
  return { available: false, complete: false };
}

/** What `handlePending` posts to finish a payment with its one-time password (the shop's own route). */
export const submitOtp = (body: { referenceId: string; sessionId: string; otp: string }) =>
  api<unknown>('/api/authenticate', { method: 'POST', body });
