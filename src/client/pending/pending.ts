import type { PendingPayment } from '../../protocol/wire';
import { loadChunk } from '../load';
import type { HandlePendingOptions, PendingOutcome } from './types';
import { atPay } from './warm';

export { readReturn } from './return';
export type { OtpFormState, OtpTexts } from './otp-form';
export type { HandlePendingOptions, PendingMode, PendingOutcome } from './types';

// Few payments are pending (a card whose issuer asks for an OTP), so the code that finishes one, the OTP
// form and its texts included, is a chunk of its own in the ESM build (inline in the script-tag bundles),
// fetched when the payer presses Pay. A chunk that does not load is `network`; nothing was shown, sent or navigated.
const flow = () => loadChunk(import('./pending-flow'), 'handlePending');
atPay.warm = () => void flow().catch(() => undefined);

/**
 * Finishes a pending payment in the browser. Every option is checked before anything is shown or
 * navigated. Settles when the payment is finished (approved, declined) or handed to the issuer's page
 * (redirected); rejects when it cannot be finished here. A failure worth retrying (the merchant's
 * server or the network) is shown in the form, which the payer can submit again.
 */
export async function handlePending(pending: PendingPayment, options: HandlePendingOptions): Promise<PendingOutcome> {
  // A load that failed (Pay's, which this call may have joined on its way) is asked for once more.
  return flow()
    .catch(flow)
    .then((f) => f.finishPending(pending, options));
}
