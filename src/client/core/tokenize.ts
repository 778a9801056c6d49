/**
 * Card details → nonce on the merchant's page: a chunk of its own in the ESM build, loaded at the first
 * `client.tokenize()` (or `attachForm`'s `tokenize()`), so that a page that only mounts the hosted
 * fields never downloads the card rules and the nonce call, which run in the frames there.
 */
import { type CardInput, type CheckedCard, checkCard, requestNonce } from '../../nonce';
import type { TokenizeResult } from '../../protocol/messages';
import { deadline } from '../../shared/deadline';
import type { ClientCore, TokenizeOptions } from './types';
import { withToken } from './with-token';
import { atPay } from '../pending/warm';

/** A card already checked, exchanged for a nonce with the client's token, under its deadline. */
export function tokenizeCard(core: ClientCore, card: CheckedCard, stop: AbortSignal | undefined): Promise<TokenizeResult> {
  const { base, merchantId, retries, timeoutMs } = core.config;
  const d = deadline(timeoutMs, 'tokenize', stop);
  return withToken(core, d, (token) => requestNonce({ base: base.href, merchantId, token, card, retries, signal: d.signal }))
    .then((result) => {
      // The payment is next: its pending code loads beside it (warm.ts).
      atPay.warm?.();
      return result;
    })
    .finally(d.done);
}

/**
 * `client.tokenize`: validates the card locally (nothing is sent for a card that cannot work), then
 * exchanges it for a nonce. Identical calls in flight share one request, so a double-clicked pay
 * button makes one nonce; the map holds a call only while it runs. A call with its own `signal` is
 * never shared, so that aborting it cannot fail another caller.
 */
export function tokenizer(core: ClientCore) {
  const inFlight = new Map<string, Promise<TokenizeResult>>();

  return (card: CardInput, options: TokenizeOptions = {}): Promise<TokenizeResult> => {
    let checked: CheckedCard;
    try {
      checked = checkCard(card);
    } catch (error) {
      return Promise.reject(error);
    }
    const run = () => tokenizeCard(core, checked, options.signal);
    if (options.signal) return run();
    const { body, name } = checked;
    const key = [body.number, body.expire_month, body.expire_year, body.cvv2, name].join('|');
    let call = inFlight.get(key);
    if (!call) {
      call = run().finally(() => inFlight.delete(key));
      inFlight.set(key, call);
    }
    return call;
  };
}
