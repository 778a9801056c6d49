// The checkout page's routes: client token, the order, pay, the OTP, the return page's session read,
// the payer's saved cards, a saved card paid again with the CVV its frame posts, an order whose answer
// was lost, and the service's notifications.
import { isPayframeError, isSurelyNotCharged, PayframeError, readPayment, toPending } from 'payframe/server';
import { json, newOwner, onlyKeys, ownerCookie, readJson, refuse } from './http.mjs';
import { paymentOrder, priced } from './order.mjs';
import { createTickets } from './tickets.mjs';
import { isAccountEmail } from './account.mjs';

/**
 * @typedef {import('./ledger.mjs').Entry} Entry
 * @typedef {{
 *   gateway: import('payframe/server').Gateway, ledger: Awaited<ReturnType<typeof import('./ledger.mjs').createLedger>>,
 *   order: import('./order.mjs').Order, publicOrigin: string, merchantId: string, gatewayUrl: string, frameOrigin: string,
 *   notifyAuthorization: string,
 * }} Shop
 * @typedef {{ intent: 'auth' | 'sale', email?: string, name?: string, saveCard: boolean, locale: 'en' | 'ar', browserInfo: import('payframe/server').BrowserInfo, attempt?: string }} PayInput
 */

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}$/;
/** The page's id of one press of Pay: a random UUID, which the page alone knows with this server. */
const ATTEMPT = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A capture, void or refund record by its state as the service answers it, and where the ledger keeps each. @type {Record<string, 'captures' | 'voids' | 'refunds'>} */
const ACTIONS = { captured: 'captures', voided: 'voids', refunded: 'refunds' };
/** Where a denied action is kept: its record reads `declined`, so only its notification's kind says which it was. */
const DENIED = { 'PAYMENT.CAPTURE.DENIED': 'captures', 'PAYMENT.AUTHORIZATION.VOID.DENIED': 'voids', 'PAYMENT.REFUND.DENIED': 'refunds' };

/**
 * The email a payment is made under: a signed-in shopper's account's (the page may send it, or none),
 * else the one typed, which may not be an account's (those pay signed in only: the vault files a card
 * under the payer of the payment's email).
 * @param {string | undefined} email @param {import('./account.mjs').Account | undefined} account
 */
function payerEmail(email, account) {
  if (account) {
    if (email !== undefined && email.toLowerCase() !== account.email)
      throw refuse('invalid_request', `Signed in as ${account.email}: the payment is made under that email.`);
    return account.email;
  }
  if (email !== undefined && isAccountEmail(email)) throw refuse('invalid_request', 'This email is a shop account’s: sign in to use it.');
  return email;
}

/**
 * @param {Shop} shop @param {ReturnType<typeof import('./account.mjs').createAccounts>} accounts
 * @returns {[string, RegExp, import('./http.mjs').Route][]}
 */
