/**
 * What the gateway tells the merchant's server through `onEvent`: one event per call to the service,
 * and one per handler answer whose cause the page is not told (a 5xx). Each event is built field by
 * field from values payframe made itself (the method, the path it built from the ids, the answer's
 * status, the clock, a PayframeError's own fields, a refusal's name, code and id in their shapes): never
 * from a request, its headers or its body, nor from an answer's text. So no card number, CVV, secret,
 * Basic credential, client token, nonce or OTP can ride along (test/server/events.test.ts records every call path and searches for each of them;
 * test/security/echo.test.ts does so against a service that quotes its requests).
 */
import { asEventId, asName, asResultCode } from '../shared/http-answer';
import type { Notification } from '../schemas';
import { type ErrorCode, isPayframeError, PAN, UUID } from '../shared/errors';

/** A PayframeError as an event carries it: its own fields, nothing it holds (no `body`, no `cause` object). */
export interface EventError {
  code: ErrorCode;
  message: string;
  /** The service's HTTP status, when it answered. */
  status?: number;
  /** The service's error name, e.g. `UNAUTHORIZED`, `REFUND_EXCEEDS_AMOUNT`. */
  reason?: string;
  /** The service's error code, e.g. `4010`. */
  resultCode?: string;
  /** The service's id of this request (`eventId` of its error body): quote it to the service's support. */
  eventId?: string;
  /** Why a connection failed, as the runtime names it: `ECONNREFUSED`, `ENOTFOUND`, `DEPTH_ZERO_SELF_SIGNED_CERT`, ... */
  causeCode?: string;
}

/** The methods of the service's calls: GET and POST, and the vault's PUT and DELETE. */
export type CallMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A call to the service has ended (after its retries): answered, refused, or failed. */
export interface CallEvent {
  type: 'call';
  method: CallMethod;
  /**
   * The path under the base URL, ids as sent (one encoded segment each), e.g.
   * `/v1/merchants/m-1/payment/PAY-1/capture`. Never the query: its one use is `payers.byEmail`'s
   * email, which is personal data.
   */
  path: string;
  /** The HTTP status of the last answer; absent when none came (a failed connection, a timeout, an abort). */
  status?: number;
  durationMs: number;
  /** Requests sent: more than 1 when a GET was retried; 0 when the call was aborted before any was sent. */
  attempts: number;
  /** Present when the call failed: what the gateway method threw. */
  error?: EventError;
  /** One line for a console: `POST /v1/merchants/m-1/client_token: 401 in 12 ms: unauthorized: ...`. */
  message: string;
}

export type HandlerName = 'clientToken' | 'authenticate' | 'cvv' | 'notification' | 'savedCards' | 'pay' | 'hostedPage' | 'hostedReturn';

/**
 * A handler answered a 5xx, whose message is generic on purpose (the page must not learn the cause):
 * here is the cause.
 */
export interface HandlerEvent {
  type: 'handler';
  handler: HandlerName;
  /** The status the page received: 500, 502 or 504. */
  status: number;
  error: EventError;
  /**
   * What the merchant's own code (`handle`, `authorize`) threw when it was not a PayframeError, as it
   * was thrown, with its stack: payframe builds no text from it, but it is yours to log.
   */
  thrown?: unknown;
  /** One line for a console: `handlers.clientToken() answered 502: network: POST /v1/...: the connection failed (ECONNREFUSED)`. */
  message: string;
}

/**
 * A notification reached `handlers.notification()`: `handled` (its payment read and `onPayment`
 * done), `duplicate` (handled before: nothing called), `busy` (being handled elsewhere: answered 503,
 * the service sends it again), `ignored` (not about a payment), `refused` (answered 4xx: a
 * wrong `Authorization`, nothing read; or, with `error` saying why, a body or method the route does not
 * take), `timeout` (`onPayment` did not finish within its deadline: its claim is given back and 503
 * answered, so the service sends it again), `failed` (answered 5xx: the service sends it again; `error` says why).
 */
export interface NotificationEvent {
  type: 'notification';
  outcome: 'handled' | 'duplicate' | 'busy' | 'ignored' | 'refused' | 'timeout' | 'failed';
  /** The notification's id and kind, and the payment it named, as posted (in their shapes). */
  id?: string;
  kind?: string;
  referenceId?: string;
  status: number;
  error?: EventError;
  /** One line for a console: `notification WH-1 PAYMENT.SALE.COMPLETED PAY-1: handled`. */
  message: string;
}

export type GatewayEvent = CallEvent | HandlerEvent | NotificationEvent;
export type EventListener = (event: GatewayEvent) => void;

/**
 * The event's copy of an error: a PayframeError's own fields, or `server_error` for anything else. Its
 * message is built from fields alone when the service answered (`requestLine` when known, then the
 * service's name, else the status): the service's own text never, nor a search in a message for it. Of
 * what a refusal's body says, the name, code and event id are kept only in their shapes (shared/http-answer.ts).
 */
