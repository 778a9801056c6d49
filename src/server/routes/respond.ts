/**
 * How the handlers answer: JSON never cached, payframe's refusal shape (`ErrorAnswer`), the body
 * read with a cap, and which status each error means to the page.
 */
import type { ErrorAnswer } from '../../protocol/wire';
import { MAX_REQUEST_BODY, readCapped } from '../../shared/body';
import { asName, asResultCode } from '../../shared/http-answer';
import { type ErrorCode, PayframeError } from '../../shared/errors';
import { UNTRUSTED_ADVICE, UNTRUSTED_CERTIFICATE } from '../calls/transport';

/** A handler of the Fetch standard: mounts on any runtime (Node via `toNodeListener`, Deno, Bun, workers). */
export type Handler = (request: Request) => Promise<Response>;

/** An answer as plain values, made once and served many times (its objects are frozen: never change them). */
export interface PlainAnswer {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: Uint8Array<ArrayBuffer> | null;
}

/**
 * A handler's answer to a bodiless request, from its method, URL and headers alone: what the handler
 * itself answers, without a `Request` or a `Response` made for it. A handler may carry one under this
 * key (`createFrameHost` does), for an adapter that would otherwise build both for each request
 * (`toNodeListener`, where they cost more than serving a page from memory).
 */
export const PLAIN = Symbol('payframe.plain');
export type PlainHandler = (method: string, url: URL, header: (name: string) => string | null) => PlainAnswer | Promise<PlainAnswer>;

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/** A refusal in payframe's shape. */
export const refusalResponse = (status: number, error: ErrorAnswer['error'], headers: Record<string, string> = {}): Response =>
  jsonResponse(status, { error } satisfies ErrorAnswer, headers);

/** The answer to a method a route does not take: 405, with the reason the sandbox gives too, and the methods it takes in `Allow`. */
export const methodNotAllowed = (allow: string, message = `use ${allow}`, headers: Record<string, string> = {}): Response =>
  refusalResponse(405, { code: 'invalid_request', reason: 'METHOD_NOT_ALLOWED', message }, { allow, ...headers });

/**
 * Runs `run` for `method` only; a PayframeError it throws is the JSON refusal (with `headers`, e.g.
 * CORS). A 5xx answer hides its cause from the page: `report` is told it (the gateway's `onEvent`).
 */
export function guarded(
  method: string,
  run: Handler,
  report: (status: number, error: unknown) => void,
  headers: Record<string, string> = {},
): Handler {
  return async (request) => {
    if (request.method !== method) return methodNotAllowed(method, undefined, headers);
    try {
      return await run(request);
    } catch (error) {
      if (!(error instanceof PayframeError)) {
        report(500, error);
        return refusalResponse(500, { code: 'server_error', message: 'internal error' }, headers);
      }
      const status = statusFor(error);
      if (status >= 500) report(status, error);
      const { code } = error;
      const reason = asName(error.reason);
      const resultCode = asResultCode(error.resultCode);
      // The service's own reason (AUTHENTICATE_NOT_SUPPORTED, SESSION_EXPIRED, ...) tells the page what to
      // do next, in its shape; the service's text never reaches the page (it may quote the request), nor
      // does a failure between the merchant and the service (5xx), which stays the merchant's business.
      // A refusal made on this server (no `status`: the merchant's own, or payframe's check of the input) keeps its words.
      if (status >= 500) return refusalResponse(status, { code, message: messageOf5xx(error, status) }, headers);
      const own = error.status === undefined || status === 413 || status === 415; // readJson's own refusals carry their status
      const message = own ? error.message : (REFUSED[code] ?? REFUSED.invalid_request!);
      return refusalResponse(status, { code, message, reason, resultCode }, headers);
    }
  };
}

/** What the page is told of a payment whose answer was lost: not a refusal, and not a reason to pay again. */
const OUTCOME_UNKNOWN = "the payment service's answer was lost: the payment's outcome is being checked; do not pay again";

const GENERIC: Record<number, string> = {
  500: 'the server failed',
  502: 'the payment service failed or refused this server',
  504: 'the payment service did not answer in time',
};

/** A refusal of the service as the page reads it: payframe's words for its code (the reason field says more). */
const REFUSED: Partial<Record<ErrorCode, string>> = {
  invalid_request: 'the payment service refused the request',
  not_found: 'the payment service does not know this payment or session',
  conflict: "the payment service refused it in the payment's present state",
};

/**
 * A 5xx answer's message: generic, never the service's text nor the merchant's. A connection of the
 * gateway's own that failed is told in payframe's words, made from the error's fields (that a call
 * threw it, its code, its cause's code as the runtime names it: an untrusted certificate's, with what
 * to do), never read back from a message: a merchant's own network error gets the generic words.
 */
function messageOf5xx(error: PayframeError, status: number): string {
  if (error.code === 'outcome_unknown') return OUTCOME_UNKNOWN;
  if (error.code !== 'network' || error.call === undefined) return GENERIC[status] ?? GENERIC[502]!;
  const cause = asName((error.cause as { code?: unknown } | undefined)?.code);
  return cause && UNTRUSTED_CERTIFICATE.test(cause)
    ? `the service's TLS certificate is not trusted (${cause}); ${UNTRUSTED_ADVICE}`
    : 'the connection failed';
}

/** What an error means to the page when it came from the service (it has a `status`). */
const FROM_SERVICE: Partial<Record<ErrorCode, number>> = {
  invalid_request: 400,
  not_found: 404,
  conflict: 409,
  timeout: 504,
  outcome_unknown: 504,
};
/** What an error made here means (the merchant's own code, in `handle` or `authorize`; no `status`). */
const OWN: Partial<Record<ErrorCode, number>> = {
  ...FROM_SERVICE,
  invalid_card: 400,
  unauthorized: 401,
  forbidden: 403,
  rate_limited: 429,
  server_error: 500,
  invalid_config: 500,
};

/**
 * The browser sees the service's refusals that concern it (bad input, a spent session); a problem
 * between the merchant and the service (credentials, outage) is the merchant's gateway failing (502).
 * An error made on this server (no `status` from the service) answers its own meaning.
 */
function statusFor(error: PayframeError): number {
  if (error.code === 'invalid_request' && (error.status === 413 || error.status === 415)) return error.status;
  return (error.status === undefined ? OWN : FROM_SERVICE)[error.code] ?? 502;
}

/** A request's body of media type `type`, read up to `max` bytes: 415 for another type, 413 past the cap. */
export async function readBody(request: Request, type: string, max: number, prefix = ''): Promise<Uint8Array> {
  const given = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (given !== type) throw new PayframeError('invalid_request', `${prefix}the body must be ${type}`, { status: 415 });
  const bytes = await readCapped(request.body, max, request.headers.get('content-length'));
  if (!bytes) throw new PayframeError('invalid_request', `${prefix}the body is over ${max} bytes`, { status: 413 });
  return bytes;
}

/** The request's JSON body: 415 for another type, 413 past the cap, 400 for what is not JSON. */
export async function readJson(request: Request): Promise<unknown> {
  const bytes = await readBody(request, 'application/json', MAX_REQUEST_BODY);
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new PayframeError('invalid_request', 'the body is not valid JSON');
  }
}

/** The request's JSON body, which must be an object: `readJson`'s refusals, and 400 for any other JSON. */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const body = await readJson(request);
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new PayframeError('invalid_request', 'the body must be a JSON object');
  return body as Record<string, unknown>;
}
