/**
 * Reading an HTTP answer (the service's, or the merchant route's to the CVV frame), one way in the
 * frames, the browser client and the server companion: the body read whole up to a cap, the HTTP
 * status → error code mapping, and the service's error body `{ code, name, message, eventId }`. Without valibot, so that the page and frame bundles stay small:
 * its wire type is `ErrorBodySchema` in src/schemas, and test/nonce/read.test.ts checks that both agree.
 */
import type { ErrorBody } from '../schemas';
import { readText } from './body';
import { type ErrorCode, PayframeError } from './errors';
import { urlOf } from './url-of';

/** An answer read whole: `text` is undefined when the body was over the cap (the rest was not read). */
export interface Answer {
  status: number;
  ok: boolean;
  text: string | undefined;
  /** A redirect, never followed (requests go with `redirect: 'manual'`): where it pointed, when the runtime says. */
  redirect?: string;
}

/**
 * A request that carries a card, a credential or a token is never redirected anywhere: it goes with
 * `redirect: 'manual'`, and a redirect is its answer (in a browser an opaque one, status 0).
 */
export const isRedirect = (response: Response): boolean =>
  response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);

export async function readAnswer(response: Response, max: number): Promise<Answer> {
  if (isRedirect(response)) {
    void response.body?.cancel().catch(() => undefined);
    return { status: response.status, ok: false, text: '', redirect: response.headers.get('location') ?? '' };
  }
  return { status: response.status, ok: response.ok, text: await readText(response, max) };
}

/** Where a redirect pointed, without its query (which could carry anything): for the error's message. */
function target(location: string, base: string): string {
  const url = urlOf(location, base);
  if (url) return `to ${url.origin}${url.pathname}`;
  return location ? 'to an address that is not a URL' : 'to an address the browser keeps hidden';
}

const byStatus: Record<number, ErrorCode> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  408: 'timeout',
  409: 'conflict',
  429: 'rate_limited',
};

export function codeForStatus(status: number): ErrorCode {
  return byStatus[status] ?? (status >= 500 ? 'server_error' : 'invalid_request');
}

export function isErrorBody(body: unknown): body is ErrorBody {
  const b = body as Record<string, unknown> | null;
  return typeof b === 'object' && b !== null && typeof b['code'] === 'string' && typeof b['name'] === 'string';
}

const UUID = /^[\da-f]{8}(?:-[\da-f]{4}){3}-[\da-f]{12}$/i;
/** `value` when it is a text of `shape` with at most 11 digits (no card number fits, glued to letters or not), or a UUID. */
const shaped = (value: unknown, shape: RegExp): string | undefined =>
  typeof value === 'string' && shape.test(value) && (UUID.test(value) || !/(\d\D*){12}/.test(value)) ? value : undefined;

/**
 * The shapes kept of a service's text: its error name (`REFUND_EXCEEDS_AMOUNT`, also a runtime's error
 * code such as `ECONNREFUSED`), its numeric result code, its id of the request. Anything else is
 * dropped: a name that is prose, or that could carry a card number, is not a name.
 */
export const asName = (value: unknown) => shaped(value, /^[A-Z][A-Z\d_]{0,63}$/);
export const asResultCode = (value: unknown) => shaped(value, /^\d{1,8}$/);
export const asEventId = (value: unknown) => shaped(value, /^[\w-]{1,64}$/);

/**
 * A refusal as a PayframeError, in payframe's own words: the request, then the service's error name
 * (or the status). The service's text is never in it, wherever it runs (it may quote the request: a
 * CVV, an OTP, a credential); `keep` keeps the body on the error (the server companion, which scrubbed it).
 */
export function refusal(status: number, body: unknown, what: string, keep?: boolean): PayframeError {
  const code = codeForStatus(status);
  if (!isErrorBody(body)) return new PayframeError(code, `${what}: HTTP ${status}`, { status, body });
  const reason = asName(body.name);
  return new PayframeError(code, `${what}: ${reason ?? `HTTP ${status}`}`, {
    status,
    resultCode: asResultCode(body.code),
    reason,
    eventId: asEventId(body['eventId']),
    body: keep ? body : undefined,
  });
}

/**
 * The body of a successful answer: its JSON, else its text (an HTML error page is kept as what it is).
 * A refusal, an answer over the cap `max`, or a redirect (named with `base`, the request's URL) is its
 * PayframeError; `keep`: a refusal keeps its body.
 */
export function answerBody(
  { status, ok, text, redirect }: Answer,
  what: string,
  max: number,
  base = 'https://invalid/',
  keep?: boolean,
): unknown {
  if (redirect !== undefined) {
    throw new PayframeError(
      'invalid_response',
      `${what}: the service answered a redirect (HTTP ${status} ${target(redirect, base)}); it was not followed, and nothing was sent there`,
      { status },
    );
  }
  if (text === undefined) {
    throw new PayframeError(
      ok ? 'invalid_response' : codeForStatus(status),
      `${what}: HTTP ${status}, an answer larger than ${max} bytes (not read)`,
      { status },
    );
  }
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // kept as text
  }
  if (!ok) throw refusal(status, body, what, keep);
  return body;
}
