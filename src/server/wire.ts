/**
 * payframe's own wire as the server companion reads it (the page's posts) and checks it before the page
 * gets it: valibot schemas, for refusals that say which field is wrong, typed as the shapes
 * src/protocol/wire.ts declares (the page reads them with its hand-written guards).
 */
import * as v from 'valibot';
import { type SavedCardAction, type OtpSubmission, type PendingPayment, REFERENCE_ID, SESSION_ID } from '../protocol/wire';
import { AuthenticateRequestSchema } from '../schemas';

const ReferenceId = v.pipe(v.string(), v.regex(REFERENCE_ID, 'must be a payment reference id'));
const SessionId = v.pipe(v.string(), v.regex(SESSION_ID, 'must be a payment session id (32 hex digits)'));

/** What `toPending` hands the checkout page. */
export const PendingPaymentSchema: v.GenericSchema<unknown, PendingPayment> = v.strictObject({
  referenceId: ReferenceId,
  sessionId: SessionId,
  redirectUrl: v.pipe(v.string(), v.url()),
  otp: v.boolean(),
});

/**
 * What the checkout page posts to the merchant's authenticate route. The page sends the session id,
 * not a URL: the handler builds the URL from the gateway's own base, so no URL comes from a browser.
 */
export const OtpSubmissionSchema: v.GenericSchema<unknown, OtpSubmission> = v.strictObject({
  referenceId: ReferenceId,
  sessionId: SessionId,
  otp: AuthenticateRequestSchema.entries.otp,
});

/** What the payer's page posts to `handlers.savedCards()`. */
export const SavedCardActionSchema: v.GenericSchema<unknown, SavedCardAction> = v.strictObject({
  action: v.picklist(['remove', 'default'], 'must be remove or default'),
  cardId: v.pipe(v.string(), v.regex(/^[\w.-]{1,128}$/, 'must be a card id')),
});
