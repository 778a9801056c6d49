// The demo's shopper accounts: a sign-in without a password (a sandbox demo; a real shop verifies the
// email first), a session cookie, and the signed-in shopper's own saved cards. A saved card is the
// vault payer's of the payment's email, so only emails the shop itself owns (its accounts') are trusted
// as a payer here: an anonymous checkout may not pay or save cards under them.
import { randomBytes } from 'node:crypto';
import { isApproved, isPayframeError, PayframeError } from 'payframe/server';
import { cookieOf, json, onlyKeys, readJson, refuse } from './http.mjs';

/** @typedef {{ id: string, name: string, email: string }} Account */

/** The shop's own addresses: every demo account's email is under this domain. */
export const ACCOUNT_DOMAIN = 'accounts.muscat-coffee.example';

/** The fixed demo shoppers. @type {Record<string, Account>} */
export const ACCOUNTS = {
  ada: { id: 'ada', name: 'Ada Lovelace', email: `ada@${ACCOUNT_DOMAIN}` },
  grace: { id: 'grace', name: 'Grace Hopper', email: `grace@${ACCOUNT_DOMAIN}` },
};

export const ACCOUNT_COOKIE = 'account';
const SESSION = /^[0-9a-f]{32}$/;

/** Whether an email is one of the shop's accounts' (they pay and save cards signed in only). @param {string} email */
export const isAccountEmail = (email) => email.toLowerCase().endsWith(`@${ACCOUNT_DOMAIN}`);

const notSignedIn = () => json(401, { error: { code: 'unauthorized', message: 'Sign in to see your saved cards.' } });

/**
 * The sessions (random id → account), the account of a request, and the account routes.
 * @param {import('./checkout.mjs').Shop} shop
 */
export function createAccounts(shop) {
  const { gateway } = shop;
  /** @type {Map<string, Account>} */
  const sessions = new Map();
  /** account id → its vault payer id, once known. @type {Map<string, string>} */
  const payers = new Map();

  /** The signed-in account of the request, if any. @param {Request} request @returns {Account | undefined} */
  const accountOf = (request) => {
    const id = cookieOf(request, ACCOUNT_COOKIE);
    return id && SESSION.test(id) ? sessions.get(id) : undefined;
  };

  /**
   * The account's vault payer id: remembered, else looked up by its email (which only the shop's own,
   * signed-in pages pay with); undefined while it has no card.
   * @param {Account} account
   */
  const payerIdOf = async (account) => {
    const known = payers.get(account.id);
    if (known) return known;
    try {
      const payer = await gateway.payers.byEmail(account.email);
      payers.set(account.id, payer.id);
      return payer.id;
    } catch (error) {
      if (isPayframeError(error) && error.code === 'not_found') return undefined;
      throw error;
    }
  };

  /** The account's saved cards, the default first. @param {Account} account */
  const cardsOf = async (account) => {
    const payerId = await payerIdOf(account);
    if (!payerId) return [];
    const { credit_cards: cards } = await gateway.payers.cards(payerId);
    return [...cards].sort((a, b) => Number(b.is_default === true) - Number(a.is_default === true));
  };

  const savedCards = gateway.handlers.savedCards({
    payerOf: async (request) => {
      const account = accountOf(request);
      if (!account) throw new PayframeError('unauthorized', 'Sign in to see your saved cards.');
      return payerIdOf(account);
    },
  });

  /** @type {[string, RegExp, import('./http.mjs').Route][]} */
  const routes = [
    ['GET', /^\/api\/account$/, async (request) => json(200, { account: accountOf(request) ?? null })],

    [
      'POST',
      /^\/api\/account\/session$/,
      async (request) => {
        const body = await readJson(request);
        onlyKeys(body, ['account']);
        const name = body['account'];
        const account = typeof name === 'string' && Object.hasOwn(ACCOUNTS, name) ? ACCOUNTS[name] : undefined;
        if (!account) throw refuse('invalid_request', `account must be one of: ${Object.keys(ACCOUNTS).join(', ')}.`);
        const old = cookieOf(request, ACCOUNT_COOKIE);
        if (old) sessions.delete(old);
        const id = randomBytes(16).toString('hex');
        sessions.set(id, account);
        return json(200, { account }, { 'set-cookie': `${ACCOUNT_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax` });
      },
    ],

    [
      'DELETE',
      /^\/api\/account\/session$/,
      async (request) => {
        const id = cookieOf(request, ACCOUNT_COOKIE);
        if (id) sessions.delete(id);
        return json(200, { account: null }, { 'set-cookie': `${ACCOUNT_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0` });
      },
    ],

    // The shopper's cards, listed, removed, made the default: payframe's handler, the payer from the session.
    ['GET', /^\/api\/account\/cards$/, async (request) => savedCards(request)],
    ['POST', /^\/api\/account\/cards$/, async (request) => savedCards(request)],

    // A card kept without paying: the nonce of the page's card form, verified with a zero amount under the account's email.
    [
      'POST',
      /^\/api\/account\/cards\/new$/,
      async (request, _params, ctx) => {
        const account = accountOf(request);
        if (!account) return notSignedIn();
        const body = await readJson(request);
        onlyKeys(body, ['card', 'browserInfo']);
        const card = /** @type {Record<string, unknown>} */ (typeof body['card'] === 'object' && body['card'] !== null ? body['card'] : {});
        if (typeof card['nonce'] !== 'string' || Object.keys(card).length !== 1) throw refuse('invalid_request', 'card must be { nonce }.');
        const { browserInfo = {} } = body;
        if (typeof browserInfo !== 'object' || browserInfo === null || Array.isArray(browserInfo))
          throw refuse('invalid_request', 'browserInfo must be an object.');
        const verification = await gateway.payments.verify({
          card: { nonce: card['nonce'] },
          currency: shop.order.currency,
          payer: { email: account.email, name: account.name },
          browserInfo: { .../** @type {import('payframe/server').BrowserInfo} */ (browserInfo), ...(ctx.ip ? { ip: ctx.ip } : {}) },
          description: 'Card saved without paying',
        });
        if (!isApproved(verification)) {
          const { code, text } = verification.result ?? {};
          return json(200, { saved: false, code, text });
        }
        const payerId = verification.payer?.payer_info?.id;
        if (payerId) payers.set(account.id, payerId);
        return json(200, { saved: true });
      },
    ],
  ];

  return { accountOf, cardsOf, routes };
}
