/**
 * payframe's own wire: what the merchant's server (the handlers of `payframe/server`) answers the
 * checkout page and its frames, and what the page sends it. Each shape is declared here once; the
 * handlers build their answers with these types, the page reads them with the guards of merchant-answers.ts
 * (hand-written, no valibot: they run on the merchant's page and in the frames). Types and patterns
 * only, so that a page that reads a return URL loads none of the guards.
 */
import type { PaymentState } from '../schemas';
import type { ErrorCode } from '../shared/errors';

/** The payment session id of a pending payment (`redirect_url`, `authenticate_url`): 32 hex digits. */
export const SESSION_ID = /^[0-9a-f]{32}$/i;
/** A payment's `reference_id`, as the page may handle it. */
export const REFERENCE_ID = /^[\w.-]{1,128}$/;

/** `handlers.clientToken()`'s answer: the client token and when it expires (ISO 8601). */
export interface TokenGrant {
  clientToken: string;
  expiresAt: string;
}

/** What the merchant's server hands its checkout page about a pending payment (`toPending`); no card data, no credentials. */
export interface PendingPayment {
  referenceId: string;
  sessionId: string;
  redirectUrl: string;
  /**
   * Whether the service takes this payment's OTP in the page (its answer has an `authenticate_url`):
   * `false` sends the payer straight to `redirectUrl` in `handlePending`'s `auto` mode. `toPending`
   * always sets it; a page handed none (an older server) shows the form first, as before.
   */
  otp?: boolean;
}

/** What the checkout page posts to the merchant's `handlers.authenticate()` route. */
export interface OtpSubmission {
  referenceId: string;
  sessionId: string;
  otp: string;
}

/** `handlers.authenticate()`'s answer: how the payment ended after its OTP. */
export type OtpOutcome =
  | { status: 'approved'; referenceId: string; state: Exclude<PaymentState, 'pending' | 'declined'>; code: string; text?: string }
  | { status: 'declined'; referenceId: string; state: 'declined'; code: string; text?: string };

/**
 * A CVV route's answer, the only thing the CVV frame passes to the page from it: how the payment made
 * with the CVV went, in fields whose values the service made (never free text, never the merchant's
 * own fields), and for a pending payment what `handlePending` takes. `handlers.cvv()` answers it.
 */
export interface CvvAnswer {
  status: 'approved' | 'declined' | 'pending';
  referenceId: string;
  state: PaymentState;
  /** The service's four-digit result code. */
  code: string;
  pending?: PendingPayment;
}

/**
 * What the checkout page posts to `handlers.pay()`: its card's nonce and its own id for this press of
 * Pay (a new one per press; the same one when it asks again). One payment at most per attempt.
 */
export interface PayRequest {
  nonce: string;
  attempt: string;
}

/**
 * `handlers.pay()`'s answer, to the POST and to `GET ?attempt=`: `checking` while nobody knows yet
 * (the service's answer was lost: never "not paid", never pay again), `none` when the server proved no
 * payment was made for the attempt (it is closed: a late request of it charges nothing), else the
 * payment's outcome, with what `handlePending` takes when it is pending.
 */
export type PayAnswer =
  | { status: 'checking' | 'none' }
  | {
      status: 'approved' | 'declined' | 'pending';
      referenceId?: string;
      state?: PaymentState;
      /** The service's four-digit result code. */
      code?: string;
      /** The service's text of the result (a decline's reason). */
      text?: string;
      pending?: PendingPayment;
    };

/** Every handler's refusal, and a CVV route's in payframe's shape. */
export interface ErrorAnswer {
  error: { code: ErrorCode; message: string; reason?: string; resultCode?: string };
}

/**
 * A saved card as the payer's own page may see it (`handlers.savedCards()`): what to show and the id to
 * pick it by, never the BIN, the payer id or anything the vault holds beyond that. Every id the page
 * sends back is checked against the signed-in payer's own cards.
 */
export interface SavedCardView {
  /** The saved card id, only ever acted on after it is found among the session's payer's cards. */
  id: string;
  /** A brand id as `detectBrand` gives it (`visa`, `american-express`, …; `unknown` when its BIN says none): what `mountFields({ brand })` takes. */
  brand: string;
  last4: string;
  expireMonth: number | undefined;
  expireYear: number | undefined;
  isDefault: boolean;
}

/** `handlers.savedCards()`'s answer to a GET, and to a POST after its change: the default first. */
export interface SavedCardsAnswer {
  cards: SavedCardView[];
}

/** What the payer's page posts to `handlers.savedCards()`: one of their cards removed, or made the default. */
export interface SavedCardAction {
  action: 'remove' | 'default';
  cardId: string;
}
