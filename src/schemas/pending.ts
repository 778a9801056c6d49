import * as v from 'valibot';

/** The payment session id of `redirect_url` and `authenticate_url`: 32 hex digits. */
export const SessionId = v.pipe(v.string(), v.regex(/^[0-9a-f]{32}$/i, 'must be a payment session id (32 hex digits)'));

/**
 * What the merchant's server hands its checkout page about a pending payment (`toPending` in
 * payframe/server builds it; `handlePending` in the browser takes it). No card data, no credentials.
 */
export const PendingPaymentSchema = v.strictObject({
  referenceId: v.pipe(v.string(), v.regex(/^[\w.-]{1,128}$/, 'must be a payment reference id')),
  sessionId: SessionId,
  redirectUrl: v.pipe(v.string(), v.url()),
});
export type PendingPayment = v.InferOutput<typeof PendingPaymentSchema>;

/** What the checkout page posts to the merchant's `handlers.authenticate()` route. */
export type OtpSubmission = Pick<PendingPayment, 'referenceId' | 'sessionId'> & { otp: string };
