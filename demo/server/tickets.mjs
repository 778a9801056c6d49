// One-time tickets for a saved card's CVV post. The CVV frame posts to the shop without cookies (a
// third-party frame has none to send), so the page first asks for a ticket with its checkout cookie:
// the ticket carries what that checkout may pay (the saved card, the intent), and pays once. A kept
// card gets a few tickets in a window, so that its owner's browser (or a script in it) cannot try
// security code after security code.
import { randomBytes } from 'node:crypto';
import { refuse } from './http.mjs';

/** How long a ticket waits for its CVV: a payer types three digits in seconds; a page left open starts again. */
const LIFETIME_MS = 10 * 60_000;
/** At most this many tickets for one saved card in WINDOW_MS: a payer mistyping twice is far from it. */
const PER_CARD = 5;
const WINDOW_MS = 10 * 60_000;

/**
 * @typedef {{
 *   owner: string, savedCardId: string, email: string, intent: 'auth' | 'sale', locale: 'en' | 'ar', orderId: string,
 *   browserInfo: import('payframe/server').BrowserInfo,
 * }} Ticket
 */

export function createTickets(now = () => Date.now()) {
  /** @type {Map<string, Ticket & { expiresAt: number }>} */
  const tickets = new Map();
  /** When each saved card's recent tickets were issued. @type {Map<string, number[]>} */
  const issued = new Map();
  return {
    /** A new ticket's id, or rate_limited when its card had PER_CARD tickets in WINDOW_MS. @param {Ticket} ticket */
    issue(ticket) {
      for (const [id, t] of tickets) if (t.expiresAt <= now()) tickets.delete(id);
      for (const [card, times] of issued) if (times.every((at) => at <= now() - WINDOW_MS)) issued.delete(card);
      const recent = (issued.get(ticket.savedCardId) ?? []).filter((at) => at > now() - WINDOW_MS);
      if (recent.length >= PER_CARD) {
        const minutes = Math.ceil(((recent[0] ?? now()) + WINDOW_MS - now()) / 60_000);
        const wait = `${minutes} minute${minutes === 1 ? '' : 's'}`;
        throw refuse('rate_limited', `Too many payments with this saved card: try again in ${wait}, or pay with the card’s details.`);
      }
      issued.set(ticket.savedCardId, [...recent, now()]);
      const id = randomBytes(16).toString('hex');
      tickets.set(id, { ...ticket, expiresAt: now() + LIFETIME_MS });
      return id;
    },
    /**
     * Spends the ticket of `owner`'s order unused: a CVV post still on its way then pays nothing, so that
     * "the shop never received it" is true when the page is told so.
     * @param {string} orderId @param {string} owner
     */
    close(orderId, owner) {
      for (const [id, t] of tickets) if (t.orderId === orderId && t.owner === owner) tickets.delete(id);
    },
    /** The ticket, once: a second take, an unknown id or an expired ticket is undefined. @param {unknown} id */
    take(id) {
      const ticket = typeof id === 'string' ? tickets.get(id) : undefined;
      if (ticket) tickets.delete(/** @type {string} */ (id));
      return ticket && ticket.expiresAt > now() ? ticket : undefined;
    },
  };
}
