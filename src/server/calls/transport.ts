/**
 * How the server companion calls the service: one transport per gateway on the runtime's own `fetch`,
 * the request body checked against its wire schema before it is sent, the answer against its schema.
 */
import * as v from 'valibot';
import { issueMessage } from '../../schemas';
import { type Answer, answerBody, readAnswer } from '../../shared/http-answer';
import { MAX_SERVICE_ANSWER } from '../../shared/body';
import { deadline } from '../../shared/deadline';
import { withRetries } from '../../shared/retry';
import { isPayframeError, PayframeError, type PayframeErrorInit } from '../../shared/errors';
import { isPathSegment } from '../../shared/url';
import { callEvent, type CallMethod, emit, type EventListener } from '../events';
import { scrubAnswerText, scrubText, scrubValue, secretsOf } from '../scrub';

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
  /** Told of every call once it has ended (events.ts). */
  onEvent?: EventListener | undefined;
}

export interface SendOptions extends RequestOptions {
  json?: unknown;
  /** A body sent as is with `content-type: application/json` (the client-token request's literal). */
  jsonText?: string;
  searchParams?: Record<string, string>;
  /**
   * A POST that changes nothing at the service (the client token): a lost answer is a plain `network`
   * or `timeout`. Every other POST whose answer is lost after it was sent is `outcome_unknown`.
   */
  changesNothing?: boolean;
}

export type Call = <S extends v.GenericSchema>(
  method: CallMethod,
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

/** What to do about a certificate the runtime does not trust (the page may read it: see respond.ts). */
export const UNTRUSTED_ADVICE =
  'for the local sandbox, use its development URL (plain http on loopback: `sandbox.httpUrl`, or the URL `npx payframe sandbox` prints) or trust its certificate (`sandbox.ca`, e.g. NODE_EXTRA_CA_CERTS=ca.pem)';

/** Error codes of Node's TLS layer for a certificate it does not trust (self-signed, unknown issuer, wrong host, expired). */
export const UNTRUSTED_CERTIFICATE = /CERT|SELF_SIGNED|UNABLE_TO_(VERIFY|GET_ISSUER)/;

/** What fetch's TypeError carries of the socket (its `cause`), and that error's code, such as `ECONNRESET`. */
const causeOf = (error: unknown): unknown => (error instanceof Error ? (error.cause ?? error) : error);
const codeOf = (cause: unknown): unknown => (typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined);

/**
 * A connection that failed (fetch's TypeError, whose `cause` holds no request and is kept). When the
 * cause is a certificate the runtime does not trust, the message says so and what to do: the local
 * sandbox's certificate is self-signed.
 */
function networkError(what: string, error: unknown): PayframeError {
  const cause = causeOf(error);
  const code = codeOf(cause);
  if (typeof code === 'string' && UNTRUSTED_CERTIFICATE.test(code)) {
    return new PayframeError('network', `${what}: the service's TLS certificate is not trusted (${code}); ${UNTRUSTED_ADVICE}`, { cause });
  }
  return new PayframeError('network', `${what}: the connection failed`, { cause });
}

/**
 * Connection failures that happen before a request is written (no address, refused, unreachable, a
 * certificate refused in the handshake): such a request certainly never reached the service.
 */
const NEVER_SENT =
  /^(?:ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|EADDRNOTAVAIL|UND_ERR_CONNECT_TIMEOUT|ERR_TLS_CERT_ALTNAME_INVALID)$/;

/** A POST that moves money was sent and `why` (its answer lost, a gateway's 5xx): the service may have acted on it. */
const outcomeUnknown = (what: string, why: string, init: PayframeErrorInit) =>
  new PayframeError(
    'outcome_unknown',
    `${what}: the request was sent and ${why}; the service may have acted on it. Do not send it again: read the payment (payments.get or payments.settle) or wait for its notification`,
    init,
  );

/**
 * A POST that may have reached the service and whose answer was lost (a deadline, an abort, a broken
 * connection): `outcome_unknown`, never the `network` or `timeout` of a request that never left, so that
 * nobody reads it as a refusal and pays again. Undefined when it certainly never left.
 */
function lostAnswer(what: string, error: unknown): PayframeError | undefined {
  if (isPayframeError(error)) {
    if (error.code !== 'timeout' && error.code !== 'aborted' && error.code !== 'network') return undefined;
    const why = error.code === 'network' ? 'the connection broke' : `the call was ${error.code === 'timeout' ? 'timed out' : 'aborted'}`;
    return outcomeUnknown(what, `its answer was lost (${why})`, { cause: error });
  }
  const cause = causeOf(error);
  const code = codeOf(cause);
  if (typeof code === 'string' && (NEVER_SENT.test(code) || UNTRUSTED_CERTIFICATE.test(code))) return undefined;
  return outcomeUnknown(what, 'its answer was lost (the connection broke)', { cause });
}

/**
 * An answer that does not tell what became of a POST the service took (or may have taken): a gateway in
 * front of the service that gave up on it (502, 504), or a success whose record cannot be read. Either
 * way the payment may exist: `outcome_unknown`, keeping the status and what arrived.
 */
function unreadAnswer(what: string, error: unknown): PayframeError | undefined {
  if (!isPayframeError(error) || error.status === undefined) return undefined;
  const gatewayGaveUp = error.status === 502 || error.status === 504;
  const unreadable = error.code === 'invalid_response' && error.status >= 200 && error.status < 300;
  if (!gatewayGaveUp && !unreadable) return undefined;
  const why = gatewayGaveUp ? `a gateway in front of the service answered ${error.status}` : 'its answer could not be read';
  return outcomeUnknown(what, why, { status: error.status, body: error.body, cause: error });
}

/**
 * A success checked against its schema; anything else is `invalid_response` keeping the raw body. Every
 * error is built from what the service said scrubbed of this call's `secrets` (scrub.ts).
 */
function parseAnswer<S extends v.GenericSchema>(answer: Answer, schema: S, what: string, url: URL, secrets: string[]): v.InferOutput<S> {
  const { status, ok, text, redirect } = answer;
  const scrubbed = ok
    ? answer
    : { ...answer, text: text && scrubAnswerText(text, secrets), redirect: redirect && scrubText(redirect, secrets) };
  const body = answerBody(scrubbed, what, MAX_SERVICE_ANSWER, url.href, true);
  const invalid = (message: string) => new PayframeError('invalid_response', message, { status, body: scrubValue(body, secrets) });
  // The text itself when it is not JSON; a JSON string (the vault's bare "DONE") parses to a shorter one.
  if (typeof body === 'string' && body === scrubbed.text) throw invalid(`${what}: the response is not JSON`);
  const parsed = v.safeParse(schema, body);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    // The keys on the way are the service's.
    const where = scrubText((issue && v.getDotPath(issue)) ?? '(root)', secrets);
    throw invalid(`${what}: the response does not match its schema at ${where}`);
  }
  return parsed.output;
}

