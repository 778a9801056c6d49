import { PayframeError } from './errors';
import { raced } from './race';

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
  const onAbort = () => controller.abort(new PayframeError('aborted', `${what}: aborted by the caller`, { cause: caller?.reason }));
  const timer = setTimeout(() => controller.abort(new PayframeError('timeout', `${what}: no answer in ${timeoutMs} ms`)), timeoutMs);
  if (caller?.aborted) onAbort();
  else caller?.addEventListener('abort', onAbort);
  return {
    signal,
    race: (promise) => raced(promise, signal),
    done() {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onAbort);
    },
  };
}
