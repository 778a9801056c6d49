import { type PendingPayment, SESSION_ID } from '../../protocol/wire';
import { PayframeError } from '../../shared/errors';
import { urlOf } from '../../shared/url-of';
import { loadChunk } from '../load';
import type { HandlePendingOptions, PendingOutcome } from './types';

export type { OtpFormState, OtpTexts } from './otp-form';
export type { HandlePendingOptions, PendingMode, PendingOutcome } from './types';

/**
 * The payment session id the payer brings back from the redirect (`?payment-session-id=<id>` on the
 * merchant's `return_url`); `invalid_request` for anything that is not exactly one session id.
 */
export function readReturn(url: string | URL = location.href): { sessionId: string } {
  // Not a URL: no ids, refused below.
  const ids = urlOf(String(url))?.searchParams.getAll('payment-session-id') ?? [];
  if (ids.length !== 1 || !SESSION_ID.test(ids[0]!))
    throw new PayframeError('invalid_request', 'the return URL carries no payment session id');
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