export function checkoutRoutes(shop, accounts) {
  const { gateway, ledger, order } = shop;
  const clientToken = gateway.handlers.clientToken();
  const authenticate = gateway.handlers.authenticate();
  const tickets = createTickets();

  /**
   * What the page is told of a payment of its checkout: the outcome, the order and its amount (with what
   * `handlePending` needs when the bank asks for an OTP).
   * @param {import('payframe/server').Payment} payment @param {Entry} entry
   */
  const answerOf = (payment, entry) => {
    const outcome = readPayment(payment);
    const { status, state, code, text, referenceId } = outcome;
    return {
      status,
      state,
      code,
      text,
      referenceId,
      orderId: entry.orderId,
      amount: entry.amount,
      ...(outcome.status === 'pending' ? { pending: toPending(payment) } : {}),
    };
  };

  /**
   * Creates the payment of the shop's order, kept in the ledger under the checkout that started it
   * before it is sent (a lost answer loses no order: its notification finds it by invoice number);
   * answers the payment and what the page shows of it. `outcome_unknown` leaves the order open.
   * @param {PayInput} input @param {import('payframe/server').PaymentFunding} funding @param {string} owner @param {string | undefined} ip
   * @param {string} orderId
   */
  const startPayment = async (input, funding, owner, ip, orderId) => {
    const bill = paymentOrder(order, orderId);
    const returnUrl = new URL('/return', shop.publicOrigin);
    if (input.locale === 'ar') returnUrl.searchParams.set('lang', 'ar');
    const entry = await ledger.open({
      orderId,
      kind: 'checkout',
      intent: input.intent,
      amount: { currency: bill.amount.currency, total: bill.amount.total },
      owner,
      saveCard: input.saveCard,
      ...(input.email ? { email: input.email } : {}),
      ...(input.attempt ? { attempt: input.attempt } : {}),
    });
    let payment;
    try {
      payment = await gateway.payments.create({
        ...bill,
        ...funding,
        intent: input.intent,
        ...(input.email ? { payer: { email: input.email, ...(input.name ? { name: input.name } : {}) } } : {}),
        browserInfo: { ...input.browserInfo, ...(ip ? { ip } : {}) },
        returnUrl: returnUrl.href,
      });
    } catch (error) {
      // Refused, or never sent: nothing was charged, nothing to keep. Anything else (a lost answer, a 5xx
      // after the service may have acted) keeps the order, and the page checks it: never "not paid".
      if (!isPayframeError(error) || isSurelyNotCharged(error)) {
        await ledger.drop(entry);
        throw error;
      }
      if (error.code === 'outcome_unknown') throw error;
      throw new PayframeError('outcome_unknown', "the payment's outcome is being checked: do not pay again", { cause: error });
    }
    const outcome = readPayment(payment);
    if (outcome.status === 'pending' && outcome.sessionId) entry.sessionId = outcome.sessionId;
    await ledger.attach(entry, payment.reference_id);
    await ledger.learn(entry, payment);
    return { payment, answer: answerOf(payment, entry) };
  };

  /** What the page is told of an order whose payment's answer was lost: it is being checked. @param {Entry} entry */
  const checking = (entry) => ({ status: 'checking', orderId: entry.orderId, amount: entry.amount });

  const notification = gateway.handlers.notification({
    authorization: shop.notifyAuthorization,
    // The service's record, read by the handler: the order is found by the invoice number it carries.
    onPayment: async (payment, notice) => {
      const entry = ledger.byOrder(payment.transaction?.invoice_number);
      if (entry && !entry.referenceId) await ledger.attach(entry, payment.reference_id);
      if (entry) await ledger.learn(entry, payment);
      // A capture, void or refund (whose answer may have been lost): its own record, read from the service.
      // The posted body only points at it: what happened is the record's; the kind only says whether an
      // accepted action still waits at the bank (deferred) or which action a denied record was.
      const recordId = notice.resource['id'];
      if (entry && typeof recordId === 'string' && recordId !== payment.reference_id) {
        const record = await gateway.payments.get(recordId);
        const denied = record.state === 'declined';
        const list = denied ? DENIED[notice.kind] : ACTIONS[record.state];
        const status = denied ? 'denied' : notice.kind.endsWith('.DEFERRED') ? 'pending' : undefined;
        if (list && record.id !== payment.reference_id && record.reference_id === payment.reference_id) {
          const total = list === 'voids' ? entry.amount.total : (record.transaction?.amount?.total ?? '0');
          await ledger.noteAction(entry, list, { id: record.id, total, at: record.create_time, status });
        }
      }
      ledger.noticed({
        id: notice.id,
        kind: notice.kind,
        orderId: entry?.orderId ?? null,
        referenceId: payment.reference_id,
        state: payment.state,
        at: new Date().toISOString(),
      });
    },
  });

  /**
   * The return from the service's page: its session names the payment once the payer paid; a page
   * left unpaid (expired) charged nothing. @param {Entry} entry @param {string} sessionId
   */
  const hostedReturn = async (entry, sessionId) => {
    const settled = await gateway.hostedPayments.settle(sessionId);
    if (!('payment' in settled)) {
      const text = settled.status === 'expired' ? 'The payment page expired: nothing was charged.' : 'Not paid yet: nothing was charged.';
      return json(200, { status: 'declined', code: '', text, referenceId: '', orderId: entry.orderId, amount: entry.amount });
    }
    if (!entry.referenceId) await ledger.attach(entry, settled.payment.reference_id);
    await ledger.learn(entry, settled.payment);
    const { status, state, code, text, referenceId } = settled;
    return json(200, { status, state, code, text, referenceId, orderId: entry.orderId, amount: entry.amount });
  };

  /** The payment of this browser's checkout with this reference, or not_found. @param {unknown} referenceId @param {string | undefined} owner */
  const ownPayment = (referenceId, owner) => {
    const entry = ledger.get(referenceId);
    if (!entry || !owner || entry.owner !== owner) throw refuse('not_found', 'No payment of this checkout has this reference.');
    return entry;
  };

  return [
    [
      'GET',
      /^\/api\/checkout$/,
      async () => json(200, { order: priced(order), gateway: { merchantId: shop.merchantId, baseUrl: shop.gatewayUrl } }),
    ],

    ['POST', /^\/api\/client-token$/, async (request) => clientToken(request)],

    [
      'POST',
      /^\/api\/pay$/,
      async (request, _params, ctx) => {
        const account = accounts.accountOf(request);
        const input = checkPay(await readJson(request));
        input.email = payerEmail(input.email, account);
        const card = { nonce: input.nonce, ...(input.name ? { name: input.name } : {}) };
        const owner = ctx.owner ?? newOwner();
        const cookie = ctx.owner ? {} : { 'set-cookie': ownerCookie(owner) };
        // A press of Pay the page was told "none" for (it asked before this POST came) charges nothing.
        if (input.attempt && ledger.isClosed(input.attempt)) return json(200, { status: 'none' }, cookie);
        const orderId = ledger.nextOrderId();
        try {
          const { answer } = await startPayment(
            input,
            { card, ...(input.saveCard ? { storedCredential: { kind: 'first' } } : {}) },
            owner,
            ctx.ip,
            orderId,
          );
          return json(200, answer, cookie);
        } catch (error) {
          // Sent, and its answer lost: the service may have charged. The page is told it is being checked, never "not paid".
          const open = ledger.byOrder(orderId);
          if (open && isPayframeError(error) && error.code === 'outcome_unknown') return json(200, checking(open), cookie);
          throw error;
        }
      },
    ],

    // The other path: the service's own payment page takes the card; this page never holds one.
    [
      'POST',
      /^\/api\/hosted$/,
      async (request, _params, ctx) => {
        const input = checkPayInput(await readJson(request));
        input.email = payerEmail(input.email, accounts.accountOf(request));
        const owner = ctx.owner ?? newOwner();
        const orderId = ledger.nextOrderId();
        const bill = paymentOrder(order, orderId);
        const returnUrl = new URL('/return', shop.publicOrigin);
        if (input.locale === 'ar') returnUrl.searchParams.set('lang', 'ar');
        const amount = { currency: bill.amount.currency, total: bill.amount.total };
        const entry = await ledger.open({ orderId, kind: 'checkout', intent: input.intent, amount, owner, saveCard: false });
        try {
          const made = await gateway.hostedPayments.create({
            ...bill,
            intent: input.intent,
            ...(input.email ? { payer: { email: input.email } } : {}),
            returnUrl: returnUrl.href,
          });
          // The payer returns with the page's session id: the return page reads the order by it.
          entry.sessionId = /** @type {string} */ (new URL(made.hosted_page_link).pathname.split('/').pop());
          entry.hostedPage = true; // kept with the order: a shop restarted before the payer returns still knows it
          await ledger.save(entry);
          return json(200, { hostedPageLink: made.hosted_page_link }, ctx.owner ? {} : { 'set-cookie': ownerCookie(owner) });
        } catch (error) {
          await ledger.drop(entry); // no session, or one whose link nobody has: nothing can be charged
          throw error;
        }
      },
    ],

    // A payment whose answer to the page was lost on the way: the page asks by the attempt id it made (a
    // secret only it and this server know, so it needs no cookie: a first payment's cookie came in that answer).
    [
      'GET',
      /^\/api\/attempt\/([0-9a-f-]{36})$/,
      async (_request, [attempt]) => {
        const entry = ledger.byAttempt(attempt);
        if (!entry) {
          // An absence proves nothing (its POST may be on its way): closed first, "none" is then true.
          await ledger.closeAttempt(/** @type {string} */ (attempt));
          return json(200, { status: 'none' });
        }
        if (!entry.referenceId) return json(200, checking(entry));
        const payment = await gateway.payments.get(entry.referenceId);
        await ledger.learn(entry, payment);
        return json(200, answerOf(payment, entry));
      },
    ],

    // An order being checked (its answer was lost): the page asks until the service's notification settles it.
    [
      'GET',
      /^\/api\/order\/(ORD-\d{1,12})$/,
      async (_request, [orderId], ctx) => {
        const entry = ledger.byOrder(orderId);
        // A saved card's order whose CVV post has not come: its ticket is spent first, so "none" stays true
        // (the ticket is taken and the order opened in one turn of the event loop: there is no gap between).
        if (!entry && ctx.owner) tickets.close(/** @type {string} */ (orderId), ctx.owner);
        if (!entry || !ctx.owner || entry.owner !== ctx.owner) throw refuse('not_found', 'No order of this checkout has this number.');
        if (!entry.referenceId) return json(200, checking(entry));
        const payment = await gateway.payments.get(entry.referenceId);
        await ledger.learn(entry, payment);
        return json(200, answerOf(payment, entry));
      },
    ],

    // The service posts every change of a payment here, with the Authorization value the shop set.
    ['POST', /^\/api\/notifications$/, async (request) => notification(request)],

    // A saved card, step 1: the page (with its checkout cookie) asks for a one-time ticket for this card.
    [
      'POST',
      /^\/api\/saved-card\/ticket$/,
      async (request, _params, ctx) => {
        const body = await readJson(request);
        onlyKeys(body, ['intent', 'email', 'savedCardId', 'browserInfo', 'locale']);
        const { savedCardId: id, ...rest } = body;
        const input = checkPayInput(rest);
        if (typeof id !== 'string') throw refuse('invalid_request', 'savedCardId must be the id of a saved card.');
        const account = accounts.accountOf(request);
        input.email = payerEmail(input.email, account);
        // A signed-in shopper's card is one of their account's; else one this browser saved under the email.
        const savedCardId = account
          ? (await accounts.cardsOf(account)).find((c) => c.id === id)?.id
          : await savedCardIdOf(shop, input.email, id, ctx.owner);
        if (!savedCardId) throw refuse('not_found', 'No saved card with this id for this email.');
        // A signed-in shopper in a browser that never paid here has no checkout cookie yet: it gets one now,
        // or the routes that answer what became of this payment would know no browser of it.
        const owner = ctx.owner ?? newOwner();
        const cookie = ctx.owner ? {} : { 'set-cookie': ownerCookie(owner) };
        const orderId = ledger.nextOrderId();
        const ticket = tickets.issue({
          owner,
          savedCardId,
          email: /** @type {string} */ (input.email),
          intent: input.intent,
          locale: input.locale,
          browserInfo: { ...input.browserInfo, ...(ctx.ip ? { ip: ctx.ip } : {}) },
          orderId,
        });
        // The order's number: should the payment's answer be lost, the page asks for this order. Its amount:
        // the page shows an approval from the CVV post's answer alone, with no read of the order after it.
        const { currency, total } = paymentOrder(order, orderId).amount;
        return json(200, { ticket, orderId, amount: { currency, total } }, cookie);
      },
    ],

    // Step 2: the CVV frame posts `{ ticket, savedCardId, cvv }` here. It sends no cookie; the ticket says
    // whose checkout this is. CORS answers the card frames' origin only. The CVV goes into the payment
    // call and nowhere else: never logged, never answered.
    ...savedCardPay(shop, tickets, startPayment),

    [
      'POST',
      /^\/api\/authenticate$/,
      async (request, _params, ctx) => {
        // The OTP may only finish a payment this browser started, with the session the service gave it.
        const body = await readJson(request);
        const entry = ownPayment(body['referenceId'], ctx.owner);
        if (entry.sessionId === undefined || body['sessionId'] !== entry.sessionId)
          throw refuse('not_found', 'This payment has no such session.');
        return authenticate(
          new Request(request.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
        );
      },
    ],

    // A payment of this checkout by its reference: what the page shows after a saved card's CVV post,
    // whose answer (through the CVV frame) is the payment's outcome alone.
    [
      'GET',
      /^\/api\/payment\/([\w.-]{1,128})$/,
      async (_request, [referenceId], ctx) => {
        const entry = ownPayment(referenceId, ctx.owner);
        const payment = await gateway.payments.get(/** @type {string} */ (referenceId));
        await ledger.learn(entry, payment);
        return json(200, answerOf(payment, entry));
      },
    ],

    [
      'GET',
      /^\/api\/session\/([0-9a-fA-F]{32})$/,
      async (_request, [sessionId], ctx) => {
        const entry = ledger.bySession(/** @type {string} */ (sessionId));
        // A session of the hosted page (its notification may have named the payment already).
        if (entry?.hostedPage) {
          if (entry.owner !== ctx.owner) throw refuse('not_found', 'No payment of this checkout has this reference.');
          return hostedReturn(entry, /** @type {string} */ (sessionId));
        }
        ownPayment(entry?.referenceId, ctx.owner);
        const payment = await gateway.payments.session(/** @type {string} */ (sessionId));
        await ledger.learn(/** @type {Entry} */ (entry), payment);
        const { status, state, code, text, referenceId } = readPayment(payment);
        return json(200, { status, state, code, text, referenceId, orderId: entry?.orderId, amount: entry?.amount });
      },
    ],

    [
      'GET',
      /^\/api\/saved-cards$/,
      async (request, _params, ctx) => {
        const typed = new URL(request.url).searchParams.get('email') ?? '';
        const account = accounts.accountOf(request);
        if (!account && !EMAIL.test(typed)) throw refuse('invalid_request', 'Enter a valid email address.');
        const email = payerEmail(typed || undefined, account);
        // A signed-in shopper's: every card of their account, the default first.
        const cards = account ? await accounts.cardsOf(account) : await savedCards(shop, /** @type {string} */ (email), ctx.owner);
        return json(200, {
          cards: cards.map((c) => ({
            id: c.id,
            brand: c.type,
            bin: c.bin,
            last4: c.last4,
            expireMonth: c.expire_month,
            expireYear: c.expire_year,
            ...(account ? { isDefault: c.is_default === true } : {}),
          })),
        });
      },
    ],
  ];
}

/**
 * The payer's saved cards that they asked to keep ("save this card"), from this browser. The service
 * keeps every card that paid; the shop offers only those the payer agreed to, to the browser that
 * saved them. Another browser reads what an unknown email reads: none.
 * @param {Shop} shop @param {string} email @param {string | undefined} owner the checkout cookie
 */
export async function savedCards(shop, email, owner) {
  const ids = await savedCardIds(shop, email, owner);
  if (ids.size === 0) return [];
  const payer = await shop.gateway.payers.byEmail(email);
  return payer.funding_instrument.credit_cards.filter((card) => ids.has(card.id));
}

/**
 * The ids of the cards this browser saved under `email`, from the ledger (a first payment approved while
 * its answer was lost learns its card from the service here).
 * @param {Shop} shop @param {string} email @param {string | undefined} owner the checkout cookie
 */
async function savedCardIds(shop, email, owner) {
  const firsts = shop.ledger.savedFor(email, owner);
  // An order whose payment is not known yet (its answer lost) has no card to offer until it settles; a
  // read that fails offers that card next time rather than failing the payer's other cards.
  for (const entry of firsts.filter((e) => !e.savedCardId && e.referenceId)) {
    const payment = await shop.gateway.payments.get(entry.referenceId).catch(() => undefined);
    if (payment) await shop.ledger.learn(entry, payment);
  }
  return new Set(firsts.map((e) => e.savedCardId).filter(Boolean));
}

/**
 * The CVV route of a saved card, as `payframe/server`'s `handlers.cvv()` makes it (OPTIONS for the
 * preflight, POST for the CVV).
 * @param {Shop} shop @param {ReturnType<typeof createTickets>} tickets
 * @param {(input: PayInput, funding: import('payframe/server').PaymentFunding, owner: string, ip: string | undefined, orderId: string) => Promise<{ payment: import('payframe/server').Payment }>} startPayment
 * @returns {[string, RegExp, import('./http.mjs').Route][]}
 */
function savedCardPay(shop, tickets, startPayment) {
  const handler = shop.gateway.handlers.cvv({
    frameOrigin: shop.frameOrigin,
    handle: async ({ cvv, body }) => {
      onlyKeys(body, ['ticket', 'savedCardId']);
      const ticket = tickets.take(body['ticket']);
      if (!ticket) throw refuse('not_found', 'This payment has expired or was already sent: press pay again.');
      if (body['savedCardId'] !== ticket.savedCardId) throw refuse('invalid_request', 'This ticket is for another saved card.');
      const { intent, email, locale, browserInfo, orderId } = ticket;
      const funding = { card: { savedCardId: ticket.savedCardId, cvv }, storedCredential: /** @type {const} */ ({ kind: 'cardholder' }) };
      // The payment itself: the handler answers its outcome alone, and the page asks the shop for the rest.
      return (await startPayment({ intent, email, locale, browserInfo, saveCard: false }, funding, ticket.owner, undefined, orderId))
        .payment;
    },
  });
  const route = /^\/api\/saved-card\/pay$/;
  return [
    ['OPTIONS', route, handler],
    ['POST', route, handler],
  ];
}

/** @param {Shop} shop @param {string | undefined} email @param {string} cardId @param {string | undefined} owner */
async function savedCardIdOf(shop, email, cardId, owner) {
  if (!email) throw refuse('invalid_request', 'A saved card is paid with the email it was saved under.');
  // The ledger knows which cards this browser saved: no call to the service between Pay and the payment.
  // A card the service no longer keeps is refused by the payment itself.
  if (!(await savedCardIds(shop, email, owner)).has(cardId)) throw refuse('not_found', 'No saved card with this id for this email.');
  return cardId;
}

/**
 * The pay body: `{ intent, email?, name?, saveCard?, card: { nonce }, browserInfo?, locale? }`. Amount
 * and currency are not in it: they come from the shop's order. A saved card is not paid here: its CVV
 * never passes through the page (see the saved-card routes).
 * @param {Record<string, unknown>} body
 */
export function checkPay(body) {
  onlyKeys(body, ['intent', 'email', 'name', 'saveCard', 'card', 'browserInfo', 'locale', 'attempt']);
  const { card, attempt, ...rest } = body;
  const c = /** @type {Record<string, unknown>} */ (typeof card === 'object' && card !== null ? card : {});
  if (typeof c['nonce'] !== 'string' || Object.keys(c).length !== 1) throw refuse('invalid_request', 'card must be { nonce }.');
  if (attempt !== undefined && (typeof attempt !== 'string' || !ATTEMPT.test(attempt)))
    throw refuse('invalid_request', 'attempt must be a random UUID the page made.');
  return { ...checkPayInput(rest), nonce: c['nonce'], ...(attempt ? { attempt: /** @type {string} */ (attempt) } : {}) };
}

/**
 * What every payment of the checkout says besides its card.
 * @param {Record<string, unknown>} body @returns {PayInput}
 */
function checkPayInput(body) {
  const { intent, email, name, saveCard = false, browserInfo = {}, locale = 'en' } = body;
  if (intent !== 'auth' && intent !== 'sale') throw refuse('invalid_request', 'intent must be auth or sale.');
  if (email !== undefined && (typeof email !== 'string' || !EMAIL.test(email)))
    throw refuse('invalid_request', 'Enter a valid email address.');
  if (name !== undefined && (typeof name !== 'string' || name.length > 100))
    throw refuse('invalid_request', 'name must be text of at most 100 characters.');
  if (typeof saveCard !== 'boolean') throw refuse('invalid_request', 'saveCard must be true or false.');
  if (saveCard && !email) throw refuse('invalid_request', 'Enter your email to save the card: it finds the card next time.');
  if (typeof browserInfo !== 'object' || browserInfo === null || Array.isArray(browserInfo))
    throw refuse('invalid_request', 'browserInfo must be an object.');
  if (locale !== 'en' && locale !== 'ar') throw refuse('invalid_request', 'locale must be en or ar.');
  return {
    intent,
    saveCard,
    locale,
    email: /** @type {string | undefined} */ (email),
    name: /** @type {string | undefined} */ (name),
    browserInfo: /** @type {import('payframe/server').BrowserInfo} */ (browserInfo),
  };
}
