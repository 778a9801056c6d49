/**
 * How payframe calls a service, the same in the browser client, the frames and the server companion:
 * the limits a caller sets (one meaning, one check), one deadline for the whole call, and one retry
 * loop for the calls that are safe to repeat.
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

export interface Deadline {
  /** Aborts at the deadline or when the caller's signal aborts; its `reason` is the typed error. */
  signal: AbortSignal;
  /** Settles like `promise`, unless the deadline comes first. */
  race<T>(promise: Promise<T>): Promise<T>;
  /** Stops the timer and lets go of the caller's signal. */
  done(): void;
}

/**
 * One overall deadline for a call (token fetch, attempts and pauses included). It aborts with a
 * PayframeError, `timeout` or `aborted` (the caller's reason as its `cause`), so whatever the abort
 * interrupts rejects with that error.
 */
export function deadline(timeoutMs: number, what: string, caller?: AbortSignal): Deadline {
  const controller = new AbortController();
  const { signal } = controller;
  const onAbort = () => controller.abort(new PayframeError('aborted', `${what}: aborted`, { cause: caller?.reason }));
  const timer = setTimeout(() => controller.abort(new PayframeError('timeout', `${what}: no answer in ${timeoutMs} ms`)), timeoutMs);
  if (caller?.aborted) onAbort();
  else caller?.addEventListener('abort', onAbort);
  return {
    signal,
    race: (promise) =>
      new Promise((resolve, reject) => {
        const stop = () => reject(signal.reason);
        if (signal.aborted) return stop();
        signal.addEventListener('abort', stop);
        promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
      }),
    done() {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onAbort);
    },
  };
}

/** Answers worth one more try of a call that is safe to repeat (a nonce request, a GET of the server companion). */
export const RETRY_STATUSES = [500, 502, 503, 504];

/** The wait before retry `attempt` (1, 2, ...): 150 ms, doubling, at most 1 s. */
export const retryDelayMs = (attempt: number): number => Math.min(150 * 2 ** (attempt - 1), 1000);

/** Waits `ms`; rejects with the signal's reason (the deadline's typed error) when it aborts first. */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });

/**
 * Runs `attempt` (a request and the reading of its answer), and again, `retries` times at most, after
 * it threw (a connection that failed or broke off) or answered one of RETRY_STATUSES, with a short
 * backoff. The last outcome stands: its answer, or what it threw. An abort of `signal` (a Deadline's)
 * ends it with the signal's reason, whatever the attempt was doing.
 */
export async function withRetries<A extends { status: number }>(retries: number, signal: AbortSignal, attempt: () => Promise<A>): Promise<A> {
  for (let n = 1; ; n++) {
    let answer: A;
    try {
      answer = await attempt();
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (n > retries) throw error;
      await pause(retryDelayMs(n), signal);
      continue;
    }
    if (n > retries || !RETRY_STATUSES.includes(answer.status)) return answer;
    await pause(retryDelayMs(n), signal);
  }
}
