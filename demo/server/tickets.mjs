// One-time tickets for a kept card's CVV post. The CVV frame posts to the shop without cookies (a
// third-party frame has none to send), so the page first asks for a ticket with its checkout cookie:
// the ticket carries what that checkout may pay (the kept card, the intent), and pays once.
import { randomBytes } from 'node:crypto';

/** How long a ticket waits for its CVV: a payer types three digits in seconds; a page left open starts again. */
const LIFETIME_MS = 10 * 60_000;

/**
 * @typedef {{
 *   owner: string, keptCardId: string, email: string, intent: 'auth' | 'sale', locale: 'en' | 'ar',
 *   browserInfo: import('payframe/server').BrowserInfo,
 * }} Ticket
 */

export function createTickets(now = () => Date.now()) {
  /** @type {Map<string, Ticket & { expiresAt: number }>} */
  const tickets = new Map();
  return {
    /** A new ticket's id. @param {Ticket} ticket */
    issue(ticket) {
      for (const [id, t] of tickets) if (t.expiresAt <= now()) tickets.delete(id);
      const id = randomBytes(16).toString('hex');
      tickets.set(id, { ...ticket, expiresAt: now() + LIFETIME_MS });
      return id;
    },
    /** The ticket, once: a second take, an unknown id or an expired ticket is undefined. @param {unknown} id */
    take(id) {
      const ticket = typeof id === 'string' ? tickets.get(id) : undefined;
      if (ticket) tickets.delete(/** @type {string} */ (id));
      return ticket && ticket.expiresAt > now() ? ticket : undefined;
    },
  };
}
