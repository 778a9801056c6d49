import ky, { HTTPError } from 'ky';
import * as v from 'valibot';
import { PayframeError } from '../errors';
import { errorFromResponse, networkError, parseResponse, RETRY_STATUSES, retryDelayMs } from '../http';
import { issueMessage } from '../schemas';
import { isPathSegment } from '../url';

/** Per call, on every gateway method. */
export interface RequestOptions {
  /** Aborts the call: it fails with `aborted`, and a request not yet sent is never sent. */
  signal?: AbortSignal;
}

export interface TransportOptions {
  /** The service's base URL, already checked, with a trailing slash. */
  base: URL;
  authorization: string;
  timeoutMs: number;
  retries: number;
  fetch?: typeof globalThis.fetch;
}

export interface SendOptions extends RequestOptions {
  json?: unknown;
  /** A body sent as is with `content-type: application/json` (the client-token request's literal). */
  jsonText?: string;
  searchParams?: Record<string, string>;
}

export type Call = <S extends v.GenericSchema>(
  method: 'GET' | 'POST',
  path: string,
  schema: S,
  options?: SendOptions,
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
 * One ky instance per gateway. `timeoutMs` bounds the whole call, retries included. Only GET is
 * retried: the service has no idempotency key, so a POST that dropped may have been processed, and
 * repeating it could charge twice.
 */
export function createTransport(options: TransportOptions): Call {
  const api = ky.create({
    prefixUrl: new URL('v1/', options.base).href,
    // The deadline is ours (one signal for the whole call); ky's would be per attempt.
    timeout: false,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    headers: { authorization: options.authorization, accept: 'application/json' },
    retry: { limit: options.retries, methods: ['get'], statusCodes: RETRY_STATUSES, delay: retryDelayMs },
  });

  return async (method, path, schema, call = {}) => {
    const what = `${method} /v1/${path}`;
    const { signal } = call;
    if (signal !== undefined && !(signal instanceof AbortSignal)) throw new PayframeError('invalid_request', 'signal must be an AbortSignal');
    const deadline = AbortSignal.timeout(options.timeoutMs);
    const stopped = () =>
      signal?.aborted ? new PayframeError('aborted', `${what}: aborted by the caller`, { cause: signal.reason })
        : deadline.aborted ? new PayframeError('timeout', `${what}: no answer within ${options.timeoutMs} ms`)
        : undefined;
    const body = call.jsonText === undefined ? { json: call.json } : { body: call.jsonText, headers: { 'content-type': 'application/json' } };
    let response: Response;
    try {
      response = await api(path, { method, ...body, searchParams: call.searchParams, signal: signal ? AbortSignal.any([signal, deadline]) : deadline });
    } catch (error) {
      if (error instanceof PayframeError) throw error;
      if (error instanceof HTTPError) throw await errorFromResponse(error.response, what);
      // ky's own errors hold the request (with its Authorization header): none rides along as `cause`.
      throw stopped() ?? networkError(what, error);
    }
    try {
      return await parseResponse(response, schema, what);
    } catch (error) {
      // A body cut off by the deadline or the caller is that, not a malformed answer.
      throw stopped() ?? error;
    }
  };
}
