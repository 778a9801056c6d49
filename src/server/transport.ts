import ky, { HTTPError, TimeoutError } from 'ky';
import * as v from 'valibot';
import { PayframeError } from '../errors';
import { errorFromResponse, parseResponse } from '../http';
import { issueMessage } from '../schemas';
import { isPathSegment } from '../url';

export interface RetryOptions {
  /** Retries of a GET after a network error or a 5xx. Default 2. POST calls are never retried. */
  limit?: number;
  /** Delay before the first retry; it doubles on each further retry. Default 300 ms. */
  backoffMs?: number;
}

export interface TransportOptions {
  /** The service's base URL, already checked to be https, with a trailing slash. */
  base: URL;
  authorization: string;
  timeoutMs: number;
  fetch?: typeof globalThis.fetch;
  retry?: RetryOptions;
}

export interface CallOptions {
  json?: unknown;
  searchParams?: Record<string, string>;
}

export type Call = <S extends v.GenericSchema>(
  method: 'GET' | 'POST',
  path: string,
  schema: S,
  options?: CallOptions,
) => Promise<v.InferOutput<S>>;

/** A request body checked against its wire schema before sending; a mismatch is the caller's input. */
export function checked<S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
  let wire: unknown;
  try {
    wire = JSON.parse(JSON.stringify(body));
  } catch {
    // A BigInt or a cycle (in `custom`, `metadata`, ...): the message names no value.
    throw new PayframeError('invalid_request', 'the request cannot be written as JSON (a BigInt or a circular object?)');
  }
  const parsed = v.safeParse(schema, wire);
  if (parsed.success) return parsed.output;
  throw new PayframeError('invalid_request', issueMessage(parsed.issues[0]!));
}

/** A path segment made of a caller's id: encoded, and never one that would climb the path. */
export function segment(name: string, value: unknown): string {
  if (!isPathSegment(value)) throw new PayframeError('invalid_request', `${name} must be an id (not blank, not . or ..)`);
  return encodeURIComponent(value);
}

/**
 * One ky instance per gateway. Only GET is retried: the service has no idempotency key, so a POST
 * that dropped may have been processed, and repeating it could charge twice.
 */
export function createTransport(options: TransportOptions): Call {
  const backoffMs = options.retry?.backoffMs ?? 300;
  const api = ky.create({
    prefixUrl: new URL('v1/', options.base).href,
    timeout: options.timeoutMs,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    headers: { authorization: options.authorization, accept: 'application/json' },
    retry: {
      limit: options.retry?.limit ?? 2,
      methods: ['get'],
      statusCodes: [500, 502, 503, 504],
      retryOnTimeout: false,
      delay: (attempt) => backoffMs * 2 ** (attempt - 1),
    },
  });

  return async (method, path, schema, call = {}) => {
    const what = `${method} /v1/${path}`;
    let response: Response;
    try {
      response = await api(path, { method, json: call.json, searchParams: call.searchParams });
    } catch (error) {
      throw await failure(error, what);
    }
    return parseResponse(response, schema, what);
  };
}

/**
 * ky's own errors hold the request (with its Authorization header) and the options: none of them
 * rides along as `cause`, so logging a PayframeError deeply cannot print the credentials.
 */
async function failure(error: unknown, what: string): Promise<PayframeError> {
  if (error instanceof PayframeError) return error;
  if (error instanceof TimeoutError) return new PayframeError('timeout', `${what}: no answer in time`);
  if (error instanceof HTTPError) return errorFromResponse(error.response, what);
  const cause = error instanceof Error ? (error.cause ?? error) : error;
  return new PayframeError('network', `${what}: the connection failed`, { cause });
}
