/**
 * The stable codes of `PayframeError` (README "Errors in the library"), apart from the class so that a
 * page that never reads a code by itself (the hosted form) does not carry the list.
 */
export const ERROR_CODES = [
  /** Refused before any request (bad amount, impossible combination), or the service answered 400. */
  'invalid_request',
  /** Card fields failed local validation; `fields` names them, `reasons` says why. No request was sent. */
  'invalid_card',
  /** Bad options: a base URL that is not https, a missing merchant id. */
  'invalid_config',
  /** A URL from a response or a caller is not https on the configured gateway origin. */
  'unsafe_url',
  'unauthorized',
  'forbidden',
  'not_found',
  /** The service's state machine refused (void after capture, refund above the original, ...). */
  'conflict',
  'rate_limited',
  'server_error',
  'network',
  'timeout',
  /**
   * A request that may change a payment was sent, and its answer was lost (a timeout, a broken
   * connection): the service may have acted on it. Never send it again; read the payment, or wait for
   * its notification (docs/outcomes.md).
   */
  'outcome_unknown',
  /** The caller's `signal` aborted the call. */
  'aborted',
  /** A response did not match its schema; `body` keeps what arrived. */
  'invalid_response',
] as const;

/** The stable codes of `PayframeError` (README "Errors in the library"). */
export type ErrorCode = (typeof ERROR_CODES)[number];

export const isErrorCode = (value: unknown): value is ErrorCode => (ERROR_CODES as readonly unknown[]).includes(value);
