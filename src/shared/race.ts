/**
 * A wait that an abort signal ends: the one race of the deadline's `race` (deadline.ts) and of the
 * token provider's callers. A module of its own, so that a page's bundler loads it with the token
 * provider, and the deadline only with the code that makes a call.
 */

/** Settles like `promise`, unless `signal` aborts first: then rejects with its reason. */
export const raced = <T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> =>
  new Promise((resolve, reject) => {
    const stop = () => reject(signal!.reason);
    if (signal?.aborted) return stop();
    signal?.addEventListener('abort', stop);
    promise.then(resolve, reject).finally(() => signal?.removeEventListener('abort', stop));
  });
