import { type CardInput, checkCard, requestNonce, type TokenizeResult } from '../../tokenize';
import type { ClientCore, TokenizeOptions } from './types';
import { withToken } from './with-token';

/**
 * `client.tokenize`: validates the card locally (nothing is sent for a card that cannot work), then
 * exchanges it for a nonce. Identical calls in flight share one request, so a double-clicked pay
 * button makes one nonce; the map holds a call only while it runs. A call with its own `signal` is
 * never shared, so that aborting it cannot fail another caller.
 */
export function tokenizer(core: ClientCore) {
  const inFlight = new Map<string, Promise<TokenizeResult>>();

  return (card: CardInput, options: TokenizeOptions = {}): Promise<TokenizeResult> => {
    let checked;
    try {
      checked = checkCard(card);
    } catch (error) {
      return Promise.reject(error);
    }
    const { body, name } = checked;
    const { base, merchantId, retries } = core.config;
    const run = () =>
      withToken(core, 'tokenize', options.signal, (token, { signal }) =>
        requestNonce({ base: base.href, merchantId, token, card: checked, retries, signal }),
      );
    if (options.signal) return run();
    const key = [body.number, body.expire_month, body.expire_year, body.cvv2, name].join('|');
    let call = inFlight.get(key);
    if (!call) {
      call = run().finally(() => inFlight.delete(key));
      inFlight.set(key, call);
    }
    return call;
  };
}
