/**
 * payframe's own wire: what the merchant's server (the handlers of `payframe/server`) answers the
 * checkout page and its frames, and what the page sends it. Each shape is declared here once, with the
 * guard its readers use; the handlers build their answers with these types. Hand-written guards, no
 * valibot: they run on the merchant's page and in the frames.
 */
import type { PaymentState } from '../schemas';
import { type ErrorCode, isErrorCode } from '../shared/errors';

/** The payment session id of a pending payment (`redirect_url`, `authenticate_url`): 32 hex digits. */
export const SESSION_ID = /^[0-9a-f]{32}$/i;
/** A payment's `reference_id`, as the page may handle it. */
export const REFERENCE_ID = /^[\w.-]{1,128}$/;

/** `handlers.clientToken()`'s answer: the client token and when it expires (ISO 8601). */
export interface TokenGrant {
  clientToken: string;
  expiresAt: string;
}

/** What the merchant's server hands its checkout page about a pending payment (`toPending`); no card data, no credentials. */
export interface PendingPayment {
  referenceId: string;
  sessionId: string;
  redirectUrl: string;
}

/** What the checkout page posts to the merchant's `handlers.authenticate()` route. */
export interface OtpSubmission {
  referenceId: string;
  sessionId: string;
  otp: string;
}

/** `handlers.authenticate()`'s answer: how the payment ended after its OTP. */
export type OtpOutcome =
  | { status: 'approved'; referenceId: string; state: Exclude<PaymentState, 'pending' | 'declined'>; code: string; text?: string }
  | { status: 'declined'; referenceId: string; state: 'declined'; code: string; text?: string };

/** Every handler's refusal, and a CVV route's in payframe's shape. */
export interface ErrorAnswer {
  error: { code: ErrorCode; message: string; reason?: string; resultCode?: string };
}

const text = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : undefined);

/**
 * The refusal an answer carries (`{ error }`, whatever the merchant's server put there), or undefined
 * when it carries none. A code that is not one of payframe's becomes `fallback` and is kept as the
 * reason, when the answer gives none; texts are cut short.
 */
export function readErrorAnswer(answer: unknown, fallback: ErrorCode = 'server_error'): Partial<ErrorAnswer['error']> & { code: ErrorCode } | undefined {
  const error = (answer as { error?: unknown } | null)?.error;
  if (error === undefined) return undefined;
  const { code, message, reason, resultCode } = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  return {
    code: isErrorCode(code) ? code : fallback,
    message: text(message, 300),
    reason: text(reason, 64) ?? text(code, 64),
    resultCode: text(resultCode, 64),
  };
}

/** The merchant's answer as an OTP outcome for `referenceId`; undefined for anything else. */
export function readOtpOutcome(answer: unknown, referenceId: string): OtpOutcome | undefined {
  const { status, state, code, text: said } = (answer ?? {}) as Record<string, unknown>;
  const approved = status === 'approved' && (state === 'authorised' || state === 'captured');
  const ok = (approved || (status === 'declined' && state === 'declined')) && (answer as OtpOutcome).referenceId === referenceId && typeof code === 'string';
  return ok ? ({ status, referenceId, state, code, text: text(said, 300) } as OtpOutcome) : undefined;
}
