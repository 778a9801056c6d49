/**
 * What the number frame holds of the other fields' values, by the page's job id. With each `tokenize`
 * the page asks every other frame to `share` its value for that job: those values may come before the
 * page's `tokenize` itself, so a few are kept until it comes; none is used for any other job.
 */
import type { FieldName } from '../protocol/names';
import { PayframeError } from '../shared/errors';

export type Values = Partial<Record<FieldName, string>>;

/** How many jobs' early values are kept: the page runs one job at a time, so a few and never more. */
export const KEEP = 4;
/** How long a job waits for the values still missing; the frames are loaded, so they answer in milliseconds. */
export const ANSWER_MS = 3000;

export interface JobValues {
  /** A sibling's value for job `id`: to the job if it waits, kept if it has not begun, dropped if it is over. */
  put(id: number, field: FieldName, value: string): void;
  /**
   * Job `id` begins: the values of `fields` shared for it, those kept and those still to come; a field
   * silent for `ANSWER_MS` is a `timeout` naming it. Everything kept for this job or an older one is
   * forgotten, and the job's values are dropped when it settles or `signal` aborts.
   */
  take(id: number, fields: FieldName[], signal: AbortSignal): Promise<Values>;
}

export function jobValues(): JobValues {
  /** Values of jobs not begun yet, oldest first. */
  const early = new Map<number, Values>();
  const waiting = new Map<number, (field: FieldName, value: string) => void>();
  /** The newest job begun: values for it or an older one are taken only while that job waits. */
  let newest = -1;

  return {
    put(id, field, value) {
      const wait = waiting.get(id);
      if (wait) return wait(field, value);
      if (id <= newest) return;
      let kept = early.get(id);
      if (!kept) {
        early.set(id, (kept = {}));
        if (early.size > KEEP) early.delete(early.keys().next().value!);
      }
      kept[field] = value; // the latest a sibling read
    },

    take(id, fields, signal) {
      newest = Math.max(newest, id);
      const got: Values = {};
      const kept = early.get(id) ?? {};
      for (const old of early.keys()) if (old <= id) early.delete(old);
      const want = new Set(fields.filter((f) => {
        if (kept[f] === undefined) return true;
        got[f] = kept[f];
        return false;
      }));
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
