/**
 * The page's jobs in a frame (a nonce, a CVV post): each under its own deadline, answered once with
 * its result or its error, and stopped when the page cancels it.
 */
import type { ToPage } from '../protocol/messages';
import { toErrorInfo } from '../protocol/transfer';
import { deadline } from '../shared/deadline';

type Out = ToPage extends infer M ? (M extends ToPage ? Omit<M, 'ch'> : never) : never;
type Work = (signal: AbortSignal, race: <T>(p: Promise<T>) => Promise<T>) => Promise<Out>;

export function jobs(toPage: (m: Out) => void) {
  const running = new Map<number, AbortController>();
  return {
    /** Runs `work` for the page's job `id`, and answers the page once. */
    async run(id: number, timeoutMs: number, what: 'tokenize' | 'postCvv', work: Work): Promise<void> {
      const stop = new AbortController();
      running.set(id, stop);
      const d = deadline(timeoutMs, what, stop.signal);
      try {
        toPage(await work(d.signal, d.race));
      } catch (caught) {
        toPage({ t: 'failure', id, error: toErrorInfo(caught) });
      } finally {
        d.done();
        running.delete(id);
      }
    },
    cancel: (id: number) => running.get(id)?.abort(),
  };
}
