import { type ClientConfig, type ClientOptions, resolveConfig } from './config';
import { tokenProvider, type TokenProvider } from './token';

/**
 * What every merchant-page feature shares: the checked config and the client token. `tokenize`, the
 * hosted card form and the pending-payment helper reach it through the client the merchant has.
 */
export interface ClientCore {
  config: ClientConfig;
  tokens: TokenProvider;
}

/** No I/O: the token is fetched at the first request. */
export function createCore(options: ClientOptions): ClientCore {
  const config = resolveConfig(options);
  return { config, tokens: tokenProvider(options.authorization) };
}

// The hosted form and the pending-payment helper reach the core through the client the merchant
// already has, without it being part of the public surface. It lives here, not in client.ts, so
// that they do not pull `client.tokenize` and the card core into a page that only mounts fields.
const cores = new WeakMap<object, ClientCore>();

export function keepCore(client: object, core: ClientCore): void {
  cores.set(client, core);
}

/** The core of a client made by `createClient`; undefined for anything else. */
export function coreOf(client: unknown): ClientCore | undefined {
  return typeof client === 'object' && client !== null ? cores.get(client) : undefined;
}
