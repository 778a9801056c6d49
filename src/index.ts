// The `payframe` entry (ESM, and the `Payframe` global of payframe.full.umd.min.js). Importing it
// touches no window, document, network or timer: it is safe under server-side rendering.
//
// Each export is listed by name, so that nothing becomes public by being added to a module. Left out on
// purpose: the frame protocol (its messages, guards and addresses), the form's internals (createForm,
// the frames, the mount checks), the client token provider, the nonce request, and the card core's
// helpers below its public functions (the brand table, digit cleaning, caret arithmetic). They may
// change in any release.

// The client, the hosted card form and pending payments.
export { collectBrowserInfo, createClient, attachForm, mountFields, handlePending, readReturn } from './client';
export type {
  AttachOptions,
  Authorization,
  CardForm,
  Client,
  ClientOptions,
  ClientTokenGrant,
  FormEvents,
  FieldTextsByLocale,
  FormState,
  HandlePendingOptions,
  HostedField,
  MountOptions,
  OtpFormState,
  OtpTexts,
  PendingMode,
  PendingOutcome,
  PostCvvOptions,
  TokenizeOptions,
} from './client';
export type { BrandInfo, FieldState, FieldStyles, FontSource, StyleState } from './protocol/messages';
export type { CardField, FieldName, FieldReason, Locale, LocaleTag } from './shared/names';
export type { FieldTexts } from './protocol/texts';
export type { CvvAnswer, OtpSubmission, PendingPayment } from './protocol/wire';
export type { CardInput } from './nonce/card';
export type { TokenizeResult } from './protocol/messages';
export type { BrowserInfo } from './schemas';

// The card core: brand detection, validation and formatting, for a merchant's own fields or server.
export type { Brand, BrandId } from './card/brands';
export { brandsFor, detectBrand } from './card/detect';
export { type ExpiryValidation, formatExpiry, readExpiryParts, validateExpiry } from './card/expiry';
export { formatInput, formatNumber, type InputState } from './card/format';
export { luhn } from './card/luhn';
export { type NumberValidation, type Validation, validateCvv, validateNumber } from './card/validate';

// The one error class.
export { type ErrorCode, isPayframeError, PayframeError, type PayframeErrorInit } from './shared/errors';
