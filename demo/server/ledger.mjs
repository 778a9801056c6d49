// What the merchant's own database would keep about the payments of this run. The service is the
// judge of a payment's state; the ledger remembers what the service does not tell back: which order
// a payment paid, which browser started it, whether the payer agreed to keep the card, and the
// amounts captured and refunded.
import { readSavedCard } from 'payframe/server';
import { toMinor } from './money.mjs';

/**
 * @typedef {{ id: string, total: string, at: string, status?: 'pending' | 'denied' }} Action
 *   (`status`: the acquirer deferred it, or refused it after the service accepted it; none once done)
 * @typedef {{ id: string, kind: string, orderId: string | null, referenceId: string, state: string, at: string }} Notice
 * @typedef {{
 *   referenceId: string, orderId: string, kind: 'checkout' | 'merchant-initiated', intent: 'auth' | 'sale',
 *   amount: { currency: string, total: string }, email?: string, owner?: string, sessionId?: string,
 *   saveCard: boolean, savedCardId?: string, previousPaymentId?: string, createdAt: string, attempt?: string,
 *   captures: Action[], refunds: Action[], voids: Action[],
 * }} Entry
 */

export function createLedger() {
  /** Every order, by its id (the invoice number its payment carries); and those whose payment is known, by reference. */
  /** @type {Map<string, Entry>} */
  const orders = new Map();
  /** @type {Map<string, Entry>} */
  const byReference = new Map();
  /** @type {Notice[]} */
  const notices = [];
  let nextOrder = 1001;

  /**
   * An order being paid, kept before its payment is sent: when the answer is lost, the payment's
   * notification finds it by its invoice number. Its `referenceId` is '' until the payment is known.
   * @param {Omit<Entry, 'captures' | 'refunds' | 'voids' | 'createdAt' | 'referenceId'>} entry
   */
  const open = (entry) => {
    /** @type {Entry} */
    const full = { ...entry, referenceId: '', createdAt: new Date().toISOString(), captures: [], refunds: [], voids: [] };
    orders.set(full.orderId, full);
    return full;
  };
  /** The order's payment is known. @param {Entry} entry @param {string} referenceId */
  const attach = (entry, referenceId) => {
    entry.referenceId = referenceId;
    byReference.set(referenceId, entry);
    return entry;
  };

  return {
    nextOrderId: () => `ORD-${nextOrder++}`,
    open,
    attach,
    /** An order whose payment failed for certain (never sent, refused): nothing to keep. @param {Entry} entry */
    drop: (entry) => void orders.delete(entry.orderId),
    /** @param {Omit<Entry, 'captures' | 'refunds' | 'voids' | 'createdAt'>} entry */
    add: ({ referenceId, ...entry }) => attach(open(entry), referenceId),
    /** @param {unknown} referenceId */
    get: (referenceId) => (typeof referenceId === 'string' ? byReference.get(referenceId) : undefined),
    /** @param {unknown} orderId */
    byOrder: (orderId) => (typeof orderId === 'string' ? orders.get(orderId) : undefined),
    /** The order the page's press of Pay made (its random attempt id). @param {unknown} attempt */
    byAttempt: (attempt) => (typeof attempt === 'string' ? [...orders.values()].find((e) => e.attempt === attempt) : undefined),
    /** @param {string} sessionId */
    bySession: (sessionId) => [...orders.values()].find((e) => e.sessionId === sessionId),
    /** Newest first. */
    all: () => [...orders.values()].reverse(),
    /**
     * First payments whose payer asked to keep the card, for this email, made by this browser (its
     * checkout cookie): knowing a shopper's email is not being them.
     * @param {string} email @param {string | undefined} owner
     */
    savedFor: (email, owner) =>
      [...orders.values()].filter(
        (e) => e.saveCard && owner !== undefined && e.owner === owner && e.email?.toLowerCase() === email.toLowerCase(),
      ),
    /** A notification the service sent, as the back office lists it (newest first, the last 200). @param {Notice} notice */
    noticed: (notice) => void (notices.unshift(notice), notices.splice(200)),
    notices: () => [...notices],
  };
}

/**
 * Fills in what a fresh record of the service tells: the saved card id of an approved first payment
 * (known only once it is approved, which for a pending payment is after the OTP).
 * @param {Entry} entry @param {import('payframe/server').Payment} record
 */
export function learn(entry, record) {
  if (entry.saveCard && !entry.savedCardId && !['pending', 'declined'].includes(record.state)) {
    entry.savedCardId = readSavedCard(record).savedCardId;
  }
}

/**
 * Keeps a capture, void or refund of an order once: its answer and its notification may both tell of it
 * (or only the notification, when the answer was lost). A later notification's `status` wins: a deferred
 * refund is pending until its completion, a denied one stays denied.
 * @param {Entry} entry @param {'captures' | 'voids' | 'refunds'} list @param {Action} action
 */
export function noteAction(entry, list, action) {
  const known = entry[list].find((a) => a.id === action.id);
  if (!known) entry[list].push(action);
  else if ('status' in action && known.status !== 'denied') {
    if (action.status) known.status = action.status;
    else delete known.status;
  }
}

/** Captured and refunded amounts in minor units. @param {Entry} entry @param {string} state */
export function totals(entry, state) {
  const { currency } = entry.amount;
  // A denied capture or refund moved no money; a pending one counts, as the service counts it.
  const sum = (/** @type {Action[]} */ actions) =>
    actions.reduce((s, a) => s + (a.status === 'denied' ? 0 : toMinor(a.total, currency)), 0);
  const approved = !['pending', 'declined'].includes(state);
  const captured = entry.intent === 'sale' ? (approved ? toMinor(entry.amount.total, currency) : 0) : sum(entry.captures);
  return { total: toMinor(entry.amount.total, currency), captured, refunded: sum(entry.refunds) };
}
