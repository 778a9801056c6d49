import { type ClientConfig, type ClientOptions, resolveConfig } from './config';
import { createRequest, type Request } from './request';
import { tokenProvider, type TokenProvider } from './token';

/**
 * What every merchant-page feature shares: the checked config, the client token and the request
 * helper. tokenize uses it today; the hosted card form and the pending-payment helper reuse it.
 */
export interface ClientCore {
  config: ClientConfig;
  tokens: TokenProvider;
  request: Request;
}

/** No I/O: the token is fetched at the first request. */
export function createCore(options: ClientOptions): ClientCore {
  const config = resolveConfig(options);
  const tokens = tokenProvider(options.authorization);
  return { config, tokens, request: createRequest(config, tokens) };
}
