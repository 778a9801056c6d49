// The `payframe` entry (ESM, and the `Payframe` global of the script-tag bundle). Importing it
// touches no window, document, network or timer: it is safe under server-side rendering.
export * from './card';
export { type Client, collectBrowserInfo, createClient } from './client';
export type { Authorization, CardField, CardInput, ClientOptions, ClientTokenGrant, TokenizeResult } from './client';
export { type ErrorCode, isPayframeError, PayframeError, type PayframeErrorInit } from './errors';
export type { BrowserInfo } from './schemas';
export { handlePending, readReturn } from './client';
export type { HandlePendingOptions, Locale, OtpFormState, OtpSubmission, PendingMode, PendingOutcome, PendingPayment } from './client';
