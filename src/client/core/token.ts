import { readErrorAnswer } from '../../protocol/merchant-answers';
import { raced } from '../../shared/race';
import { configError, PayframeError } from '../../shared/errors';
import { isTokenText } from '../../protocol/is';
import type { Authorization } from './config';

/** A token this close to its expiry is not used any more: a request must not die in flight. */
const EXPIRY_MARGIN_MS = 60_000;
/** A fetch older than this is not joined: the client's default timeout, after which its first caller has given up. */
const DEFAULT_STALE_AFTER_MS = 15_000;

export interface TokenProvider {
  /**
   * The current token; fetched on first use, and again when it is near its expiry. Callers at the same
   * time share one fetch. `signal` ends this caller's wait (pass the call's deadline). A fetch every
   * caller gave up on is dropped, and one older than `staleAfterMs` is not joined, so that a call of
   * the merchant's function that never settles cannot block the calls after it: they ask again.
   */
  get(signal?: AbortSignal): Promise<string>;
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

interface Fetch {
  promise: Promise<Held>;
  startedAt: number;
  /** Callers still waiting on it; at zero, before it settles, it is dropped. */
  waiters: number;
}

/** `staleAfterMs`: how old a fetch may be and still be joined (default 15 000 ms). */
export function tokenProvider(authorization: Authorization, staleAfterMs = DEFAULT_STALE_AFTER_MS): TokenProvider {
  if (typeof authorization === 'string') {
    return { get: () => Promise.resolve(authorization), invalidate: () => false };
  }
  let held: Held | undefined;
  let inFlight: Fetch | undefined;

  const start = (): Fetch => {
    const run: Fetch = { waiters: 0, startedAt: Date.now(), promise: Promise.resolve().then(authorization).then(readGrant, unauthorized) };
    // Only the fetch still in flight may set the token: a late answer of a dropped one is ignored.
    run.promise
      .then(
        (fresh) => inFlight === run && (held = fresh),
        () => undefined,
      )
      .finally(() => inFlight === run && (inFlight = undefined));
    return run;
  };

  const wait = async (run: Fetch, signal: AbortSignal | undefined) => {
    run.waiters++;
    try {
      return (await raced(run.promise, signal)).token;
    } finally {
      if (--run.waiters === 0 && inFlight === run) inFlight = undefined;
    }
  };

  return {
    async get(signal) {
      if (held && Date.now() < held.refreshAt) return held.token;
      // A caller that has already given up starts nothing.
      if (signal?.aborted) throw signal.reason;
      if (!inFlight || Date.now() - inFlight.startedAt >= staleAfterMs) inFlight = start();
      return wait(inFlight, signal);
    },
    invalidate(token) {
      if (held?.token === token) held = undefined;
      return true;
    },
  };
}

function unauthorized(error: unknown): never {
  if (error instanceof PayframeError) throw error;
  throw new PayframeError('unauthorized', 'the authorization function failed to fetch a client token', { cause: error });
}

function readGrant(grant: unknown): Held {
  // The merchant's server answered a handler's refusal (e.g. a 502 when its gateway failed) that
  // `fetch(...).then((r) => r.json())` passed on: it is that error, not a bad configuration.
  const error = readErrorAnswer(grant);
  if (error) {
    const detail = error.message === undefined ? '' : `: ${error.message}`;
    throw new PayframeError(error.code, `the merchant's server answered an error instead of a client token${detail}`, {
      reason: error.reason,
    });
  }
  const fields: Record<string, unknown> = typeof grant === 'object' && grant !== null ? { ...grant } : {};
  const token = typeof grant === 'string' ? grant : (fields['clientToken'] ?? fields['accessToken']);
  if (!isTokenText(token)) {
    throw configError('the authorization function must resolve to a client token, { clientToken } or { accessToken }');
  }
  // `expiresAt` is payframe's name (handlers.clientToken()); `expiresOn` the service's (gateway.clientToken()).
  const expiresAt = 'clientToken' in fields ? fields['expiresAt'] : fields['expiresOn'];
  const expiry = typeof expiresAt === 'string' ? Date.parse(expiresAt) : NaN;
  return { token, refreshAt: Number.isNaN(expiry) ? Infinity : expiry - EXPIRY_MARGIN_MS };
}
