/**
 * A job the page asks of a frame (a nonce, a CVV post), answered by id: both halves of the round trip.
 * The page's `asker` numbers its jobs and waits for each answer; the frame's `answerer` runs each job
 * under its own deadline and answers it once. An error crosses as data (transfer.ts).
 */
import { deadline } from '../shared/deadline';
import { isAnswer } from './job-answer';
import type { Out, Post, ToPage, Tokenize } from './messages';
import { fromErrorInfo, toErrorInfo } from './transfer';

/** A frame's answer to the page's job `id`. */
export type Answer = Extract<ToPage, { t: 'result' | 'posted' | 'failure' }>;
/** What the page asks a frame to do; the asker adds the id. */
export type Job = Omit<Out<Tokenize>, 'id'> | Omit<Out<Post>, 'id'>;
/** The page's way to ask its worker frame a job: the answer, or its failure. */
export type Ask = <T>(job: Job, stop: AbortSignal) => Promise<T>;

export interface Asker {
  /**
   * Sends a job under a new id (`send`), and settles once: with its answer, its failure as a
   * PayframeError, `stop`'s reason when the page stops waiting (the frame is told to `cancel`), or
   * `gone()` when the asker is closed.
   */
  ask<T>(send: (id: number) => void, stop: AbortSignal): Promise<T>;
  /** A frame's answer, to the job that waits for it (none, or one that does not carry what its type promises: dropped). */
  answer(m: Answer): void;
  /** Every waiting job, and every later one, rejects with `gone()`. */
  close(): void;
}

/** The page's half. */
export function asker(cancel: (id: number) => void, gone: () => Error): Asker {
  const pending = new Map<number, (answer?: Answer) => void>();
  let asked = 0;
  let closed = false;
  return {
    ask: <T>(send: (id: number) => void, stop: AbortSignal) =>
      new Promise<T>((resolve, reject) => {
        if (closed) return reject(gone());
        const id = ++asked;
        const onStop = () => {
          pending.delete(id);
          cancel(id);
          reject(stop.reason);
        };
        if (stop.aborted) return onStop();
        stop.addEventListener('abort', onStop, { once: true });
        // No answer: the asker was closed.
        pending.set(id, (answer) => {
          pending.delete(id);
          stop.removeEventListener('abort', onStop);
          if (!answer) reject(gone());
          else if (answer.t === 'failure') reject(fromErrorInfo(answer.error));
          else resolve((answer.t === 'result' ? answer.result : answer.body) as T);
        });
        send(id);
      }),
    answer: (m) => void (isAnswer(m) && pending.get(m.id)?.(m)),
    close() {
      closed = true;
      pending.forEach((done) => done());
    },
  };
}

type Work = (signal: AbortSignal, race: <T>(p: Promise<T>) => Promise<T>) => Promise<Out<Answer>>;

/** The frame's half: `answer` posts to the page. */
export function answerer(answer: (m: Out<Answer>) => void) {
  const running = new Map<number, AbortController>();
  return {
    /** Runs `work` for the page's job `id` under its deadline, and answers the page once: its result, or its error. */
    async run(id: number, timeoutMs: number, what: 'tokenize' | 'postCvv', work: Work): Promise<void> {
      const stop = new AbortController();
      running.set(id, stop);
      const d = deadline(timeoutMs, what, stop.signal);
      try {
        answer(await work(d.signal, d.race));
      } catch (caught) {
        answer({ t: 'failure', id, error: toErrorInfo(caught) });
      } finally {
        d.done();
        running.delete(id);
      }
    },
    /** The page stopped waiting for job `id`: its work stops (the failure it answers finds no one waiting). */
    cancel: (id: number) => running.get(id)?.abort(),
  };
}
