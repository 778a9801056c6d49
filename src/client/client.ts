import { PayframeError } from '../errors';
import type { CardInput, TokenizeResult } from '../tokenize';
import type { ClientOptions } from './config';
import { createCore, keepCore } from './core';
import type { TokenizeOptions } from './tokenize';

export interface Client {
  readonly merchantId: string;
  /** The gateway origin, e.g. `https://api.ompay.com`. */
  readonly origin: string;
  /** Validates the card locally, then exchanges it for a single-use nonce. */
  tokenize(card: CardInput, options?: TokenizeOptions): Promise<TokenizeResult>;
}

/**
 * The merchant page's entry point. Throws `invalid_config` for bad options (a base URL that is not
 * https outside loopback, for instance); does no I/O until the first call.
 */
export function createClient(options: ClientOptions): Client {
  const core = createCore(options);
  // Loaded at the first call: a page that only mounts the hosted fields never downloads the card
  // rules and the nonce call, which run in the frames there (the script-tag bundle has them inline).
  // A chunk that fails to load (a deploy in between, a network blip) is `network`, and tried again next time.
  let tokenize: Promise<Client['tokenize']> | undefined;
  const load = () =>
    (tokenize ??= import('./tokenize').then(
      (m) => m.tokenizer(core),
      (cause: unknown) => {
        tokenize = undefined;
        throw new PayframeError('network', 'tokenize: the card rules did not load', { cause });
      },
    ));
  const client: Client = Object.freeze({
    merchantId: core.config.merchantId,
    origin: core.config.base.origin,
    tokenize: (card: CardInput, options?: TokenizeOptions) => load().then((run) => run(card, options)),
  });
  keepCore(client, core);
  return client;
}
