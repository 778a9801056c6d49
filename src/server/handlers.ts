import * as v from 'valibot';
import { readCapped } from '../shared/body';
import { type ErrorCode, PayframeError } from '../shared/errors';
import { AuthenticateRequestSchema, type Payment, PendingPaymentSchema } from '../schemas';
import type { GatewayCore } from './gateway';
import { readPayment } from './readers';
import { checked } from './transport';

/** A handler of the Fetch standard: mounts on any runtime (Node via `toNodeListener`, Deno, Bun, workers). */
export type Handler = (request: Request) => Promise<Response>;

export interface Handlers {
  /** `POST` only: answers `{ clientToken, expiresAt }`, never cached. */
  clientToken(): Handler;
  /**
   * `POST` JSON `{ referenceId, sessionId, otp }` (`AuthenticateBodySchema`): answers
   * `{ status, referenceId, state, code, text }`, never card data nor the raw payment. When the
   * service's answer is lost or the session is already used, the outcome is read from the session.
   */
  authenticate(options?: AuthenticateOptions): Handler;
  /**
   * The route a CVV-only hosted form posts to (`form.postCvv`): answers CORS for the card frames'
   * origin only (preflight included), reads the posted JSON, checks the CVV's shape, and calls
   * `handle` with it; `handle`'s value is the JSON answer the page receives.
   */
  cvv(options: CvvOptions): Handler;
}

export interface CvvOptions {
  /** Where the card frames are served; default: the gateway's origin (the frames' default home). */
  frameOrigin?: string;
  /**
   * Uses the CVV, for example in `payments.create({ card: { vaultCardId, cvv }, ... })`: `body` is what
   * the page passed to `postCvv({ body })` (a ticket of its checkout, say: the frame sends no cookie).
   * Its value is the answer (JSON); it must never hold the CVV. A `PayframeError` it throws answers
   * as the other handlers' refusals do.
   */
  handle: (input: { cvv: string; body: Record<string, unknown>; request: Request }) => unknown;
}

export interface AuthenticateOptions {
  /**
   * Whether the shopper behind `request` (their session cookie, say; the body is already read) may
   * finish the payment `referenceId`; anything but `true` answers 403 before any call to the service.
   * Without it, knowing a payment's ids is enough to send an OTP for it.
   */
  authorize?: (request: Request, referenceId: string) => boolean | Promise<boolean>;
}

/**
 * What the checkout page posts to the merchant's authenticate route. The page sends the session id,
 * not a URL: the handler builds the URL from the gateway's own base, so no URL comes from a browser.
 */
export const AuthenticateBodySchema = v.strictObject({
  referenceId: PendingPaymentSchema.entries.referenceId,
  sessionId: v.pipe(v.string(), v.regex(/^[\w-]{1,128}$/, 'sessionId must be a payment session id')),
  otp: AuthenticateRequestSchema.entries.otp,
});
export type AuthenticateBody = v.InferOutput<typeof AuthenticateBodySchema>;

/** Same cap as the service's own (README: at most 64 KiB). */
export const MAX_BODY_BYTES = 64 * 1024;

/** Errors after which the payment's outcome is worth reading from its session. */
const UNKNOWN_OUTCOME = new Set(['timeout', 'network', 'server_error', 'invalid_response']);

/**
 * After a failed authenticate call: the payment of this session when the error leaves its outcome open
 * and the payment has one now; otherwise the error stands.
 */
async function settledAfter(error: unknown, gateway: GatewayCore, sessionId: string, referenceId: string): Promise<Payment> {
  if (error instanceof PayframeError && (UNKNOWN_OUTCOME.has(error.code) || error.reason === 'SESSION_EXPIRED')) {
    const payment = await gateway.payments.session(sessionId).catch(() => undefined);
    if (payment && payment.reference_id === referenceId && payment.state !== 'pending') return payment;
  }
  throw error;
}

