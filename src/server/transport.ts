import * as v from 'valibot';
import { PayframeError } from '../shared/errors';
import { errorFromResponse, networkError, parseResponse, RETRY_STATUSES, retryDelayMs } from './answers';
import { issueMessage } from '../schemas';
import { isPathSegment } from '../shared/url';

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
 * One transport per gateway, on the runtime's own `fetch`: a prefix, the credentials, JSON, one deadline
 * for the whole call (`timeoutMs`, retries included), the caller's `signal`, and retries of GET only.
 * The service has no idempotency key, so a POST that dropped may have been processed, and repeating it
 * could charge twice. (ky did this before, at about five times a bare fetch's cost per call: `npm run
 * bench`, part 5.)
 */
export function createTransport(options: TransportOptions): Call {
  const prefix = new URL('v1/', options.base).href;
  const send = options.fetch ?? globalThis.fetch;

  return async (method, path, schema, call = {}) => {
    const what = `${method} /v1/${path}`;
    const { signal } = call;
    if (signal !== undefined && !(signal instanceof AbortSignal)) throw new PayframeError('invalid_request', 'signal must be an AbortSignal');
    const deadline = AbortSignal.timeout(options.timeoutMs);
    const both = signal ? AbortSignal.any([signal, deadline]) : deadline;
    const stopped = () =>
      signal?.aborted ? new PayframeError('aborted', `${what}: aborted by the caller`, { cause: signal.reason })
        : deadline.aborted ? new PayframeError('timeout', `${what}: no answer within ${options.timeoutMs} ms`)
        : undefined;

    const url = new URL(path, prefix);
    for (const [name, value] of Object.entries(call.searchParams ?? {})) url.searchParams.set(name, value);
    const headers: Record<string, string> = { authorization: options.authorization, accept: 'application/json' };
    const body = call.jsonText ?? (call.json === undefined ? undefined : JSON.stringify(call.json));
    if (body !== undefined) headers['content-type'] = 'application/json';
    const init: RequestInit = { method, headers, body, signal: both };

    try {
      for (let attempt = 1; ; attempt++) {
        const again = method === 'GET' && attempt <= options.retries;
        let response: Response;
        try {
          if (both.aborted) throw both.reason;
          response = await send(url, init);
        } catch (error) {
          if (again && !both.aborted) {
            await pause(retryDelayMs(attempt), both);
            continue;
          }
          // Only the socket's own error rides along as `cause`, never the request and its credentials.
          throw stopped() ?? networkError(what, error);
        }
        if (response.ok) return await parseResponse(response, schema, what);
        if (again && RETRY_STATUSES.includes(response.status)) {
          await response.body?.cancel().catch(() => undefined);
          await pause(retryDelayMs(attempt), both);
          continue;
        }
        throw await errorFromResponse(response, what);
      }
    } catch (error) {
      // A body cut off by the deadline or the caller is that, not a malformed answer.
      throw stopped() ?? error;
    }
  };
}

/** Waits `ms`, or less when `signal` aborts (the loop then reports why). */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
