import type { CardField, FieldReason } from './names';
import { type ErrorCode, isErrorCode } from './error-codes';

export { ERROR_CODES, type ErrorCode, isErrorCode } from './error-codes';

export interface PayframeErrorInit {
  status?: number;
  /** The service's code: the error body's `code`. */
  resultCode?: string;
  /** The service's error body `name`, e.g. `REFUND_EXCEEDS_AMOUNT`. */
  reason?: string;
  eventId?: string;
  /** The card fields at fault (`invalid_card`), or the form's fields that did not load (`timeout`). */
  fields?: CardField[];
  /** `invalid_card` from a card form: each refused field's reason (`{ number: 'unsupported_brand' }`). */
  reasons?: Partial<Record<CardField, FieldReason>>;
  body?: unknown;
  cause?: unknown;
}

/**
 * What a PayframeError tells beyond its code and message, in the order it sets them: what `toJSON`
 * gives and what crosses the frame boundary (protocol/transfer.ts), never its `body` or `cause`.
 */
export const ERROR_INFO = ['status', 'resultCode', 'reason', 'eventId', 'fields', 'reasons'] as const;

/** `keys` of `from`, each one present (undefined when `from` has none), in that order. */
export const pick = (from: object, keys: readonly string[]): Record<string, unknown> =>
  Object.fromEntries(keys.map((k) => [k, (from as Record<string, unknown>)[k]]));

/**
 * The one error class of payframe. Every entry (client, frame, server) throws it, so a merchant
 * catches one type and switches on a stable `code`. Messages are built by us, never copied from
 * user input, and pass through `redact` so that a card number cannot ride along.
 */
export class PayframeError extends Error {
  override readonly name = 'PayframeError';
  // Set in the constructor, in this order; `declare` keeps the bundles free of a field list.
  declare readonly code: ErrorCode;
  declare readonly status: number | undefined;
  declare readonly resultCode: string | undefined;
  declare readonly reason: string | undefined;
  declare readonly eventId: string | undefined;
  declare readonly fields: CardField[] | undefined;
  declare readonly reasons: Partial<Record<CardField, FieldReason>> | undefined;
  /**
   * The service call that threw it, as its request line (`POST /v1/merchants/m-1/payment`): set by
   * payframe/server's gateway as the error leaves it (transport.ts), so that its events and handlers
   * know the call without reading the message. Not an init option: the page's bundles never set it.
   */
  declare readonly call: string | undefined;
  declare readonly body: unknown;

  constructor(code: ErrorCode, message: string, init: PayframeErrorInit = {}) {
    // Error takes `cause` from `init` when it has one.
    super(redact(message), init);
    Object.assign(this, { code }, pick(init, [...ERROR_INFO, 'body']));
  }

  toJSON(): {
    name: string;
    code: ErrorCode;
    message: string;
    status: number | undefined;
    resultCode: string | undefined;
    reason: string | undefined;
    eventId: string | undefined;
    fields: CardField[] | undefined;
    reasons: Partial<Record<CardField, FieldReason>> | undefined;
  } {
    return pick(this, ['name', 'code', 'message', ...ERROR_INFO]) as ReturnType<PayframeError['toJSON']>;
  }
}

/**
 * An option or argument payframe cannot work with, found before anything is sent: `who` names the call
 * it was given to (`mountFields`), which starts the message.
 */
export const configError = (message: string, who?: string): PayframeError =>
  new PayframeError('invalid_config', who ? `${who}: ${message}` : message);

/** A call's input the service would refuse, refused before anything is sent; `who` as in `configError`. */
export const requestError = (message: string, who?: string): PayframeError =>
  new PayframeError('invalid_request', who ? `${who}: ${message}` : message);

/**
 * Whether `value` is a PayframeError, also one made by another copy of payframe (a second bundle on
 * the page, a frame, a worker), where `instanceof` cannot tell: checked by name and code.
 */
export function isPayframeError(value: unknown): value is PayframeError {
  if (value instanceof PayframeError) return true;
  if (typeof value !== 'object' || value === null) return false;
  const { name, code } = value as { name?: unknown; code?: unknown };
  return name === 'PayframeError' && isErrorCode(code);
}

/**
 * A card number's shape, the one payframe masks wherever it hides one (error messages, the sandbox's
 * record of requests): 12 or more digits of any script, with up to three separators between two
 * digits (white space, dots, dashes, slashes, underscores, and the invisible characters a paste brings:
 * zero-width, bidi and format marks). Used with the `u` flag.
 */
export const PAN = /\p{Nd}(?:[\s./_\-\p{Cf}]{0,3}\p{Nd}){11,}/u.source;
/** A UUID (a nonce, an event id): kept whole where digit runs are masked, though its groups may hold digits. */
export const UUID = /\b[\da-f]{8}(?:-[\da-f]{4}){3}-[\da-f]{12}\b/.source;
/**
 * A UUID (a nonce, an event id), kept whole: its last group may be twelve digits, which is not a card
 * number; or a card number standing as a token of its own: digits inside an id (`PAY-0a12…`) are not one.
 */
const UUID_OR_PAN = new RegExp(`(${UUID})|(?<![\\p{L}\\p{N}_])${PAN}(?![\\p{L}\\p{N}_])`, 'giu');

/**
 * Masks anything that looks like a card number, keeping the last four digits, and the credential
 * after "Basic " or "Bearer ". A UUID stays whole, and an ordinary lower-case word after the scheme
 * ("Basic credentials") is prose, not a credential.
 */
export function redact(text: string): string {
  return text
    .replace(UUID_OR_PAN, (match, uuid?: string) => uuid ?? `****${match.replace(/\P{Nd}/gu, '').slice(-4)}`)
    .replace(/\b((?:Basic|Bearer)\s+)([\w.~+/=-]+)/gi, (all, scheme: string, value: string) =>
      /^[a-z]{1,15}\.?$/.test(value) ? all : `${scheme}[redacted]`,
    );
}