export function createHandlers(gateway: GatewayCore, gatewayOrigin: string): Handlers {
  return {
    clientToken: () =>
      guarded('POST', async () => {
        const token = await gateway.clientToken();
        return json(200, { clientToken: token.accessToken, expiresAt: token.expiresOn });
      }),
    authenticate: ({ authorize } = {}) => {
      if (authorize !== undefined && typeof authorize !== 'function') {
        throw new PayframeError('invalid_config', 'authenticate: authorize must be a function (request, referenceId) => boolean');
      }
      return guarded('POST', async (request) => {
        const { referenceId, sessionId, otp } = checked(AuthenticateBodySchema, await readJson(request));
        if (authorize && (await authorize(request, referenceId)) !== true) {
          return json(403, { error: { code: 'forbidden', message: 'this checkout may not finish this payment' } });
        }
        // The OTP may have been taken though its answer never came (a timeout, a dropped connection), or
        // by an earlier try whose answer was lost: the session then says how the payment ended, so the
        // payer is told that rather than "try again" or "expired" (and never pays twice).
        const payment = await gateway.payments
          .authenticate({ authenticateUrl: gateway.authenticateUrl(sessionId), referenceId, otp })
          .catch((error: unknown) => settledAfter(error, gateway, sessionId, referenceId));
        const { status, state, code, text } = readPayment(payment);
        return json(200, { status, referenceId: payment.reference_id, state, code, text });
      });
    },
    cvv: ({ frameOrigin = gatewayOrigin, handle } = {} as CvvOptions) => {
      if (typeof handle !== 'function') throw new PayframeError('invalid_config', 'cvv: handle must be a function ({ cvv, body, request }) => answer');
      if (!isOrigin(frameOrigin)) throw new PayframeError('invalid_config', 'cvv: frameOrigin must be an origin such as https://frames.example');
      const cors = { 'access-control-allow-origin': frameOrigin, vary: 'origin' };
      const post = guarded('POST', async (request) => {
        const body = await readJson(request);
        if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new PayframeError('invalid_request', 'the body must be a JSON object');
        const { cvv, ...rest } = body as Record<string, unknown>;
        if (typeof cvv !== 'string' || !/^\d{3,4}$/.test(cvv)) throw new PayframeError('invalid_request', 'cvv must be 3 or 4 digits');
        return json(200, (await handle({ cvv, body: rest, request })) ?? null, cors);
      }, cors);
      return async (request) => {
        // A browser names the page's origin; only the card frames may post a CVV here (and read the answer).
        if (request.headers.get('origin') !== frameOrigin) {
          return json(403, { error: { code: 'forbidden', message: 'only the card frames may post a security code here' } }, { vary: 'origin' });
        }
        if (request.method !== 'OPTIONS') return post(request);
        const headers = (request.headers.get('access-control-request-headers') ?? '').toLowerCase().split(',').map((h) => h.trim()).filter(Boolean);
        const ok = request.headers.get('access-control-request-method') === 'POST' && headers.every((h) => h === 'content-type' || h === 'accept');
        if (!ok) return json(403, { error: { code: 'forbidden', message: 'only a JSON POST is allowed here' } }, { vary: 'origin' });
        return new Response(null, {
          status: 204,
          headers: { ...cors, 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'content-type', 'access-control-max-age': '600' },
        });
      };
    },
  };
}

/** `https://host[:port]` (or http), and nothing more: what an Origin header holds. */
function isOrigin(text: unknown): text is string {
  try {
    return typeof text === 'string' && new URL(text).origin === text && /^https?:/.test(text);
  } catch {
    return false;
  }
}

/** Runs `run` for `method` only; a PayframeError it throws is the JSON refusal (with `headers`, e.g. CORS). */
function guarded(method: string, run: Handler, headers: Record<string, string> = {}): Handler {
  return async (request) => {
    if (request.method !== method) {
      return json(405, { error: { code: 'invalid_request', message: `use ${method}` } }, { allow: method, ...headers });
    }
    try {
      return await run(request);
    } catch (error) {
      if (!(error instanceof PayframeError)) return json(500, { error: { code: 'server_error', message: 'internal error' } }, headers);
      const status = statusFor(error);
      const { code, message, reason, resultCode } = error;
      // The service's own reason (AUTHENTICATE_NOT_SUPPORTED, SESSION_EXPIRED, ...) tells the page what to
      // do next; a failure between the merchant and the service (5xx) stays the merchant's business: its
      // message (the service's text, a path of the merchant's) is not the page's.
      return json(status, { error: status < 500 ? { code, message, reason, resultCode } : { code, message: messageOf5xx(error, status) } }, headers);
    }
  };
}

const GENERIC: Record<number, string> = {
  500: 'the server failed',
  502: 'the payment service failed or refused this server',
  504: 'the payment service did not answer in time',
};

/**
 * A 5xx answer's message: generic, never the service's text nor the merchant's. A network failure is
 * described by payframe's own words alone (why the connection failed: an untrusted sandbox
 * certificate, with what to do), without the request line before them.
 */
function messageOf5xx(error: PayframeError, status: number): string {
  const ownWords = error.code === 'network' ? /: (the (?:service's TLS certificate|connection) .*)$/s.exec(error.message)?.[1] : undefined;
  return ownWords ?? GENERIC[status] ?? GENERIC[502]!;
}

/** What an error means to the page when it came from the service (it has a `status`). */
const FROM_SERVICE: Partial<Record<ErrorCode, number>> = { invalid_request: 400, not_found: 404, conflict: 409, timeout: 504 };
/** What an error made here means (the merchant's own code, in `handle` or `authorize`; no `status`). */
const OWN: Partial<Record<ErrorCode, number>> = {
  ...FROM_SERVICE, invalid_card: 400, unauthorized: 401, forbidden: 403, rate_limited: 429, server_error: 500, invalid_config: 500,
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

async function readJson(request: Request): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new PayframeError('invalid_request', 'the body must be application/json', { status: 415 });
  }
  const bytes = await readCapped(request.body, MAX_BODY_BYTES, request.headers.get('content-length'));
  if (!bytes) throw new PayframeError('invalid_request', `the body is over ${MAX_BODY_BYTES} bytes`, { status: 413 });
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new PayframeError('invalid_request', 'the body is not valid JSON');
  }
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}
