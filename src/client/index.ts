export { collectBrowserInfo } from './browser-info';
export { type Client, createClient } from './client';
export type { Authorization, ClientOptions, ClientTokenGrant } from './config';
export type { CardField, CardInput, TokenizeResult } from './tokenize';
export { handlePending, readReturn } from './pending';
export type { HandlePendingOptions, Locale, OtpFormState, OtpSubmission, PendingMode, PendingOutcome, PendingPayment } from './pending';
