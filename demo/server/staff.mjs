// The back office's door. `npm start` makes a random staff key and prints the back office's address
// with it in the fragment (`#key=…`), which no request, server log or Referer carries. The page trades
// it once at POST /api/staff/session for an HttpOnly, SameSite=Strict `staff` cookie; every back-office
// route needs that cookie. A payer's browser, with its checkout cookie or without, gets 401.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { cookieOf, json, onlyKeys, readJson } from './http.mjs';

export const STAFF_COOKIE = 'staff';

/** A fresh staff key: 32 hex digits, new at each start. */
export const newStaffKey = () => randomBytes(16).toString('hex');

// Built here, not from a PayframeError: the service's own 'unauthorized' (the shop's credentials refused) stays a 502.
const unauthorized = (/** @type {string} */ message) => json(401, { error: { code: 'unauthorized', message } });
const NO_STAFF = 'The back office is for the shop’s staff: open the Back office address that npm start printed.';

/**
 * The cookie's value is derived from the key (an HMAC), so the server keeps no sessions, a restart's
 * new key ends every old cookie, and the cookie never holds the key itself.
 * @param {string} key
 */
export function createStaff(key) {
  if (!/^[0-9a-f]{32}$/.test(key)) throw new TypeError('The staff key must be 32 hex digits.');
  const digest = (/** @type {string} */ text) => createHmac('sha256', key).update(text).digest();
  const session = digest('staff session').toString('hex');
  // Both sides hashed to one length first: timingSafeEqual needs equal lengths, and the comparison
  // then says nothing about how much of a guess was right.
  const same = (/** @type {string} */ given, /** @type {string} */ expected) => timingSafeEqual(digest(given), digest(expected));

  /** Whether the request carries this run's staff cookie. @param {Request} request */
  const admits = (request) => {
    const value = cookieOf(request, STAFF_COOKIE);
    return value !== undefined && same(value, session);
  };

  /** @type {[string, RegExp, import('./http.mjs').Route]} */
  const sessionRoute = [
    'POST',
    /^\/api\/staff\/session$/,
    async (request) => {
      const body = await readJson(request);
      onlyKeys(body, ['key']);
      const given = body['key'];
      if (typeof given !== 'string' || !same(given, key)) {
        return unauthorized('This key is not this run’s: open the Back office address that npm start printed this time.');
      }
      return json(200, { staff: true }, { 'set-cookie': `${STAFF_COOKIE}=${session}; Path=/api; HttpOnly; SameSite=Strict` });
    },
  ];

  /**
   * The routes, each answering 401 unless the request is staff's.
   * @param {[string, RegExp, import('./http.mjs').Route][]} routes
   * @returns {[string, RegExp, import('./http.mjs').Route][]}
   */
  const only = (routes) =>
    routes.map(([method, pattern, route]) => [
      method,
      pattern,
      (request, params, ctx) => (admits(request) ? route(request, params, ctx) : Promise.resolve(unauthorized(NO_STAFF))),
    ]);

  return { sessionRoute, only };
}
