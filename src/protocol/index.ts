/**
 * Every contract the browser reads: the frame messages and their guards, the frame's address, payframe's
 * own wire; and the shared names (shared/names.ts).
 */
export { type FrameAddress, frameSrc, newChannel, readFrameAddress } from './address';
export { readSibling, readToFrame, readToPage } from './guards';
export type {
  Cancel,
  Command,
  Config,
  ErrorInfo,
  FieldStyles,
  FontSource,
  Post,
  Sibling,
  StyleState,
  ToFrame,
  ToPage,
  Tokenize,
} from './messages';
export {
  type CardField,
  FIELD_EVENTS,
  FIELD_NAMES,
  type FieldEvent,
  type FieldName,
  FORM_EVENTS,
  isFieldEvent,
  isFieldName,
  isLocale,
  type Locale,
  LOCALES,
} from '../shared/names';
export { MAX_POST_BODY, postTarget } from './post-target';
export { fromErrorInfo, toErrorInfo } from './transfer';
export { readErrorAnswer, readOtpOutcome } from './merchant-answers';
export {
  type ErrorAnswer,
  type OtpOutcome,
  type OtpSubmission,
  type PendingPayment,
  REFERENCE_ID,
  SESSION_ID,
  type TokenGrant,
} from './wire';
