/**
 * What the gateway tells the merchant's server through `onEvent`: one event per call to the service,
 * and one per handler answer whose cause the page is not told (a 5xx). Each event is built field by
 * field from values payframe made itself (the method, the path it built from the ids, the answer's
 * status, the clock, a PayframeError's own fields, a refusal's name, code and id in their shapes): never
 * from a request, its headers or its body, nor from an answer's text. So no card number, CVV, secret,
 * Basic credential, client token, nonce or OTP can ride along (test/server/events.test.ts records every call path and searches for each of them).
 */
import { type ErrorCode, isPayframeError } from '../shared/errors';

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

export type HandlerName = 'clientToken' | 'authenticate' | 'cvv' | 'notification' | 'keptCards';

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
 * done), `duplicate` (handled before: nothing called), `ignored` (not about a payment), `refused` (a
 * wrong `Authorization`: nothing read), `failed` (answered 5xx: the service sends it again; `error` says why).
 */
export interface NotificationEvent {
  type: 'notification';
  outcome: 'handled' | 'duplicate' | 'ignored' | 'refused' | 'failed';
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

/** Only a code's shape (letters, digits, underscores) is kept from a connection's error. */
const CODE_SHAPE = /^[A-Z][A-Z0-9_]{1,63}$/;

/** The shapes kept of what a refusal's body says: a name, a numeric code, an id. */
const RESULT_SHAPE = /^\d{1,8}$/;
const ID_SHAPE = /^[\w-]{1,64}$/;
const shaped = (value: string | undefined, shape: RegExp) => (value !== undefined && shape.test(value) ? value : undefined);

/**
 * The event's copy of an error: a PayframeError's own fields, or `server_error` for anything else. Of a
 * refusal, the service's own text is left out (it may echo the request: a CVV, an OTP, an email), and its
 * name, code and event id are kept only in their shapes.
 */
export function eventError(error: unknown): EventError {
  if (!isPayframeError(error)) return { code: 'server_error', message: 'something that is not a PayframeError was thrown' };
  const { code, status } = error;
  const reason = shaped(error.reason, CODE_SHAPE);
  const resultCode = shaped(error.resultCode, RESULT_SHAPE);
  const eventId = shaped(error.eventId, ID_SHAPE);
  // A refusal's message is `<request>: <NAME>: <the service's text>` (shared/answer.ts): cut after the name.
  const named = status !== undefined && error.reason !== undefined ? error.message.indexOf(`: ${error.reason}`) : -1;
  const message = named < 0 ? error.message : reason === undefined ? error.message.slice(0, named) : error.message.slice(0, named + reason.length + 2);
  const causeCode = code === 'network' || code === 'outcome_unknown' ? (error.cause as { code?: unknown } | undefined)?.code : undefined;
  return {
    code,
    message,
    ...(status !== undefined && { status }),
    ...(reason !== undefined && { reason }),
    ...(resultCode !== undefined && { resultCode }),
    ...(eventId !== undefined && { eventId }),
    ...(typeof causeCode === 'string' && CODE_SHAPE.test(causeCode) && { causeCode }),
  };
}

/** The error in a few words: its code, its message (without the request line, said already), the cause and the service's event id. */
function describe(error: EventError, requestLine?: string): string {
  const text = requestLine && error.message.startsWith(`${requestLine}: `) ? error.message.slice(requestLine.length + 2) : error.message;
  const cause = error.causeCode && !text.includes(error.causeCode) ? ` (${error.causeCode})` : ''; // a TLS message names it already
  return `${error.code}: ${text}${cause}${error.eventId ? ` (service event ${error.eventId})` : ''}`;
}

export function callEvent(method: CallMethod, path: string, status: number | undefined, durationMs: number, attempts: number, failure?: unknown): CallEvent {
  const error = failure === undefined ? undefined : eventError(failure);
  const requestLine = `${method} ${path}`;
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
  const error = own ? eventError(thrown) : {
    code: 'server_error' as const,
    message: 'something that is not a PayframeError was thrown (by `handle` or `authorize`, or a fault of payframe): see the event\'s `thrown`',
  };
  return { type: 'handler', handler, status, error, ...(!own && { thrown }), message: `handlers.${handler}() answered ${status}: ${describe(error)}` };
}

export function notificationEvent(
  outcome: NotificationEvent['outcome'],
  n?: { id: string; kind: string; resource: { reference_id?: string | undefined } },
  status = outcome === 'refused' ? 401 : 204,
  failure?: unknown,
): NotificationEvent {
  const error = failure === undefined ? undefined : eventError(failure);
  const id = shaped(n?.id, ID_SHAPE);
  const kind = shaped(n?.kind, KIND_SHAPE);
  const referenceId = shaped(n?.resource.reference_id, ID_SHAPE);
  const what = [id, kind, referenceId].filter(Boolean).join(' ');
  return {
    type: 'notification', outcome, ...(id && { id }), ...(kind && { kind }), ...(referenceId && { referenceId }), status, ...(error && { error }),
    message: `notification${what ? ` ${what}` : ''}: ${outcome}${error ? ` (${status}): ${describe(error)}` : ''}`,
  };
}
const KIND_SHAPE = /^[A-Z][A-Z0-9_.]{1,63}$/;

/** Calls the merchant's listener; one that throws (or rejects) is ignored: logging never changes a call's outcome. */
export function emit(listener: EventListener | undefined, make: () => GatewayEvent): void {
  if (!listener) return;
  try {
    const result: unknown = listener(make());
    if (result instanceof Promise) result.catch(() => {});
  } catch {
    // ignored, as said
  }
}
