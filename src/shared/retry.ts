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
export async function withRetries<A extends { status: number }>(
  retries: number,
  signal: AbortSignal,
  attempt: () => Promise<A>,
): Promise<A> {
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
