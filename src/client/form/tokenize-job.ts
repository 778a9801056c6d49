/**
 * The hosted form's `tokenize()` past its deadline's start: the client token, then the number frame's
 * job. Its code is fetched when a full form is ready (a chunk of its own in the ESM build, inline in the
 * script-tag bundles), so that neither the mount nor the payer's first Pay waits for it.
 */
import type { Ask } from '../../protocol/ask';
import type { Tokenize } from '../../protocol/messages';
import type { TokenizeResult } from '../../nonce/read';
import type { Deadline } from '../../shared/deadline';
import type { FieldName } from '../../protocol/names';
import { PayframeError } from '../../shared/errors';
import type { ClientCore } from '../core/types';
import { withToken } from '../core/with-token';

// The page's half of a job's round trip, with the first job's code (hosted.ts).
export { asker } from '../../protocol/ask';

/**
 * The client token, then the number frame's job, under the call's deadline `d` (hosted.ts made it at the
 * call); `seen`: the version of each field's value the page validated, read when the job goes (a retry's own).
 * A field of `fields` with no version then had its frame made anew since the call began (its container
 * moved): it is empty now, and the job does not go, whatever the number frame still holds of the frame before.
 */
export const tokenizeJob = (
  core: ClientCore,
  d: Deadline,
  ask: Ask,
  seen: Tokenize['seen'],
  fields: FieldName[],
): Promise<TokenizeResult> =>
  withToken(core, d, (token) => {
    const remade = fields.filter((f) => f !== 'number' && seen[f] === undefined);
    if (remade.length > 0)
      throw new PayframeError('invalid_card', `incomplete card details: ${remade.join(', ')}`, {
        fields: remade,
        reasons: Object.fromEntries(remade.map((f) => [f, 'empty'])),
      });
    return ask({ t: 'tokenize', token, timeoutMs: core.config.timeoutMs, retries: core.config.retries, seen: { ...seen } }, d.signal);
  });
