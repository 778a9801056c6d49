/** Reading the merchant server's answers on payframe's own wire (wire.ts): what the page and the frames may take of them. */
import { type ErrorCode, isErrorCode } from '../shared/errors';
import { isWebUrl } from '../shared/url';
import { urlOf } from '../shared/url-of';
import { type CvvAnswer, type ErrorAnswer, type OtpOutcome, type PendingPayment, REFERENCE_ID, SESSION_ID } from './wire';

const text = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : undefined);

/**
 * The refusal an answer carries (`{ error }`, whatever the merchant's server put there), or undefined
 * when it carries none. A code that is not one of payframe's becomes `fallback` and is kept as the
 * reason, when the answer gives none; texts are cut short.
 */
export function readErrorAnswer(
  answer: unknown,
  fallback: ErrorCode = 'server_error',
): (Partial<ErrorAnswer['error']> & { code: ErrorCode }) | undefined {
  const error = (answer as { error?: unknown } | null)?.error;
  // `error: null` is a serializer's way of saying there is none (an approved answer may carry it).
  if (error === undefined || error === null) return undefined;
  const { code, message, reason, resultCode } = (typeof error === 'object' ? error : {}) as Record<string, unknown>;
  return {
    code: isErrorCode(code) ? code : fallback,
    message: text(message, 300),
    reason: text(reason, 64) ?? text(code, 64),
    resultCode: text(resultCode, 64),
  };
}

const REDIRECT_PATH = /^\/v1\/redirect\/([0-9a-f]{32})$/i;

/**
 * `redirectUrl` parsed, when it is the redirect page of exactly this payment session on the gateway's
 * `origin`: `https:` (plain `http:` on loopback hosts, as the client allows), path
 * `/v1/redirect/<sessionId>`, no userinfo. Undefined for anything else: it is never navigated to.
 */
export function redirectOf(redirectUrl: unknown, origin: unknown, sessionId: string): URL | undefined {
  const url = urlOf(redirectUrl);
  const ok =
    typeof redirectUrl === 'string' &&
    url !== undefined &&
    url.origin === origin &&
    isWebUrl(url) &&
    REDIRECT_PATH.exec(url.pathname)?.[1]?.toLowerCase() === sessionId.toLowerCase();
  return ok ? url : undefined;
}

const STATES = ['authorised', 'captured', 'voided', 'refunded', 'cancelled'];

/**
 * A CVV route's answer rebuilt from its known fields alone, or undefined when it is not one. Whatever
 * else the route put in its answer stays in the frame: each field kept is an enum, an id or a result
 * code the service made. `gateway`: the origin a pending payment's redirect must be on.
 */
export function readCvvAnswer(answer: unknown, gateway: string): CvvAnswer | undefined {
  const { status, referenceId, state, code, pending } = (answer ?? {}) as Record<string, unknown>;
  const shaped =
    typeof referenceId === 'string' &&
    REFERENCE_ID.test(referenceId) &&
    typeof code === 'string' &&
    /^\d{4}$/.test(code) &&
    (status === 'pending' || status === 'declined' ? state === status : status === 'approved' && STATES.includes(state as string));
  if (!shaped) return undefined;
  if (status !== 'pending') return { status, referenceId, state, code } as CvvAnswer;
  const p = (pending ?? {}) as Partial<PendingPayment>;
  const redirect =
    typeof p.sessionId === 'string' && SESSION_ID.test(p.sessionId) ? redirectOf(p.redirectUrl, gateway, p.sessionId) : undefined;
  if (!redirect || p.referenceId !== referenceId) return undefined;
  // `otp` only as a boolean: anything else is an older server's answer, read as one without it.
  const otp = typeof p.otp === 'boolean' && { otp: p.otp };
  return {
    status,
    referenceId,
    state,
    code,
    pending: { referenceId, sessionId: p.sessionId!, redirectUrl: redirect.href, ...otp },
  } as CvvAnswer;
}

/** The merchant's answer as an OTP outcome for `referenceId`; undefined for anything else. */
export function readOtpOutcome(answer: unknown, referenceId: string): OtpOutcome | undefined {
  const { status, state, code, text: said } = (answer ?? {}) as Record<string, unknown>;
  const approved = status === 'approved' && (state === 'authorised' || state === 'captured');
  const ok =
    (approved || (status === 'declined' && state === 'declined')) &&
    (answer as OtpOutcome).referenceId === referenceId &&
    typeof code === 'string';
  return ok ? ({ status, referenceId, state, code, text: text(said, 300) } as OtpOutcome) : undefined;
}
