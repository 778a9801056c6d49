/**
 * How payframe calls a service, the same in the browser client, the frames and the server companion:
 * the limits a caller sets (one meaning, one check, here), one deadline for the whole call
 * (deadline.ts), and one retry loop for the calls that are safe to repeat (retry.ts). Three modules,
 * so that a page's bundler loads each with the code that uses it.
 */
import { configError } from './errors';

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
    throw configError('timeoutMs must be a positive number of milliseconds');
  }
  if (!(Number.isInteger(retries) && retries >= 0)) throw configError('retries must be a whole number, 0 or more');
  return { timeoutMs, retries };
}
