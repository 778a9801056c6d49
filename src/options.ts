/**
 * The limits both the browser client and the server companion take, with one meaning and one check:
 * `timeoutMs` bounds the whole call, `retries` counts the repeats of a call that is safe to repeat.
 */
import { PayframeError } from './errors';

export interface CallOptions {
  /** The whole call: every attempt, the waits between them (and on the page the token fetch). Default 15 000 ms. */
  timeoutMs?: number;
  /**
   * Repeats after a network error or a 5xx (500, 502, 503, 504), only of calls that are safe to
   * repeat: a nonce request, a GET. A payment, capture, void, refund or OTP is never repeated: the
   * service has no idempotency key. Default 2.
   */
  retries?: number;
}

/** A number of milliseconds a timer can wait: positive, and at most 2^31 - 1 (timers wait no longer). */
export const isTimeout = (ms: unknown): ms is number => typeof ms === 'number' && ms > 0 && ms <= 2_147_483_647;

/** The checked limits with their defaults, or `invalid_config`. */
export function checkCallOptions({ timeoutMs = 15_000, retries = 2 }: CallOptions): Required<CallOptions> {
  if (!isTimeout(timeoutMs)) {
    throw new PayframeError('invalid_config', 'timeoutMs must be a positive number of milliseconds');
  }
  if (!(Number.isInteger(retries) && retries >= 0)) throw new PayframeError('invalid_config', 'retries must be a whole number, 0 or more');
  return { timeoutMs, retries };
}
