/**
 * What payframe keeps so that no outcome is lost on any server: the contract every store meets (the
 * memory store, `postgresStore`, `redisStore`, or the merchant's own). One store serves the gateway:
 * `createGateway({ store })` hands it to the notification route, `payments.settle`, the pay and OTP
 * routes and `settleOpen`, so nothing is handed to two calls by hand.
 */
import { configError, requestError } from '../../shared/errors';

/** What a store says of a notification's id when a delivery of it arrives. */
export type NotificationClaim = 'new' | 'handled' | 'busy';

/**
 * Which notifications were handled, so that one delivered twice settles once. With more than one
 * process, one store for all of them, whose `claim` is atomic (an insert that fails on a duplicate key).
 */
export interface NotificationStore {
  /**
   * Takes `id` for this delivery, at once and for one caller only: `new` (it is yours to handle),
   * `handled` (done before: answered 204), `busy` (being handled elsewhere now: answered 503, and the
   * service sends it again). A claim whose holder neither finishes nor releases it lapses after the
   * store's `lapseMs`: the next delivery takes it over. `holder` names this delivery (the route gives
   * each a random one) and is kept with the claim, for `release`.
   */
  claim(id: string, holder?: string): NotificationClaim | Promise<NotificationClaim>;
  /** `onPayment` succeeded: `id` is handled. `invoiceNumber` is the payment's own, as the service has it. */
  finish(id: string, payment: { referenceId: string; invoiceNumber: string | undefined }): void | Promise<void>;
  /**
   * `onPayment` failed: the claim is given back, so that the service's next delivery handles it, but
   * only while `holder` holds it (compare and release, atomically): a holder whose claim lapsed and
   * was taken over never frees its successor's. Without `holder`, only a claim taken without one.
   */
  release(id: string, holder?: string): void | Promise<void>;
  /** The reference id of the payment a handled notification carried for this invoice number (`payments.settle` asks). */
  referenceOf?(invoiceNumber: string): string | undefined | Promise<string | undefined>;
}

export const DEFAULT_LAPSE_MS = 5 * 60_000;

/** Options every store factory takes. */
export interface StoreOptions {
  /** How long a claim holds when its holder neither finishes nor releases it (a process that died). Default 5 minutes. */
  lapseMs?: number;
  /**
   * How long a handled notification id and a settled attempt are kept after their last change, in the
   * stores on an engine. Default 30 days: longer than the service retries a notification.
   */
  keepMs?: number;
}

/** The factory's `lapseMs`, checked: a whole number of milliseconds, at least 1. */
export function lapseOf(options: StoreOptions | undefined, store: string): number {
  const lapseMs = options?.lapseMs ?? DEFAULT_LAPSE_MS;
  if (!Number.isSafeInteger(lapseMs) || lapseMs < 1) throw configError('lapseMs must be a whole number of milliseconds, at least 1', store);
  return lapseMs;
}

/** An attempt's outcome as the page reads it (payframe's wire: `status`, and what goes with it). */
export type AttemptStatus = 'open' | 'approved' | 'declined' | 'pending' | 'void';

/**
 * One press of Pay: made before its payment request is sent, so that whatever became of the request,
 * any process can answer "what became of this attempt?".
 */
export interface Attempt {
  /** The page's id for this press of Pay. One charge at most per id. */
  attempt: string;
  /** The invoice number sent with its payment: one per attempt, never reused (the store refuses a second). */
  invoiceNumber: string;
  /** Who may read it (the merchant's session of the payer), opaque to payframe; undefined: anyone with the id. */
  owner?: string;
  /** The merchant's order this attempt pays, opaque to payframe. */
  order?: string;
  /** The payment's reference id, once the service's answer or a notification told it. */
  referenceId?: string;
  /**
   * `open`: sent or about to be sent, outcome not known yet; `void`: closed before any payment request
   * left (a late request for it charges nothing); the others as `readPayment` reads the payment.
   */
  status: AttemptStatus;
  /** What the page is answered once known (code, text, a pending payment's details): plain JSON. */
  outcome?: Record<string, unknown>;
  /** Milliseconds since the epoch. */
  createdAt: number;
  updatedAt: number;
}

/**
 * The statuses an attempt may hold when a change to `to` arrives and is written: the one precedence
 * every store applies (a change from any other status is refused and the attempt stays as it was).
 * Nothing moves back to `open`; `pending` only follows `open`; a final status never moves back to
 * `open` or `pending`; `approved` never moves to anything else; `void` (no request left) only follows
 * `open`, since a `pending` or `declined` attempt's request did leave.
 */
