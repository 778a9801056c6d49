// The few HTTP pieces the merchant server needs on top of payframe/server: JSON answers, typed
// refusals, reading a JSON body, a tiny router of Fetch handlers, and the checkout cookie.
import { randomBytes } from 'node:crypto';
import { isPayframeError, PayframeError } from 'payframe/server';

/**
 * @typedef {{ ip: string | undefined, owner: string | undefined }} Context
 * @typedef {(request: Request, params: string[], ctx: Context) => Promise<Response>} Route
 */

/** @param {number} status @param {unknown} body @param {Record<string, string>} [headers] */
export const json = (status, body, headers = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });

/** A refusal of ours, in the same error type as payframe's. @param {import('payframe/server').ErrorCode} code @param {string} message */
export const refuse = (code, message) => new PayframeError(code, message);

const STATUS = /** @type {Record<string, number>} */ ({
  invalid_request: 400,
  invalid_card: 400,
  unsafe_url: 400,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  timeout: 504,
});

const FAILED = /** @type {Record<number, string>} */ ({
  502: 'The payment service failed or refused the shop’s server. Try again in a moment.',
  504: 'The payment service did not answer in time. Try again in a moment.',
});

/**
 * Every refusal as `{ error: { code, reason?, message } }`: `code` is payframe's stable code, `reason`
 * the service's name for it (`REFUND_EXCEEDS_AMOUNT`), `message` a sentence for the person. A
 * failure between this server and the service (credentials, outage) is 502; nothing else leaks.
 * @param {unknown} error @param {(error: PayframeError) => string | undefined} [explain]
 */
export function errorAnswer(error, explain) {
  if (!isPayframeError(error)) {
    console.error('merchant server: unexpected error', error);
    return json(500, { error: { code: 'server_error', message: 'The shop’s server failed unexpectedly.' } });
  }
  const status = error.status === 413 || error.status === 415 ? error.status : (STATUS[error.code] ?? 502);
  // A refusal that concerns the person is said in the service's words; a failure between this server and
  // the service is said generically (its text may name credentials, paths or the service's internals).
  const message = explain?.(error) ?? (status < 500 ? serviceText(error) : (FAILED[status] ?? FAILED[502]));
  return json(status, { error: { code: error.code, ...(error.reason ? { reason: error.reason } : {}), message } });
}

/**
 * The service's own sentence, from its refusal's body (which payframe keeps scrubbed of what the call
 * sent: no card number, CVV or secret), else payframe's message. @param {PayframeError} error
 */
export function serviceText(error) {
  const said = /** @type {{ message?: unknown } | undefined} */ (error.body)?.message;
  return error.status !== undefined && typeof said === 'string' ? said : error.message;
}

/**
 * The body as a JSON object (an empty one is `{}`); anything else is a typed refusal. The JSON media
 * type is required even for an empty body: another site's form or `fetch` cannot send it without a
 * CORS preflight, which this server never grants, so it cannot act here in a visitor's name.
 * @param {Request} request
 */
export async function readJson(request) {
  if (!/^application\/json\s*(?:;|$)/i.test(request.headers.get('content-type') ?? '')) {
    throw new PayframeError('invalid_request', 'The body must be application/json.', { status: 415 });
  }
  const text = await request.text();
  if (text === '') return {};
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    throw refuse('invalid_request', 'The body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw refuse('invalid_request', 'The body must be a JSON object.');
  return /** @type {Record<string, unknown>} */ (body);
}

/** Refuses keys the route does not know, so that a typo is not silently ignored. @param {Record<string, unknown>} body @param {string[]} known */
export function onlyKeys(body, known) {
  const extra = Object.keys(body).filter((key) => !known.includes(key));
  if (extra.length > 0) throw refuse('invalid_request', `Unknown field: ${extra[0]}.`);
}

/**
 * A router of `[method, pattern, route]`: path parameters are the pattern's groups, decoded.
 * @param {[string, RegExp, Route][]} table
 * @returns {(request: Request, ctx: Context) => Promise<Response | undefined>}
 */
export function router(table) {
  return async (request, ctx) => {
    const { pathname } = new URL(request.url);
    const matches = table.filter(([, pattern]) => pattern.test(pathname));
    if (matches.length === 0) return undefined;
    const found = matches.find(([method]) => method === request.method);
    if (!found) return json(405, { error: { code: 'invalid_request', message: `Use ${matches.map(([m]) => m).join(' or ')}.` } });
    const [, pattern, route] = found;
    let params;
    try {
      params = (pattern.exec(pathname) ?? []).slice(1).map((p) => decodeURIComponent(p ?? ''));
    } catch {
      return json(400, { error: { code: 'invalid_request', message: 'The path is not valid.' } });
    }
    return route(request, params, ctx);
  };
}

export const COOKIE = 'checkout';

/** The value of the request's cookie of this name, if it has one. @param {Request} request @param {string} name */
export function cookieOf(request, name) {
  const found = (request.headers.get('cookie') ?? '').split(/;\s*/).find((c) => c.startsWith(`${name}=`));
  return found?.slice(name.length + 1);
}

/** The checkout cookie's value: a random id that ties a pending payment to the browser that started it. @param {Request} request */
export function ownerOf(request) {
  const value = cookieOf(request, COOKIE);
  return value && /^[0-9a-f]{32}$/.test(value) ? value : undefined;
}

export const newOwner = () => randomBytes(16).toString('hex');

/** @param {string} owner */
export const ownerCookie = (owner) => `${COOKIE}=${owner}; Path=/; HttpOnly; SameSite=Lax`;
