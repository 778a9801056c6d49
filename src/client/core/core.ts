import { loadChunk } from '../load';
import { type ClientOptions, resolveConfig } from './config';
import { tokenProvider } from './token';
import type { Client, ClientCore, TokenizeLoader } from './types';

// The hosted form reaches the core through the client the merchant already has, without it being
// part of the public surface. It lives here, not in client.ts, so that a page that only mounts
// fields pulls neither `client.tokenize` nor the card core.
const cores = new WeakMap<object, ClientCore>();

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
