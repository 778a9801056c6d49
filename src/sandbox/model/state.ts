import { randomBytes } from 'node:crypto';
import type { HostedPaymentRequest, Notification, NotificationKind, PaymentState } from '../../schemas';
import { PayframeError } from '../../shared/errors';
import { DueIndex } from './due';

export interface MerchantConfig {
  id: string;
  clientId: string;
  clientSecret: string;
  /** Exact origins allowed for CORS on the nonce endpoint; default: any loopback origin. */
  origins?: string[];
  /** Where this merchant's notifications (IPN) are posted: an http(s) URL; none are sent without one. */
  notifyUrl?: string;
  /** The `Authorization` header every notification to `notifyUrl` carries. */
  notifyAuthorization?: string;
}

/** Real time plus an offset that tests move forward. */
export class Clock {
  private offset = 0;
  /** Called after every move forward: what has fallen due on the sandbox's clock happens then. */
  onAdvance: () => void = () => {};
  /** Whether `ms` is a move forward that leaves the clock within what a Date can hold. */
  canAdvance(ms: number): boolean {
    return Number.isFinite(ms) && ms >= 0 && Number.isFinite(new Date(this.nowMs() + ms).getTime());
  }
  advance(ms: number): void {
    if (!this.canAdvance(ms))
      throw new PayframeError('invalid_request', 'advanceClock takes a finite number of milliseconds >= 0 that keeps the date valid');
    this.offset += ms;
    this.onAdvance();
  }
  nowMs(): number {
    return Date.now() + this.offset;
  }
  iso(ms = this.nowMs()): string {
    return new Date(ms).toISOString();
  }
}

/**
 * Random hex for the sandbox's ids, never with twelve digits in a row (about one id of 24 hex digits in
 * 75 would be): logs and events mask such a run as a card number would be, and an id cut so is no id.
 */
export const hex = (bytes: number): string => {
  const text = randomBytes(bytes).toString('hex');
  return /\d{12}/.test(text) ? hex(bytes) : text;
};
export const newPaymentId = () => `PAY-${hex(12).toUpperCase()}`;

/** Card details as the sandbox keeps them in memory. The number never leaves the process. */
export interface CardData {
  number: string;
  expireMonth: number;
  expireYear: number;
  name?: string;
}

export interface ClientTokenRecord {
  merchantId: string;
  expiresAt: number;
}
/** `card` goes once the nonce has paid: only its refusal (NONCE_ALREADY_USED) is left to answer. */
export interface NonceRecord {
  merchantId: string;
  card: CardData | undefined;
  expiresAt: number;
  used: boolean;
}

/**
 * Tokens and nonces past their lifetime kept, each map: the newest ones. An older one is forgotten, and
 * answered as one never issued (docs/service-decisions.md, "A client token or nonce past its lifetime").
 */
export const MAX_LAPSED = 100_000;

export interface VaultCardRecord extends CardData {
  id: string;
  payerId: string;
  isDefault: boolean;
}
export interface VaultPayerRecord {
  id: string;
  merchantId: string;
  email?: string;
  name?: string;
  billingAddress?: Record<string, unknown>;
  cardIds: string[];
}

export interface Action {
  id: string;
  state: string;
  code: string;
  message: string;
}

export interface PaymentRecord {
  id: string;
  merchantId: string;
  intent: 'auth' | 'sale';
  state: PaymentState;
  result: { code: string; description: string; authorisation_code?: string };
  actions?: { authorization?: Action; capture?: Action };
  /** Ever approved (0000): what a merchant-initiated payment may point to. */
  approved: boolean;
  currency: string;
  amountMinor: number;
  capturedMinor: number;
  refundedMinor: number;
  card: CardData;
  cardId?: string;
  payerId?: string;
  /** Saved in the vault once approved (false for vault payments: the card is there already). */
  vaultOnApproval: boolean;
  payerInfo?: { email?: string; name?: string; billing_address?: Record<string, unknown> };
  transaction: Record<string, unknown>;
  custom?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  captureDelay?: number;
  merchantInitiated?: boolean;
  previousPaymentId?: string;
  createdAt: number;
  /** When the hold started: creation, or the OTP for a pending auth. */
  authorisedAt?: number;
  sessionId?: string;
  /** `otp` takes the authenticate endpoint, `redirect` only the redirect page. */
  otpFlow?: 'otp' | 'redirect';
  sessionUsed: boolean;
  /** Its accepted captures, voids and refunds the acquirer settles later (a test amount: actions.ts). */
  unsettled?: Settlement[];
  /** The hosted payment page's session that made this payment: the payer returns with its id. */
  hostedSessionId?: string;
}