export function eventError(error: unknown, requestLine?: string): EventError {
  if (!isPayframeError(error)) return { code: 'server_error', message: 'something that is not a PayframeError was thrown' };
  const { code, status } = error;
  const reason = asName(error.reason);
  const resultCode = asResultCode(error.resultCode);
  const eventId = asEventId(error.eventId);
  // A handler's own refusal of a body (413, 415: respond.ts's readBody) carries a status but no call: its words are payframe's.
  const own = status === undefined || (error.call === undefined && (status === 413 || status === 415));
  const message = own ? error.message : `${requestLine ?? 'the payment service'}: ${reason ?? `HTTP ${status}`}`;
  const causeCode =
    code === 'network' || code === 'outcome_unknown' ? asName((error.cause as { code?: unknown } | undefined)?.code) : undefined;
  return {
    code,
    message,
    ...(status !== undefined && { status }),
    ...(reason !== undefined && { reason }),
    ...(resultCode !== undefined && { resultCode }),
    ...(eventId !== undefined && { eventId }),
    ...(causeCode !== undefined && { causeCode }),
  };
}

/** The error in a few words: its code, its message (without the request line, said already), the cause and the service's event id. */
function describe(error: EventError, requestLine?: string): string {
  const text = requestLine && error.message.startsWith(`${requestLine}: `) ? error.message.slice(requestLine.length + 2) : error.message;
  const cause = error.causeCode && !text.includes(error.causeCode) ? ` (${error.causeCode})` : ''; // a TLS message names it already
  return `${error.code}: ${text}${cause}${error.eventId ? ` (service event ${error.eventId})` : ''}`;
}

export function callEvent(
  method: CallMethod,
  path: string,
  status: number | undefined,
  durationMs: number,
  attempts: number,
  failure?: unknown,
): CallEvent {
  const requestLine = `${method} ${path}`;
  const error = failure === undefined ? undefined : eventError(failure, requestLine);
  const tries = attempts > 1 ? ` (${attempts} attempts)` : '';
  return {
    type: 'call',
    method,
    path,
    ...(status !== undefined && { status }),
    durationMs,
    attempts,
    ...(error && { error }),
    message: `${requestLine}: ${status ?? 'no answer'} in ${durationMs} ms${tries}${error ? `: ${describe(error, requestLine)}` : ''}`,
  };
}

export function handlerEvent(handler: HandlerName, status: number, thrown: unknown): HandlerEvent {
  const own = isPayframeError(thrown);
  const error = own
    ? eventError(thrown, thrown.call)
    : {
        code: 'server_error' as const,
        message:
          "something that is not a PayframeError was thrown (by `handle` or `authorize`, or a fault of payframe): see the event's `thrown`",
      };
  return {
    type: 'handler',
    handler,
    status,
    error,
    ...(!own && { thrown }),
    message: `handlers.${handler}() answered ${status}: ${describe(error)}`,
  };
}

export function notificationEvent(
  outcome: NotificationEvent['outcome'],
  n?: Notification,
  status = outcome === 'refused' ? 401 : 204,
  failure?: unknown,
): NotificationEvent {
  const error = failure === undefined ? undefined : eventError(failure);
  // Its id and kind are in their shapes already (NotificationSchema); a run of digits in them is masked by `emit`.
  const id = n?.id;
  const kind = n?.kind;
  const referenceId = n?.resource.reference_id;
  const what = [id, kind, referenceId].filter(Boolean).join(' ');
  return {
    type: 'notification',
    outcome,
    ...(id && { id }),
    ...(kind && { kind }),
    ...(referenceId && { referenceId }),
    status,
    ...(error && { error }),
    message: `notification${what ? ` ${what}` : ''}: ${outcome}${error ? ` (${status}): ${describe(error)}` : ''}`,
  };
}
/**
 * Any run of digits a card number could be (errors.ts's `PAN`: 12 or more, separators between), wherever
 * it stands, inside an id too (`ORDER4111…`, `PAY-4111…`, a posted `kind`), keeping its last four; a
 * whole UUID (the service's event id) stays as it is, as `redact` keeps it. No other id is spared: a
 * text shaped as the service's ids can hold a card number as well (the sandbox's ids never hold
 * twelve digits in a row, so that they read whole).
 */
const UUID_OR_RUN = new RegExp(`(${UUID})|${PAN}`, 'giu');
const mask = (text: string) => text.replace(UUID_OR_RUN, (run, uuid?: string) => uuid ?? `****${run.replace(/\P{Nd}/gu, '').slice(-4)}`);

/** The event with every text of it masked (`mask`), its error's included: one rule for every field of every event. */
function masked<T extends object>(event: T): T {
  const entries = Object.entries(event).map(([name, value]) => [
    name,
    typeof value === 'string' ? mask(value) : name === 'error' && typeof value === 'object' && value !== null ? masked(value) : value,
  ]);
  return Object.fromEntries(entries) as T;
}

/**
 * Calls the merchant's listener with the event masked (`masked`: it may quote ids the merchant or the
 * service chose); one that throws (or rejects) is ignored: logging never changes a call's outcome.
 */
export function emit(listener: EventListener | undefined, make: () => GatewayEvent): void {
  if (!listener) return;
  try {
    const result: unknown = listener(masked(make()));
    if (result instanceof Promise) result.catch(() => {});
  } catch {
    // ignored, as said
  }
}
