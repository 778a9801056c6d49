import { randomUUID } from 'node:crypto';
import type { ErrorCode } from '../shared/error-codes';
import { redact } from '../shared/errors';
import { codeForStatus } from '../shared/http-answer';

/** The sandbox's refusals: HTTP status, service code and name, as docs/service-decisions.md ("Error statuses and codes") lists them. */
export const CATALOGUE = {
  INVALID_REQUEST: [400, '1000'],
  INVALID_AMOUNT: [400, '1013'],
  INVALID_CARD_NUMBER: [400, '1014'],
  INVALID_STORED_CREDENTIAL: [400, '1015'],
  INVALID_NONCE: [400, '5110'],
  UNAUTHORIZED: [401, '4010'],
  INVALID_CLIENT_TOKEN: [401, '5080'],
  EXPIRED_CLIENT_TOKEN: [401, '5081'],
  HTTPS_REQUIRED: [403, '4030'],
  ORIGIN_NOT_ALLOWED: [403, '4031'],
  NOT_FOUND: [404, '4040'],
  METHOD_NOT_ALLOWED: [405, '4050'],
  MISDIRECTED_REQUEST: [421, '4210'],
  REQUEST_TIMEOUT: [408, '4080'],
  ALREADY_CAPTURED: [409, '4091'],
  CAPTURE_EXCEEDS_AMOUNT: [409, '4092'],
  AUTHORISATION_EXPIRED: [409, '4093'],
  VOID_NOT_ALLOWED: [409, '4094'],
  REFUND_EXCEEDS_AMOUNT: [409, '4095'],
  ALREADY_REFUNDED: [409, '4096'],
  INVALID_STATE: [409, '4097'],
  SESSION_EXPIRED: [409, '4098'],
  AUTHENTICATE_NOT_SUPPORTED: [409, '4099'],
  NONCE_EXPIRED: [409, '5109'],
  NONCE_ALREADY_USED: [409, '5111'],
  PAYLOAD_TOO_LARGE: [413, '4130'],
  UNSUPPORTED_MEDIA_TYPE: [415, '4150'],
  INTERNAL_ERROR: [500, '5000'],
} as const satisfies Record<string, readonly [number, string]>;

export type SandboxErrorName = keyof typeof CATALOGUE;

/**
 * A refusal the sandbox answers with `{ code, name, message, eventId }`: the simulated service's own,
 * not payframe's client error (PayframeError), which a client makes of it when it reads the answer.
 */
export class SandboxError extends Error {
  override readonly name = 'SandboxError';
  /** payframe's code for the refusal's status, as a client reads it (`codeForStatus`). */
  readonly code: ErrorCode;
  readonly status: number;
  /** The service's code: the wire body's `code`. */
  readonly resultCode: string;
  /** The service's name: the wire body's `name`. */
  readonly reason: SandboxErrorName;

  constructor(name: SandboxErrorName, message: string) {
    // Masked as payframe's messages are: a refusal may quote what the request held.
    super(redact(message));
    const [status, code] = CATALOGUE[name];
    this.code = codeForStatus(status);
    this.status = status;
    this.resultCode = code;
    this.reason = name;
  }

  /** The wire body; `eventId` is fresh for every answer. */
  wireBody() {
    return { code: this.resultCode, name: this.reason, message: this.message, eventId: randomUUID() };
  }
}

export const fail = (name: SandboxErrorName, message: string): never => {
  throw new SandboxError(name, message);
};
