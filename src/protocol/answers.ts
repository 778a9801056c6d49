/** The guards of payframe's own wire (wire.ts): what the page and the frames read of the merchant server's answers. */
import { type ErrorCode, isErrorCode } from '../shared/errors';
import type { ErrorAnswer, OtpOutcome } from './wire';

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
