import type { ClientOptions } from './config';
import { type ClientCore, createCore } from './core';
import { type CardInput, type TokenizeResult, tokenizer } from './tokenize';

export interface Client {
  readonly merchantId: string;
  /** The gateway origin, e.g. `https://api.ompay.com`. */
  readonly origin: string;
  /** Validates the card locally, then exchanges it for a single-use nonce. */
  tokenize(card: CardInput): Promise<TokenizeResult>;
}

// Later features (hosted form, pending payments) reach the core through the client the merchant
// already has, without it being part of the public surface.
const cores = new WeakMap<Client, ClientCore>();

/** @internal */
export function coreOf(client: Client): ClientCore | undefined {
  return cores.get(client);
}

/**
 * The merchant page's entry point. Throws `invalid_config` for bad options (a base URL that is not
 * https outside loopback, for instance); does no I/O until the first call.
 */
export function createClient(options: ClientOptions): Client {
  const core = createCore(options);
  const client: Client = Object.freeze({
    merchantId: core.config.merchantId,
    origin: core.config.base.origin,
    tokenize: tokenizer(core),
  });
  cores.set(client, core);
  return client;
}
