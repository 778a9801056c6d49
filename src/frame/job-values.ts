/**
 * The other fields' values a number frame's job waits for, by the page's job id. The job asks for them
 * when it begins (siblings.ts), so a value that comes for a job not begun, or over, is dropped: none is
 * kept for later, none is used for another job.
 */
import type { FieldName } from '../protocol/names';
import { PayframeError } from '../shared/errors';

export type Values = Partial<Record<FieldName, string>>;

/** How long a job waits for the values still missing; the frames are loaded, so they answer in milliseconds. */
export const ANSWER_MS = 3000;

export interface JobValues {
  /** A sibling's value for job `id`: to the job if it waits, else dropped. */
  put(id: number, field: FieldName, value: string): void;
  /**
   * Job `id` begins: the values of `fields` that come for it from now on; a field silent for
   * `ANSWER_MS` is a `timeout` naming it. The job's values are dropped when it settles or `signal` aborts.
   */
  take(id: number, fields: FieldName[], signal: AbortSignal): Promise<Values>;
}

export function jobValues(): JobValues {
  const waiting = new Map<number, (field: FieldName, value: string) => void>();

  return {
    put: (id, field, value) => waiting.get(id)?.(field, value),

    take(id, fields, signal) {
      const got: Values = {};
      const want = new Set(fields);
      return new Promise((resolve, reject) => {
        if (want.size === 0) return resolve(got);
        if (signal.aborted) return reject(signal.reason);
        const end = (error?: unknown) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          // A page that asked twice with one id: the later job's wait stays.
          if (waiting.get(id) === arrive) waiting.delete(id);
          if (error === undefined) resolve(got);
          else reject(error);
        };
        const onAbort = () => end(signal.reason);
        const timer = setTimeout(() => {
          const missing = [...want];
          end(new PayframeError('timeout', `the ${missing.join(', ')} field did not answer`, { fields: missing }));
        }, ANSWER_MS);
        const arrive = (name: FieldName, value: string) => {
          if (!want.delete(name)) return;
          got[name] = value;
          if (want.size === 0) end();
        };
        signal.addEventListener('abort', onAbort);
        waiting.set(id, arrive);
      });
    },
  };
}
