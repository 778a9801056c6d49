/**
 * The page's side of the worker frame's jobs (a nonce, a CVV post): it loads each job's code at first
 * use, and owns the asker, the page's half of their round trips (protocol/ask.ts), made with the first job.
 */
import type { Answer, Ask, Asker, asker } from '../../protocol/ask';
import type { Out, ToFrame, Tokenize, TokenizeResult } from '../../protocol/messages';
import type { CvvAnswer } from '../../protocol/wire';
import { deadline } from '../../shared/deadline';
import type { ClientCore } from '../core/types';
import { loadChunk } from '../load';
import { destroyedError } from './form';
import type { PostCvvOptions } from './types';

export interface Jobs {
  /**
   * Fetches the tokenize job's code and the client token off the mount's path, before the payer's first
   * Pay, so that Pay waits for neither. The token provider fetches it again at Pay if it expires meanwhile.
   */
  prefetch(): void;
  /** The form's tokenize, past its check; `check` is the form's own check, run again once the token is there. */
  tokenize(stop: AbortSignal | undefined, seen: Tokenize['seen'], check: () => void): Promise<TokenizeResult>;
  /** A CVV-only form's post: its options checked, then what sends it. */
  post(options: PostCvvOptions): Promise<() => Promise<CvvAnswer>>;
  /** The worker frame's answer to a job. */
  answer(m: Answer): void;
  /** Every waiting job, and every later one, is refused: the form is gone. */
  close(): void;
}

/**
 * A job's code with the asker's, which sits in a chunk of its own that each job's code shares (ESM),
 * inline in the script-tag bundles. The asker is taken by name, so that the bundler leaves out the rest
 * of its module (the frame's half).
 */
const withAsker = <T>(code: Promise<T>, what: string) =>
  loadChunk(Promise.all([code, import('../../protocol/ask').then(({ asker }) => asker)]), what);
/** The tokenize job: a chunk of its own, fetched when a full form is ready. */
const tokenizeCode = () => withAsker(import('./tokenize-job'), 'tokenize');

/** `send` posts a message to the worker frame (the number frame; a CVV-only form's CVV frame). */
export function pageJobs(core: ClientCore, send: (m: Out<ToFrame>) => void): Jobs {
  let jobs: Asker | undefined;
  /** The form was torn down: a job's code that arrives later starts nothing. */
  let torn = false;
  const ask =
    (make: typeof asker): Ask =>
    (job, stop) =>
      torn
        ? Promise.reject(destroyedError())
        : (jobs ??= make((id) => send({ t: 'cancel', id }), destroyedError)).ask((id) => send({ ...job, id }), stop);
  return {
    prefetch() {
      void tokenizeCode().catch(() => undefined);
      // A failed fetch keeps no token: Pay asks again, and says why if it fails again.
      void core.tokens.get().catch(() => undefined);
    },
    tokenize(stop, seen, check) {
      // The call's one deadline, from the call on: a job's code slow to arrive is inside it, and `stop` ends the wait.
      const d = deadline(core.config.timeoutMs, 'tokenize', stop);
      return d
        .race(tokenizeCode())
        .then(([m, make]) => {
          if (torn) throw destroyedError(); // no client token for a form that is gone
          return m.tokenizeJob(core, d, ask(make), seen, check);
        })
        .finally(d.done);
    },
    // Loaded at the first postCvv(): few checkouts pay a saved card again.
    post: (options) =>
      withAsker(import('./cvv-post'), 'postCvv').then(([m, make]) => m.cvvPost(options, location.origin, core.config.timeoutMs, ask(make))),
    answer: (m) => jobs?.answer(m),
    close() {
      torn = true;
      jobs?.close();
    },
  };
}
