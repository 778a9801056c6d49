/**
 * A refusal of the service, read without valibot so that the page and frame bundles stay small: the
 * HTTP status → error code mapping, the error body `{ code, name, message, eventId }`, and the retry policy. Its wire
 * type is `ErrorBodySchema` in src/schemas; test/tokenize/read.test.ts checks that both agree.
 */
import { type ErrorCode, PayframeError } from './errors';
import type { ErrorBody } from '../schemas';

/** Answers worth one more try of a call that is safe to repeat (a nonce request, a GET of the server companion). */
export const RETRY_STATUSES = [500, 502, 503, 504];

/** The wait before retry `attempt` (1, 2, ...): 150 ms, doubling, at most 1 s. */
export const retryDelayMs = (attempt: number): number => Math.min(150 * 2 ** (attempt - 1), 1000);

const byStatus: Record<number, ErrorCode> = { 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 408: 'timeout', 409: 'conflict', 429: 'rate_limited' };

export function codeForStatus(status: number): ErrorCode {
  return byStatus[status] ?? (status >= 500 ? 'server_error' : 'invalid_request');
}

export function isErrorBody(body: unknown): body is ErrorBody {
  const b = body as Record<string, unknown> | null;
  return typeof b === 'object' && b !== null && typeof b['code'] === 'string' && typeof b['name'] === 'string';
}

/** A refusal as a PayframeError; the service's details when the body has the error shape, else the body itself. */
export function refusal(status: number, body: unknown, what: string): PayframeError {
  const code = codeForStatus(status);
  if (!isErrorBody(body)) return new PayframeError(code, `${what}: HTTP ${status}`, { status, body });
  const { name, message, eventId } = body;
  return new PayframeError(code, `${what}: ${name}${typeof message === 'string' ? `: ${message}` : ''}`, { status, resultCode: body.code, reason: name, eventId: typeof eventId === 'string' ? eventId : undefined });
}
