import type { Deadline } from '../../shared/deadline';
import { PayframeError } from '../../shared/errors';
import type { ClientCore } from './types';

/**
 * Runs `send` with the client token, under the call's one deadline `d`, which its caller made (the token
 * fetch, and anything the caller waited for before, are inside it). A token the service refuses (401) is
 * fetched again once and `send` runs once more; a token given as a fixed string is not, and a failing
 * refresh is the error: never a loop. Shared by `client.tokenize` and the hosted form, whose frame makes
 * the call with the token the page hands it.
 */
export async function withToken<T>(core: ClientCore, d: Deadline, send: (token: string) => Promise<T>): Promise<T> {
  // The token provider stops this wait when the deadline's signal aborts, with its typed error.
  const token = await core.tokens.get(d.signal);
  try {
    return await send(token);
  } catch (error) {
    if (!(error instanceof PayframeError && error.status === 401 && core.tokens.invalidate(token))) throw error;
    return await send(await core.tokens.get(d.signal));
  }
}
