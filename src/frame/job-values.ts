/**
 * The other fields' values as the number frame holds them, each with its version `n` (its frame counts
 * its changes), and what a job of the page takes of them: for each field, a value of the frame the page
 * heard, at least as new as the version the page last heard of (`seen`), so that a click on Pay right after
 * a key never pays the value before that key, nor a value of another frame.
 */
import type { FieldName } from '../shared/names';
import { PayframeError } from '../shared/errors';

export type Values = Partial<Record<FieldName, string>>;
/** The version of each field's value the page last heard of, as its `tokenize` names it. */
export type Seen = Partial<Record<FieldName, number>>;

/** Each frame document counts its versions from a random start (siblings.ts): within BLOCK of the version the page names, a value is of the frame it heard. */
export const BLOCK = 2 ** 20;

/** How long a job waits for the values still missing; the frames are loaded, so they answer in milliseconds. */
export const ANSWER_MS = 3000;

export interface JobValues {
  /**
   * A field's value and version, as its frame posted it. The last to come replaces the one held: one frame's
   * messages come in order; another frame's (the one before a reload, one planted on the channel) counts from
   * another start, so a job does not take it for the version the page names, and asks again.
   */
  put(field: FieldName, value: string, n: number): void;
  /**
   * The values of `fields`, each of a version at least `seen`'s and within BLOCK of it (from the same frame): at once when held, else once they come
   * (`ask` posts for them); a field still behind after `ANSWER_MS` is a `timeout` naming it. `signal` ends the wait.
   */
  take(seen: Seen, fields: FieldName[], signal: AbortSignal): Promise<Values>;
}

export function jobValues(ask: () => void): JobValues {
  const held = new Map<FieldName, { value: string; n: number }>();
  const waiting = new Set<() => void>();

  return {
    put(field, value, n) {
      held.set(field, { value, n });
      waiting.forEach((check) => check());
    },

    take: (seen, fields, signal) =>
      new Promise((resolve, reject) => {
        const behind = () =>
          fields.filter((f) => {
            const n = held.get(f)?.n ?? -1;
            // None held, older than the page saw, or of another frame (counting from another start).
            return n < (seen[f] ?? 0) || n - (seen[f] ?? n) >= BLOCK;
          });
        const end = (error?: unknown) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          waiting.delete(check);
          if (error !== undefined) reject(error);
          else resolve(Object.fromEntries(fields.map((f) => [f, held.get(f)!.value])));
        };
        const check = () => void (behind().length === 0 && end());
        const onAbort = () => end(signal.reason);
        const timer = setTimeout(() => {
          const missing = behind();
          end(new PayframeError('timeout', `the ${missing.join(', ')} field did not answer`, { fields: missing }));
        }, ANSWER_MS);
        if (signal.aborted) return onAbort();
        if (behind().length === 0) return end();
        signal.addEventListener('abort', onAbort);
        waiting.add(check);
        ask();
      }),
  };
}
