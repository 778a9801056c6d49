// What the merchant's own database keeps about its payments (db.mjs: PGlite in a folder on disk). The
// service is the judge of a payment's state; the ledger remembers what the service does not tell back:
// which order a payment paid, which browser started it, whether the payer agreed to keep the card, and
// the amounts captured and refunded.
import { readSavedCard } from 'payframe/server';
import { toMinor } from './money.mjs';

/**
 * @typedef {{ id: string, total: string, at: string, status?: 'pending' | 'denied' }} Action
 *   (`status`: the acquirer deferred it, or refused it after the service accepted it; none once done)
 * @typedef {{ id: string, kind: string, orderId: string | null, referenceId: string, state: string, at: string }} Notice
 * @typedef {{
 *   referenceId: string, orderId: string, kind: 'checkout' | 'merchant-initiated', intent: 'auth' | 'sale',
 *   amount: { currency: string, total: string }, email?: string, owner?: string, sessionId?: string, hostedPage?: boolean,
 *   saveCard: boolean, savedCardId?: string, previousPaymentId?: string, createdAt: string, attempt?: string,
 *   captures: Action[], refunds: Action[], voids: Action[],
 * }} Entry
 */

/**
 * The ledger, kept in the shop's database (one row per order, its entry as JSON) and read at start: a
 * shop killed and started again knows every order it had, the open ones too. This one process is the
 * ledger's only writer, so its maps are the table as it stands; each change is written before the
 * route goes on (an order is in the table before its payment request leaves).
 * @param {import('./db.mjs').Database} db
 */
export async function createLedger(db) {
  await db.query('create table if not exists demo_orders (order_id text primary key, body jsonb not null)');
  // Presses of Pay the page asked about before this server had them: closed, so that they never charge.
  await db.query('create table if not exists demo_closed_attempts (attempt text primary key)');
  const closed = new Set((await db.query('select attempt from demo_closed_attempts')).rows.map((r) => String(r.attempt)));
  /** Every order, by its id (the invoice number its payment carries); and those whose payment is known, by reference. */
  /** @type {Map<string, Entry>} */
  const orders = new Map();
  /** @type {Map<string, Entry>} */
  const byReference = new Map();
  /** @type {Notice[]} */
  const notices = [];
  let nextOrder = 1001;
  const { rows } = await db.query("select body from demo_orders order by (body->>'createdAt'), order_id");
  for (const { body } of /** @type {{ body: Entry }[]} */ (rows)) {
    orders.set(body.orderId, body);
    if (body.referenceId) byReference.set(body.referenceId, body);
    nextOrder = Math.max(nextOrder, Number(body.orderId.slice('ORD-'.length)) + 1);
  }

  /** Writes the entry as it is now. @param {Entry} entry */
  const save = async (entry) => {
    await db.query('insert into demo_orders (order_id, body) values ($1, $2) on conflict (order_id) do update set body = excluded.body', [
      entry.orderId,
      JSON.stringify(entry),
    ]);
  };
  /**
   * An order being paid, kept before its payment is sent: when the answer is lost, the payment's
   * notification finds it by its invoice number. Its `referenceId` is '' until the payment is known.
   * @param {Omit<Entry, 'captures' | 'refunds' | 'voids' | 'createdAt' | 'referenceId'>} entry
   */
  const open = async (entry) => {
    /** @type {Entry} */
    const full = { ...entry, referenceId: '', createdAt: new Date().toISOString(), captures: [], refunds: [], voids: [] };
    // Known before the write's first await: an ask for its attempt meanwhile finds it (see closeAttempt).
    orders.set(full.orderId, full);
    try {
      await save(full);
    } catch (error) {
      orders.delete(full.orderId);
      throw error;
    }
    return full;
  };
  /** The order's payment is known. @param {Entry} entry @param {string} referenceId */
  const attach = async (entry, referenceId) => {
    entry.referenceId = referenceId;
    byReference.set(referenceId, entry);
    await save(entry);
    return entry;
  };

  return {
    nextOrderId: () => `ORD-${nextOrder++}`,
    open,
    attach,
    save,
    /** An order whose payment failed for certain (never sent, refused): nothing to keep. @param {Entry} entry */
    drop: async (entry) => {
      orders.delete(entry.orderId);
      await db.query('delete from demo_orders where order_id = $1', [entry.orderId]);
    },
    /** @param {Omit<Entry, 'captures' | 'refunds' | 'voids' | 'createdAt'>} entry */
    add: async ({ referenceId, ...entry }) => attach(await open(entry), referenceId),
    /** @param {unknown} referenceId */
    get: (referenceId) => (typeof referenceId === 'string' ? byReference.get(referenceId) : undefined),
    /** @param {unknown} orderId */
    byOrder: (orderId) => (typeof orderId === 'string' ? orders.get(orderId) : undefined),
    /** The order the page's press of Pay made (its random attempt id). @param {unknown} attempt */
    byAttempt: (attempt) => (typeof attempt === 'string' ? [...orders.values()].find((e) => e.attempt === attempt) : undefined),
    /**
     * Closes a press of Pay this server does not have, so that it never charges: only then is "nothing was
     * paid" true (its POST may still be on its way). Marked before the write's first await, as `open` is:
     * one process, so the check and the mark of either cannot interleave.
     * @param {string} attempt
     */
    closeAttempt: async (attempt) => {
      closed.add(attempt);
      await db.query('insert into demo_closed_attempts (attempt) values ($1) on conflict do nothing', [attempt]);
    },
    /** @param {string} attempt */
    isClosed: (attempt) => closed.has(attempt),
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
    /** A notification the service sent, as the back office lists it (newest first, the last 200; a log, kept in memory). @param {Notice} notice */
    noticed: (notice) => void (notices.unshift(notice), notices.splice(200)),
    notices: () => [...notices],
    /**
     * Fills in what a fresh record of the service tells (the saved card id of an approved first payment,
     * known only once it is approved: for a pending payment, after the OTP) and keeps it.
     * @param {Entry} entry @param {import('payframe/server').Payment} record
     */
    learn: async (entry, record) => {
      if (entry.saveCard && !entry.savedCardId && !['pending', 'declined'].includes(record.state)) {
        entry.savedCardId = readSavedCard(record).savedCardId;
        await save(entry);
      }
    },
    /**
     * Keeps a capture, void or refund of an order once: its answer and its notification may both tell of it
     * (or only the notification, when the answer was lost).
     * @param {Entry} entry @param {'captures' | 'voids' | 'refunds'} list @param {Action} action
     */
    /**
     * Keeps a capture, void or refund of an order once: its answer and its notification may both tell of
     * it (or only the notification, when the answer was lost). A later notification's `status` wins: a
     * deferred refund is pending until its completion, a denied one stays denied.
     */
    noteAction: async (entry, list, action) => {
      const known = entry[list].find((a) => a.id === action.id);
      if (!known) entry[list].push(action);
      else if (!('status' in action) || known.status === 'denied') return;
      else if (action.status) known.status = action.status;
      else delete known.status;
      await save(entry);
    },
  };
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
