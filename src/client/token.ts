import { PayframeError } from '../errors';
import { type Authorization, type ClientTokenGrant, isTokenText } from './config';

/** A token this close to its `expiresOn` is not used any more: a request must not die in flight. */
const EXPIRY_MARGIN_MS = 60_000;

export interface TokenProvider {
  /** The current token; fetched on first use, and again when it is near its expiry. */
  get(): Promise<string>;
  /**
   * Forget `token` after the service refused it. Answers whether a fresh one can be fetched: false
   * for a fixed string token, which then stays refused.
   */
  invalidate(token: string): boolean;
}

interface Held {
  token: string;
  /** Epoch ms after which the token is fetched again; Infinity when the expiry is unknown. */
  refreshAt: number;
}

export function tokenProvider(authorization: Authorization, now: () => number = Date.now): TokenProvider {
  if (typeof authorization === 'string') {
    return { get: () => Promise.resolve(authorization), invalidate: () => false };
  }
  let held: Held | undefined;
  // Concurrent callers share one fetch: a page that tokenises twice asks the merchant once.
  let pending: Promise<Held> | undefined;

  const fetchToken = (): Promise<Held> => {
    pending ??= Promise.resolve()
      .then(authorization)
      .then(
        (grant) => (held = readGrant(grant)),
        (error: unknown) => {
          if (error instanceof PayframeError) throw error;
          throw new PayframeError('unauthorized', 'the authorization function failed to fetch a client token', { cause: error });
        },
      )
      .finally(() => (pending = undefined));
    return pending;
  };

  return {
    async get() {
      if (held && now() < held.refreshAt) return held.token;
      return (await fetchToken()).token;
    },
    invalidate(token) {
      if (held?.token === token) held = undefined;
      return true;
    },
  };
}

function readGrant(grant: ClientTokenGrant): Held {
  const token = typeof grant === 'string' ? grant : grant?.clientToken;
  if (!isTokenText(token)) {
    throw new PayframeError(
      'invalid_config',
      'the authorization function must resolve to a client token or { clientToken, expiresOn }',
    );
  }
  const expiresOn = typeof grant === 'object' ? grant.expiresOn : undefined;
  const expiry = expiresOn === undefined ? Number.NaN : Date.parse(expiresOn);
  return { token, refreshAt: Number.isNaN(expiry) ? Number.POSITIVE_INFINITY : expiry - EXPIRY_MARGIN_MS };
}