export const RECORDABLE_FROM: Readonly<Record<AttemptStatus, readonly AttemptStatus[]>> = {
  open: ['open'],
  pending: ['open', 'pending'],
  approved: ['open', 'pending', 'approved', 'declined', 'void'],
  declined: ['open', 'pending', 'declined', 'void'],
  void: ['open', 'void'],
};

/**
 * The outcome of an attempt `handlers.pay`'s `GET` closed because it never arrived (so that its `POST`, if
 * still on its way, charges nothing). Written for anyone with a session, so every store keeps it only as
 * long as that `POST` could still arrive (`NOT_RECEIVED_KEEP_MS`), and never lets it push out an attempt
 * that was paid.
 */
export const NOT_RECEIVED = { reason: 'not_received' } as const;
export const NOT_RECEIVED_KEEP_MS = 3_600_000;
export const isNotReceived = (a: Pick<Attempt, 'status' | 'outcome'>): boolean =>
  a.status === 'void' && a.outcome?.['reason'] === NOT_RECEIVED.reason;

/** `open` and `pending`: what `unsettled` lists. */
export const isUnsettled = (status: AttemptStatus): boolean => status === 'open' || status === 'pending';

const STATUSES: readonly AttemptStatus[] = ['open', 'approved', 'declined', 'pending', 'void'];

export const DEFAULT_KEEP_MS = 30 * 24 * 3_600_000;

/** The factory's `keepMs`, checked alike. */
export function keepOf(options: StoreOptions | undefined, store: string): number {
  const keepMs = options?.keepMs ?? DEFAULT_KEEP_MS;
  if (!Number.isSafeInteger(keepMs) || keepMs < 1) throw configError('keepMs must be a whole number of milliseconds, at least 1', store);
  return keepMs;
}

/** `begin`'s attempt, checked before anything is kept: every store keeps the same shape. */
export function checkAttempt(attempt: Omit<Attempt, 'updatedAt'>): void {
  const text = (value: unknown) => typeof value === 'string' && value !== '';
  const who = 'attempts.begin';
  if (!text(attempt?.attempt) || !text(attempt.invoiceNumber))
    throw requestError('attempt and invoiceNumber must be non-empty strings', who);
  if (!STATUSES.includes(attempt.status)) throw requestError(`status must be one of ${STATUSES.join(', ')}`, who);
  if (!Number.isSafeInteger(attempt.createdAt)) throw requestError('createdAt must be milliseconds since the epoch', who);
}

/** `record`'s change, checked alike. */
export function checkChange(change: { status: AttemptStatus }): void {
  if (!STATUSES.includes(change?.status)) throw requestError(`status must be one of ${STATUSES.join(', ')}`, 'attempts.record');
}

export interface AttemptStore {
  /**
   * Takes `attempt.attempt` and `attempt.invoiceNumber` at once, for one caller across every process
   * (a unique key): `{ taken: true }` when both were free, else the attempt as kept (`taken: false`).
   */
  begin(attempt: Omit<Attempt, 'updatedAt'>): Promise<{ taken: true } | { taken: false; attempt: Attempt }>;
  /**
   * Writes what became of the attempt of this invoice number, atomically; a final status
   * (`approved`, `declined`, `void`) never moves back to `open` or `pending`, and `approved` never
   * to anything else. Answers the attempt as kept after the write, or undefined when none has it.
   */
  record(
    invoiceNumber: string,
    change: Pick<Attempt, 'status'> & Partial<Pick<Attempt, 'referenceId' | 'outcome'>>,
  ): Promise<Attempt | undefined>;
  /** The attempt of this id, or undefined. */
  get(attempt: string): Promise<Attempt | undefined>;
  /** The attempt of this invoice number, or undefined. */
  byInvoice(invoiceNumber: string): Promise<Attempt | undefined>;
  /** Attempts still `open` or `pending` made before `before` (ms since the epoch), oldest first, at most `limit`. */
  unsettled(before: number, limit: number): Promise<Attempt[]>;
}

/** Everything payframe keeps: what `createGateway({ store })` takes and every store factory answers. */
export interface PayframeStore {
  notifications: NotificationStore;
  attempts: AttemptStore;
}
