import { type Deadline, deadline } from '../../shared/deadline';
import { PayframeError } from '../../shared/errors';
import type { ClientCore } from './types';

/**
 * Runs `send` with the client token under one overall deadline (`timeoutMs`, token fetch included).
 * A token the service refuses (401) is fetched again once and `send` runs once more; a token given as
 * a fixed string is not, and a failing refresh is the error: never a loop. Shared by `client.tokenize`
 * and the hosted form, whose frame makes the call with the token the page hands it.
 */
export async function withToken<T>(
  core: ClientCore,
  what: string,
  signal: AbortSignal | undefined,
  send: (token: string, deadline: Deadline) => Promise<T>,
): Promise<T> {
  const d = deadline(core.config.timeoutMs, what, signal);
  try {
    // The token provider stops this wait when the deadline's signal aborts, with its typed error.
    const token = await core.tokens.get(d.signal);
    try {
      return await send(token, d);
    } catch (error) {
      if (!(error instanceof PayframeError && error.status === 401 && core.tokens.invalidate(token))) throw error;
      return await send(await core.tokens.get(d.signal), d);
    }
  } finally {
    d.done();
  }
}
