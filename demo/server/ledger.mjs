// What the merchant's own database would keep about the payments of this run. The service is the
// judge of a payment's state; the ledger remembers what the service does not tell back: which order
// a payment paid, which browser started it, whether the payer agreed to keep the card, and the
// amounts captured and refunded.
import { readKeptCard } from 'payframe/server';
import { toMinor } from './money.mjs';

/**
 * @typedef {{ id: string, total: string, at: string }} Action
 * @typedef {{
 *   referenceId: string, orderId: string, kind: 'checkout' | 'merchant-initiated', intent: 'auth' | 'sale',
 *   amount: { currency: string, total: string }, email?: string, owner?: string, sessionId?: string,
 *   saveCard: boolean, vaultCardId?: string, previousPaymentId?: string, createdAt: string,
 *   captures: Action[], refunds: Action[], voids: Action[],
 * }} Entry
 */

export function createLedger() {
  /** @type {Map<string, Entry>} */
  const entries = new Map();
  let nextOrder = 1001;

  return {
    nextOrderId: () => `ORD-${nextOrder++}`,
    /** @param {Omit<Entry, 'captures' | 'refunds' | 'voids' | 'createdAt'>} entry */
    add(entry) {
      /** @type {Entry} */
      const full = { ...entry, createdAt: new Date().toISOString(), captures: [], refunds: [], voids: [] };
      entries.set(full.referenceId, full);
      return full;
    },
    /** @param {unknown} referenceId */
    get: (referenceId) => (typeof referenceId === 'string' ? entries.get(referenceId) : undefined),
    /** @param {string} sessionId */
    bySession: (sessionId) => [...entries.values()].find((e) => e.sessionId === sessionId),
    /** Newest first. */
    all: () => [...entries.values()].reverse(),
    /**
     * First payments whose payer asked to keep the card, for this email, made by this browser (its
     * checkout cookie): knowing a shopper's email is not being them.
     * @param {string} email @param {string | undefined} owner
     */
    keptFor: (email, owner) =>
      [...entries.values()].filter((e) => e.saveCard && owner !== undefined && e.owner === owner && e.email?.toLowerCase() === email.toLowerCase()),
  };
}

/**
 * Fills in what a fresh record of the service tells: the vault card id of an approved first payment
 * (known only once it is approved, which for a pending payment is after the OTP).
 * @param {Entry} entry @param {import('payframe/server').Payment} record
 */
export function learn(entry, record) {
  if (entry.saveCard && !entry.vaultCardId && !['pending', 'declined'].includes(record.state)) {
    entry.vaultCardId = readKeptCard(record).vaultCardId;
  }
}

/** Captured and refunded amounts in minor units. @param {Entry} entry @param {string} state */
export function totals(entry, state) {
  const { currency } = entry.amount;
  const sum = (/** @type {Action[]} */ actions) => actions.reduce((s, a) => s + toMinor(a.total, currency), 0);
  const approved = !['pending', 'declined'].includes(state);
  const captured = entry.intent === 'sale' ? (approved ? toMinor(entry.amount.total, currency) : 0) : sum(entry.captures);
  return { total: toMinor(entry.amount.total, currency), captured, refunded: sum(entry.refunds) };
}