/** An accepted action the acquirer settles at `at` on the sandbox's clock: `run` completes or denies it. */
export interface Settlement {
  at: number;
  state: ChildRecord['state'];
  run: () => void;
}

/** A hosted payment page's session: the payment it will make, without its card, until the payer pays. */
export interface HostedSessionRecord {
  id: string;
  merchantId: string;
  invoiceNumber: string;
  createdAt: number;
  request: HostedPaymentRequest;
  /** The payment the page made: set once, when the payer pays. */
  paymentId?: string;
}

/** A capture, void or refund record: the reduced form of the interface document's 2.4. */
export interface ChildRecord {
  id: string;
  merchantId: string;
  referenceId: string;
  state: 'captured' | 'voided' | 'refunded';
  currency: string;
  amountMinor: number;
  invoiceNumber?: string;
  custom?: Record<string, unknown>;
  items?: unknown[];
  createdAt: number;
  /** The acquirer refused it after it was accepted: it reads `declined` (`1005`), and the payment is as before it. */
  denied?: boolean;
}

/** The notification kinds the sandbox produces (docs/service-decisions.md says which change sends which). */

/**
 * A change of a payment's state. `resource()` is the record as the API answers it at the change: to be
 * called then (during `onEvent`), and only when a notification is sent.
 */
export interface PaymentEvent {
  kind: NotificationKind;
  merchantId: string;
  paymentId: string;
  at: number;
  resource: () => Notification['resource'];
}

export class Store {
  /** Live tokens and nonces, in the order they were issued, which is the order they expire in. */
  readonly tokens = new Map<string, ClientTokenRecord>();
  readonly nonces = new Map<string, NonceRecord>();
  /** Tokens and nonces past their lifetime, with no card: what their documented refusal needs. */
  readonly lapsedTokens = new Map<string, ClientTokenRecord>();
  readonly lapsedNonces = new Map<string, NonceRecord>();
  readonly payments = new Map<string, PaymentRecord>();
  readonly children = new Map<string, ChildRecord>();
  /** session id -> payment id */
  readonly sessions = new Map<string, string>();
  /** Hosted payment page sessions by id. */
  readonly hostedSessions = new Map<string, HostedSessionRecord>();
  readonly payers = new Map<string, VaultPayerRecord>();
  /** `merchant id \n lower-case email` -> payer id (vault.ts keeps it). */
  readonly payerByEmail = new Map<string, string>();
  readonly cards = new Map<string, VaultCardRecord>();
  /** When a payment changes on its own (pending expiry, the seven-day hold): a min-heap of [instant, payment id]. */
  readonly due = new DueIndex();
  /** Told of every change of a payment's state, in order; the sandbox sends its notifications from here. */
  onEvent: (event: PaymentEvent) => void = () => {};

  token(id: string): ClientTokenRecord | undefined {
    return this.tokens.get(id) ?? this.lapsedTokens.get(id);
  }

  nonce(id: string): NonceRecord | undefined {
    return this.nonces.get(id) ?? this.lapsedNonces.get(id);
  }

  /**
   * Moves the tokens and nonces whose lifetime has passed at `now` to the lapsed ones: called on each
   * move of the clock and before each token or nonce is issued. Each lifetime is the same and the clock
   * only moves forward, so the maps are in order of expiry and each sweep stops at the first one alive
   * (were the system clock set back, a record would be freed later, never answered otherwise).
   */
  sweep(now: number): void {
    lapse(this.tokens, this.lapsedTokens, now);
    lapse(this.nonces, this.lapsedNonces, now);
  }
}

function lapse<R extends { expiresAt: number; card?: CardData | undefined }>(
  live: Map<string, R>,
  lapsed: Map<string, R>,
  now: number,
): void {
  for (const [id, record] of live) {
    if (record.expiresAt > now) return;
    live.delete(id);
    if ('card' in record) record.card = undefined;
    lapsed.set(id, record);
    if (lapsed.size > MAX_LAPSED) lapsed.delete(lapsed.keys().next().value!);
  }
}
