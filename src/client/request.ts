import ky, { HTTPError } from 'ky';
import * as v from 'valibot';
import { PayframeError } from '../errors';
import { errorFromResponse, parseResponse } from '../http';
import type { ClientConfig } from './config';
import type { TokenProvider } from './token';

export interface RequestOptions<S extends v.GenericSchema> {
  /** Path under the base URL, without a leading slash, e.g. `v1/merchants/m/credit-card-nonce`. */
  path: string;
  json: unknown;
  /** The schema of a successful answer; a mismatch is `invalid_response`. */
  schema: S;
  /**
   * Repeat after a network error or a 5xx. Only for calls where a spare result is harmless (a nonce
   * expires unused); never for a payment.
   */
  retry: boolean;
}

/** A POST with the client token, the client's overall timeout, retries and one token refresh. */
export type Request = <S extends v.GenericSchema>(options: RequestOptions<S>) => Promise<v.InferOutput<S>>;

const RETRY_STATUSES = [500, 502, 503, 504];

export function createRequest(config: ClientConfig, tokens: TokenProvider): Request {
  const api = ky.create({
    prefixUrl: config.base.href,
    // The deadline is ours (one signal for the whole call); ky's is per attempt.
    timeout: false,
    headers: { accept: 'application/json' },
  });

  return async ({ path, json, schema, retry }) => {
    const what = `POST /${path}`;
    const deadline = AbortSignal.timeout(config.timeoutMs);
    const send = (token: string) =>
      api.post(path, {
        json,
        signal: deadline,
        headers: { authorization: `Bearer ${token}` },
        retry: {
          limit: retry ? config.retries : 0,
          methods: ['post'],
          statusCodes: RETRY_STATUSES,
          delay: (attempt) => 150 * 2 ** (attempt - 1),
          backoffLimit: 1000,
        },
      });

    let response: Response;
    try {
      const token = await beforeDeadline(tokens.get(), deadline);
      try {
        response = await send(token);
      } catch (error) {
        // A refused token is fetched again once (it may have expired early); a fixed string is not.
        if (!(error instanceof HTTPError && error.response.status === 401 && tokens.invalidate(token))) throw error;
        response = await send(await beforeDeadline(tokens.get(), deadline));
      }
    } catch (error) {
      throw await failure(error, what, deadline);
    }
    return parseResponse(response, schema, what);
  };
}

/** The merchant's token function cannot be aborted, but the caller stops waiting at the deadline. */
function beforeDeadline<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * ky's errors hold the request and its Authorization header: none of them becomes `cause`, so a
 * PayframeError logged deeply cannot print the token.
 */
async function failure(error: unknown, what: string, deadline: AbortSignal): Promise<PayframeError> {
  if (error instanceof PayframeError) return error;
  if (deadline.aborted) return new PayframeError('timeout', `${what}: no answer in time`);
  if (error instanceof HTTPError) return errorFromResponse(error.response, what);
  // fetch's own TypeError (and its cause) holds no request, so it is safe to keep.
  const cause = error instanceof Error ? (error.cause ?? error) : error;
  return new PayframeError('network', `${what}: the connection failed`, { cause });
}
