/**
 * What became of an attempt (one press of Pay), read from the service and written to the gateway's
 * store: what the pay route's GET, `settleOpen` and the notification route share. It reads; it never
 * pays. docs/outcomes.md says why each answer can be trusted.
 */
import type { PayAnswer } from '../../protocol/wire';
import type { Payment } from '../../schemas';
import { PayframeError } from '../../shared/errors';
import { readPayment, toPending } from '../readers';
import type { Attempt, AttemptStatus, PayframeStore } from '../store/store';
import type { HostedSettlement } from './hosted-calls';

/** An answer that names the payment (approved, declined, pending). */
type Known = Exclude<PayAnswer, { status: 'checking' | 'none' | 'hosted' }>;

/** What the gateway keeps of an attempt's payment, as the page will be answered (plain JSON). */
export function outcomeOf(payment: Payment): { status: AttemptStatus; referenceId: string; outcome: Record<string, unknown> } {
  const { status, referenceId, state, code, text } = readPayment(payment);
  let pending: Known['pending'];
  if (status === 'pending') {
    try {
      pending = toPending(payment);
    } catch {
      pending = undefined; // a pending payment the page cannot finish: answered `checking` until it ends
    }
  }
  return { status, referenceId, outcome: { state, code, ...(text !== undefined && { text }), ...(pending && { pending }) } };
}

/** The page's answer for an attempt as kept: `checking` while nobody knows, `none` when no payment was made. */
export function answerOf(attempt: Attempt): PayAnswer {
  if (attempt.status === 'open') return { status: 'checking' };
  if (attempt.status === 'void') return { status: 'none' };
  const { state, code, text, pending } = (attempt.outcome ?? {}) as Partial<Omit<Known, 'status'>>;
  if (attempt.status === 'pending' && pending === undefined) return { status: 'checking' };
  return {
    status: attempt.status,
    ...(attempt.referenceId !== undefined && { referenceId: attempt.referenceId }),
    ...(state !== undefined && { state }),
    ...(code !== undefined && { code }),
    ...(text !== undefined && { text }),
    ...(attempt.status === 'pending' && { pending }),
  };
}

/**
 * How long after an attempt began the service may still name its payment: a payment created `pending`
 * is notified when it ends (15 minutes), and a notification is tried again for 24 hours after its first
 * try (docs/service-decisions.md); an hour more for a request the service took late, a backlog of tries
 * to the route, and clocks apart. The service has no lookup by invoice number, so past this window an
 * open attempt that no notification named made no payment.
 */
export const NOTIFICATION_WINDOW_MS = (15 * 60 + 25 * 3600) * 1000;

/** What an attempt closed at the end of the window keeps in its `outcome`: why it was closed. */
export const WINDOW_CLOSED = { reason: 'notification_window' } as const;

/** How an attempt's payment is read: by reference id, and (an attempt sent to the hosted page) by the page's session. */
type Read = { get(referenceId: string): Promise<Payment>; hostedSettle?(sessionId: string): Promise<HostedSettlement> };

/**
 * Reads an open (or pending) attempt's payment from the service, by its reference id, or by the
 * reference id a handled notification named for its invoice number, and writes what it became. An
 * attempt whose payment nobody has named yet stays as it is (its answer was lost and its
 * notification has not come); `settleOpen` (`closeAtWindow`) closes it `void`, its outcome
 * `WINDOW_CLOSED`, once the service's notification window is over. The page's ask never does: a
 * notification route writing to another store would never name the attempt, and the payer of a paid
 * order would read "not paid"; the merchant's job logs each one it closes.
 */
export async function settleAttempt(read: Read, store: PayframeStore, attempt: Attempt, closeAtWindow = false): Promise<Attempt> {
  if (attempt.status !== 'open' && attempt.status !== 'pending') return attempt;
  const referenceId = attempt.referenceId ?? (await store.notifications.referenceOf?.(attempt.invoiceNumber));
  const hostedSessionId = attempt.outcome?.['hostedSessionId'];
  if (referenceId === undefined && typeof hostedSessionId === 'string' && read.hostedSettle) {
    // Sent to the service's page: its session says whether the payer paid, and an expired one that nobody did.
    const settled = await read.hostedSettle(hostedSessionId);
    if (settled.status === 'expired') return (await store.attempts.record(attempt.invoiceNumber, { status: 'void' })) ?? attempt;
    if (!('payment' in settled)) return attempt;
    return (await store.attempts.record(attempt.invoiceNumber, outcomeOf(settled.payment))) ?? attempt;
  }
  if (referenceId === undefined) {
    if (!closeAtWindow || attempt.status !== 'open' || Date.now() - attempt.createdAt < NOTIFICATION_WINDOW_MS) return attempt;
    // A notification that still comes (a resend by hand) moves it on: `void` may turn `approved` or `declined`.
    return (await store.attempts.record(attempt.invoiceNumber, { status: 'void', outcome: { ...WINDOW_CLOSED } })) ?? attempt;
  }
  const payment = await read.get(referenceId);
  // The service's record of another invoice number is not this attempt's payment.
  const invoice = payment.transaction?.invoice_number;
  if (invoice !== undefined && invoice !== attempt.invoiceNumber) return attempt;
  return (await store.attempts.record(attempt.invoiceNumber, outcomeOf(payment))) ?? attempt;
}

export interface SettleOpenOptions {
  /** Only attempts made at least this long ago (ms); default 60,000: a younger one's answer may still come. */
  olderThan?: number;
  /** At most this many, oldest first; default 100. */
  limit?: number;
}

/** What `settleOpen` found: every attempt it looked at, as kept after it, and how many are still open. */
export interface OpenSettlement {
  found: number;
  settled: Attempt[];
  open: Attempt[];
  /** Attempts whose read failed (the service down, say): tried again at the next run. */
  failed: { attempt: Attempt; error: unknown }[];
}

/** `gateway.settleOpen`: for a scheduled job. One read per attempt, one at a time: a job, not a burst. */
export async function settleOpen(read: Read, store: PayframeStore, options: SettleOpenOptions = {}): Promise<OpenSettlement> {
  const { olderThan = 60_000, limit = 100 } = options ?? {};
  if (!Number.isFinite(olderThan) || olderThan < 0) throw new PayframeError('invalid_request', 'olderThan must be milliseconds, 0 or more');
  if (!Number.isSafeInteger(limit) || limit < 1) throw new PayframeError('invalid_request', 'limit must be a whole number, at least 1');
  const found = await store.attempts.unsettled(Date.now() - olderThan, limit);
  const result: OpenSettlement = { found: found.length, settled: [], open: [], failed: [] };
  for (const attempt of found) {
    try {
      const kept = await settleAttempt(read, store, attempt, true);
      (kept.status === 'open' || kept.status === 'pending' ? result.open : result.settled).push(kept);
    } catch (error) {
      result.failed.push({ attempt, error });
    }
  }
  return result;
}
