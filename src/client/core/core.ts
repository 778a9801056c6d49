import type { Client } from './client';
import { type ClientConfig, type ClientOptions, resolveConfig } from './config';
import { loadChunk } from '../load';
import { tokenProvider, type TokenProvider } from './token';
import type { tokenizer } from './tokenize';

/**
 * What every merchant-page feature shares: the checked config and the client token. `tokenize`, the
 * hosted card form and the pending-payment helper reach it through the client the merchant has.
 */
export interface ClientCore {
  config: ClientConfig;
  tokens: TokenProvider;
}

// The hosted form reaches the core through the client the merchant already has, without it being
// part of the public surface. It lives here, not in client.ts, so that a page that only mounts
// fields pulls neither `client.tokenize` nor the card core.
const cores = new WeakMap<object, ClientCore>();

/** Where `client.tokenize` comes from: the card rules and the nonce call (./tokenize), loaded at its first call. */
export type TokenizeLoader = () => Promise<{ tokenizer: typeof tokenizer }>;

/**
 * The client `createClient` answers, its `tokenize` taken from what `load` answers. Checks the
 * options; no I/O: the token is fetched at the first request.
 */
export function clientWith(options: ClientOptions, load: TokenizeLoader): Client {
  const core: ClientCore = { config: resolveConfig(options), tokens: tokenProvider(options.authorization) };
  let tokenize: Promise<Client['tokenize']> | undefined;
  const ready = () =>
    (tokenize ??= loadChunk(load(), 'tokenize').then(
      (m) => m.tokenizer(core),
      (error: unknown) => {
        tokenize = undefined; // tried again next time
        throw error;
      },
    ));
  const client = Object.freeze<Client>({
    merchantId: core.config.merchantId,
    origin: core.config.base.origin,
    tokenize: (card, options) => ready().then((run) => run(card, options)),
  });
  cores.set(client, core);
  return client;
}

/** The core of a client made by `createClient`; undefined for anything else. */
export function coreOf(client: unknown): ClientCore | undefined {
  return typeof client === 'object' && client !== null ? cores.get(client) : undefined;
}
