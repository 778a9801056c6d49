import * as v from 'valibot';
import { PayframeError } from '../errors';
import { errorFromResponse, parseResponse } from '../http';

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
  const issue = parsed.issues[0]!;
  throw new PayframeError('invalid_request', `${v.getDotPath(issue) ?? 'body'}: ${issue.message}`);
}

/** A path segment made of a caller's id: encoded, and never one that would climb the path. */
export function segment(name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
    throw new PayframeError('invalid_request', `${name} must be a non-empty id`);
  }
  return encodeURIComponent(value);
}

/** Statuses after which a GET is tried again. */
const RETRY_STATUSES = new Set([500, 502, 503, 504]);

/**
 * One transport per gateway, on the runtime's own `fetch`: a prefix, the credentials, JSON, a timeout
 * per attempt, and retries of GET only. The service has no idempotency key, so a POST that dropped
 * may have been processed, and repeating it could charge twice. (ky did this before, at about five
 * times a bare fetch's cost per call: `npm run bench`, part 5.)
 */
export function createTransport(options: TransportOptions): Call {
  const prefix = new URL('v1/', options.base).href;
  const send = options.fetch ?? globalThis.fetch;
  const limit = options.retry?.limit ?? 2;
  const backoffMs = options.retry?.backoffMs ?? 300;

  return async (method, path, schema, call = {}) => {
    const what = `${method} /v1/${path}`;
    const url = new URL(path, prefix);
    for (const [name, value] of Object.entries(call.searchParams ?? {})) url.searchParams.set(name, value);
    const headers: Record<string, string> = { authorization: options.authorization, accept: 'application/json' };
    if (call.json !== undefined) headers['content-type'] = 'application/json';
    const init: RequestInit = { method, headers, body: call.json === undefined ? undefined : JSON.stringify(call.json) };
    for (let attempt = 0; ; attempt++) {
      const again = method === 'GET' && attempt < limit;
      let response: Response;
      try {
        response = await within(options.timeoutMs, (signal) => send(url, { ...init, signal }));
      } catch (error) {
        if (again && !(error instanceof PayframeError)) {
          await pause(backoffMs * 2 ** attempt);
          continue;
        }
        throw failure(error, what);
      }
      if (response.ok) return parseResponse(response, schema, what);
      if (again && RETRY_STATUSES.has(response.status)) {
        await response.body?.cancel().catch(() => undefined);
        await pause(backoffMs * 2 ** attempt);
        continue;
      }
      throw await errorFromResponse(response, what);
    }
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The response's headers within `ms`, else a `timeout` PayframeError (the body is read after, unhurried). */
async function within(ms: number, start: (signal: AbortSignal) => Promise<Response>): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    return await start(controller.signal);
  } catch (error) {
    throw controller.signal.aborted ? new PayframeError('timeout', 'no answer in time') : error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A failed attempt as a PayframeError. Only the socket's own error rides along as `cause`: never the
 * request, so that logging the error deeply cannot print the credentials.
 */
function failure(error: unknown, what: string): PayframeError {
  if (error instanceof PayframeError) return new PayframeError(error.code, `${what}: ${error.message}`);
  const cause = error instanceof Error ? (error.cause ?? error) : error;
  return new PayframeError('network', `${what}: the connection failed`, { cause });
}
