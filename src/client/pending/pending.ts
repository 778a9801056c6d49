import { PayframeError } from '../../shared/errors';
import type { OtpSubmission, PaymentState, PendingPayment } from '../../schemas';
import { loadChunk } from '../load';
import type { Locale, OtpFormState } from './otp-form';

export type { Locale, OtpFormState, OtpSubmission, PendingPayment };

/**
 * How a pending payment is finished: `otp` in the page's own form, `redirect` on the issuer's page,
 * `auto` the form first and the redirect when the card's acquirer does not take the OTP call.
 */
export type PendingMode = 'otp' | 'redirect' | 'auto';

export interface HandlePendingOptions {
  /** From `createClient`: the redirect is followed only on `client.origin`. */
  client: { readonly origin: string };
  /** Default `auto`. */
  mode?: PendingMode;
  /** Where the OTP form renders (`otp` and `auto`); its content is replaced. A selector or an element. */
  container?: string | Element;
  /**
   * Posts the OTP to the merchant's server (which calls `handlers.authenticate()`) and answers its
   * JSON. Called once per submit, with the call's `signal`.
   */
  submitOtp?: (body: OtpSubmission, init: { signal?: AbortSignal }) => Promise<unknown>;
  /** Default `en`; `ar` renders the form right to left. */
  locale?: Locale;
  /** Stops waiting: the form is removed and the call rejects with `aborted`. */
  signal?: AbortSignal;
  /** Default `url => window.location.assign(url)`. */
  navigate?: (url: string) => void;
}

export type PendingOutcome =
  | { status: 'approved'; referenceId: string; state: Exclude<PaymentState, 'pending' | 'declined'>; code: string; text?: string }
  | { status: 'declined'; referenceId: string; state: 'declined'; code: string; text?: string }
  /** The page is navigating to the issuer's page; the outcome arrives on the return page. */
  | { status: 'redirected'; referenceId: string; state: 'pending'; code: '1007'; text?: undefined };

export const SESSION_ID = /^[0-9a-f]{32}$/i;

/**
 * The payment session id the payer brings back from the redirect (`?payment-session-id=<id>` on the
 * merchant's `return_url`); `invalid_request` for anything that is not exactly one session id.
 */
export function readReturn(url: string | URL = location.href): { sessionId: string } {
  let ids: string[] = [];
  try {
    ids = new URL(String(url)).searchParams.getAll('payment-session-id');
  } catch {
    // not a URL: refused below
  }
  if (ids.length !== 1 || !SESSION_ID.test(ids[0]!)) throw new PayframeError('invalid_request', 'the return URL carries no payment session id');
  return { sessionId: ids[0]! };
}

/**
 * Finishes a pending payment in the browser. Every option is checked before anything is shown or
 * navigated. Settles when the payment is finished (approved, declined) or handed to the issuer's page
 * (redirected); rejects when it cannot be finished here. A failure worth retrying (the merchant's
 * server or the network) is shown in the form, which the payer can submit again.
 */
export async function handlePending(pending: PendingPayment, options: HandlePendingOptions): Promise<PendingOutcome> {
  // Few payments are pending (a card whose issuer asks for an OTP), so the code that finishes one, the
  // OTP form and its texts included, is loaded here: a chunk of its own in the ESM build, inline in the
  // script-tag bundles. A chunk that does not load is `network`; nothing was shown, sent or navigated.
  return loadChunk(import('./pending-flow'), 'handlePending').then((flow) => flow.finishPending(pending, options));
}
