/**
 * The hosted form's `tokenize()`: the client token, then the number frame's job, under one deadline.
 * Its code is fetched when a full form is ready (a chunk of its own in the ESM build, inline in the
 * script-tag bundles), so that neither the mount nor the payer's first Pay waits for it.
 */
import type { Ask } from '../../protocol/ask';
import type { TokenizeResult } from '../../nonce/read';
import type { ClientCore } from '../core/types';
import { withToken } from '../core/with-token';

// The page's half of a job's round trip, with the first job's code (hosted.ts).
export { asker } from '../../protocol/ask';

export const tokenizeJob = (core: ClientCore, stop: AbortSignal | undefined, ask: Ask): Promise<TokenizeResult> =>
  withToken(core, 'tokenize', stop, (token, d) =>
    ask({ t: 'tokenize', token, timeoutMs: core.config.timeoutMs, retries: core.config.retries }, d.signal),
  );
