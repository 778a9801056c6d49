/**
 * The hosted form's `tokenize()` past its deadline's start: the client token, then the number frame's
 * job. Its code is fetched when a full form is ready (a chunk of its own in the ESM build, inline in the
 * script-tag bundles), so that neither the mount nor the payer's first Pay waits for it.
 */
import type { Ask } from '../../protocol/ask';
import type { Tokenize, TokenizeResult } from '../../protocol/messages';
import type { Deadline } from '../../shared/deadline';
import type { ClientCore } from '../core/types';
import { withToken } from '../core/with-token';
import { atPay } from '../pending/warm';

/**
 * The client token, then the number frame's job, under the call's deadline `d` (jobs.ts made it at the
 * call); `seen`: the version of each field's value the page validated, read when the job goes (a retry's own).
 * `check` is the form's own check again, once the token is there: a field whose frame was made anew while
 * the call waited (its container moved) is empty now, and the job does not go, whatever the number frame
 * still holds of the frame before.
 */
export const tokenizeJob = (core: ClientCore, d: Deadline, ask: Ask, seen: Tokenize['seen'], check: () => void): Promise<TokenizeResult> =>
  withToken<TokenizeResult>(core, d, (token) => {
    check();
    return ask({ t: 'tokenize', token, timeoutMs: core.config.timeoutMs, retries: core.config.retries, seen: { ...seen } }, d.signal);
  }).then((result) => {
    // The nonce is here and the payment is next: its pending code loads beside it, off the nonce's path.
    atPay.warm?.();
    return result;
  });