/**
 * A prefix, the credentials, JSON, one deadline for the whole call (`timeoutMs`, retries included), the
 * caller's `signal`, and retries of GET only. The service has no idempotency key, so a POST that dropped
 * may have been processed, and repeating it could charge twice. (An HTTP library did this before, at about
 * five times a bare fetch's cost per call: `npm run bench`, part 5.)
 */
export function createTransport(options: TransportOptions): Call {
  const prefix = new URL('v1/', options.base).href;
  const send = options.fetch ?? globalThis.fetch;

  return async (method, path, schema, call = {}) => {
    const what = `${method} /v1/${path}`;
    const { signal } = call;
    if (signal !== undefined && !(signal instanceof AbortSignal))
      throw new PayframeError('invalid_request', 'signal must be an AbortSignal');
    const url = new URL(path, prefix);
    for (const [name, value] of Object.entries(call.searchParams ?? {})) url.searchParams.set(name, value);
    const headers: Record<string, string> = { authorization: options.authorization, accept: 'application/json' };
    const body = call.jsonText ?? (call.json === undefined ? undefined : JSON.stringify(call.json));
    if (body !== undefined) headers['content-type'] = 'application/json';
    const d = deadline(options.timeoutMs, what, signal);
    // Never `follow`: a redirect would carry the body (a card, an OTP) to wherever it points.
    const init: RequestInit = { method, headers, body, signal: d.signal, redirect: 'manual' };
    const secrets = secretsOf(options.authorization, call.json);
    const started = performance.now();
    let attempts = 0;
    let status: number | undefined;
    // A POST that can move money: once it was sent (an attempt made), a lost answer is `outcome_unknown`.
    const movesMoney = method === 'POST' && !call.changesNothing;
    const report = (failure?: unknown) =>
      emit(options.onEvent, () => callEvent(method, `/v1/${path}`, status, Math.round(performance.now() - started), attempts, failure));

    const attempt = async (): Promise<Answer> => {
      if (d.signal.aborted) throw d.signal.reason; // a request not yet sent is never sent
      attempts += 1;
      status = undefined;
      const response = await send(url, init);
      status = response.status;
      try {
        return await readAnswer(response, MAX_SERVICE_ANSWER);
      } catch (error) {
        // A refusal whose body broke off: its status is the answer.
        if (!response.ok && !d.signal.aborted) return { status: response.status, ok: false, text: '' };
        throw error;
      }
    };
    try {
      const answer = await withRetries(method === 'GET' ? options.retries : 0, d.signal, attempt).catch((error: unknown) => {
        const lost = movesMoney && attempts > 0 ? lostAnswer(what, error) : undefined;
        if (lost) throw lost;
        // Only the socket's own error rides along as `cause`, never the request and its credentials.
        throw isPayframeError(error) ? error : networkError(what, error);
      });
      const parsed = parseAnswer(answer, schema, what, url, secrets);
      report();
      return parsed;
    } catch (thrown) {
      const error = (movesMoney && attempts > 0 && unreadAnswer(what, thrown)) || thrown;
      // The call travels with its error, for the handlers' events and answers (events.ts, respond.ts).
      if (isPayframeError(error) && error.call === undefined) Object.assign(error, { call: what });
      report(error);
      throw error;
    } finally {
      d.done();
    }
  };
}
