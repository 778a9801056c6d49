/**
 * What payframe keeps so that no outcome is lost on any server: the contract every store meets (the
 * memory store, `postgresStore`, `redisStore`, or the merchant's own). One store serves the gateway:
 * `createGateway({ store })` hands it to the notification route, `payments.settle`, the pay and OTP
 * routes and `settleOpen`, so nothing is handed to two calls by hand.
 */
import type { NotificationStore } from './memory';

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
