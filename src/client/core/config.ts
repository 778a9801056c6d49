import { isTokenText } from '../../protocol/is';
import type { TokenGrant } from '../../protocol/wire';
import { configError } from '../../shared/errors';
import { type CallOptions, checkCallOptions } from '../../shared/call';
import { checkBaseUrl, isPathSegment } from '../../shared/url';

/**
 * What the merchant's own server hands the page: the bare client token; `{ clientToken, expiresAt }`
 * as `handlers.clientToken()` answers it; or the service's own client-token object
 * `{ accessToken, expiresOn, ... }` as `gateway.clientToken()` returns it (the interface document's 2.1: the service's names).
 */
export type ClientTokenGrant =
  string | (Pick<TokenGrant, 'clientToken'> & Partial<TokenGrant>) | { accessToken: string; expiresOn?: string };

/**
 * A client token, or a function that fetches one from the merchant's server (for example from
 * `payframe/server`'s `handlers.clientToken()`, which answers `{ clientToken, expiresAt }`). The
 * function is called at the first request, again near the token's expiry, and again once when the
 * service refuses the token; an answer `{ error: { code, message } }` (a handler's error) is that error.
 */
export type Authorization = string | (() => Promise<ClientTokenGrant>);

export interface ClientOptions extends CallOptions {
  merchantId: string;
  authorization: Authorization;
  /** The gateway, e.g. `https://api.ompay.com`. Must be https, except on loopback hosts. */
  baseUrl: string;
}

export interface ClientConfig {
  merchantId: string;
  /** The base URL with a trailing slash, so relative paths resolve under it. */
  base: URL;
  timeoutMs: number;
  retries: number;
}

/** Checks the options without any I/O: a bad config fails at `createClient`, not at the first payment. */
export function resolveConfig(options: ClientOptions): ClientConfig {
  if (options === null || typeof options !== 'object') {
    throw configError('createClient needs an options object');
  }
  const { merchantId, authorization, baseUrl } = options;
  if (!isPathSegment(merchantId)) {
    throw configError('merchantId must be a merchant id (not blank, not . or ..)');
  }
  const validAuth = isTokenText(authorization) || typeof authorization === 'function';
  if (!validAuth) {
    throw configError('authorization must be a client token or a function that fetches one');
  }
  const base = checkBaseUrl(baseUrl);
  return { merchantId, base, ...checkCallOptions(options) };
}
