// The `payframe` entry (ESM, and the `Payframe` global of the script-tag bundle). Importing it
// touches no window, document, network or timer: it is safe under server-side rendering.
export * from './card';
export { attachForm, type Client, collectBrowserInfo, createClient, handlePending, mountFields, readReturn } from './client';
export type {
  AttachOptions, Authorization, BrandInfo, CardField, CardForm, CardInput, ClientOptions, ClientTokenGrant, FieldName, FieldState,
  FieldStyles, FontSource, FormEvents, FormState, HostedField, Locale, MountOptions, PostCvvOptions, StyleState, TokenizeOptions, TokenizeResult,
} from './client';
export { type ErrorCode, isPayframeError, PayframeError, type PayframeErrorInit } from './shared/errors';
export type { BrowserInfo } from './schemas';
export type { HandlePendingOptions, OtpFormState, OtpSubmission, PendingMode, PendingOutcome, PendingPayment } from './client';
