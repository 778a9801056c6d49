// The back office's routes: the payments of this run, retrieve, capture, void, refund, a
// merchant-initiated charge of a saved card, and payer and card lookups.
import { isPayframeError, readPayment } from 'payframe/server';
import { totals } from './ledger.mjs';
import { errorAnswer, json, onlyKeys, readJson, refuse } from './http.mjs';
import { decimalsOf, fromMinor, money, toMinor } from './money.mjs';

/**
 * @typedef {import('./ledger.mjs').Entry} Entry
 * @typedef {import('./checkout.mjs').Shop} Shop
 * @typedef {import('payframe/server').Payment} Payment
 */

/** @param {Shop} shop @returns {[string, RegExp, import('./http.mjs').Route][]} */
export function backOfficeRoutes(shop) {
  const { gateway, ledger } = shop;

  /** A payment of this run, as its row in the back office, with the service's record (none yet for an order being checked). @param {Entry} entry */
  const fresh = async (entry) => {
    if (!entry.referenceId) return { payment: row(entry, undefined), record: undefined };
    const record = await gateway.payments.get(entry.referenceId);
    await ledger.learn(entry, record);
    return { payment: row(entry, record), record };
  };

  /** @param {string} id */
  const entryOf = (id) => {
    const entry = ledger.get(id);
    if (!entry) throw refuse('not_found', `${id} is not a payment of this run.`);
    return entry;
  };

  /**
   * Runs an action on a payment; a refusal of the service is explained with what the ledger knows,
   * and answered with the payment as it is now (its state may have moved, e.g. to cancelled).
   * @param {string} id @param {(entry: Entry) => Promise<unknown>} act @param {(entry: Entry, record: Payment) => string} done
   */
  const action = async (id, act, done) => {
    const entry = entryOf(id);
    try {
      await act(entry);
    } catch (error) {
      const now = await fresh(entry).catch(() => undefined);
      const answer = errorAnswer(error, (e) => explain(e, entry, now?.record));
      if (!now) return answer;
      const body = await answer.json();
      return json(answer.status, { ...body, ...now });
    }
    const now = await fresh(entry);
    return json(200, { message: done(entry, now.record), ...now });
  };

  /**
   * The amount of a capture, refund or charge body, as typed in the back office: a decimal with at
   * most the currency's decimals. Omitted (when allowed) means the whole remaining amount.
   * @param {Request} request @param {string} currency @param {boolean} required
   */
  const amountOf = async (request, currency, required) => {
    const body = await readJson(request);
    onlyKeys(body, ['amount']);
    const amount = typeof body['amount'] === 'string' ? body['amount'].trim() : body['amount'];
    if (amount === undefined || amount === '') {
      if (required) throw refuse('invalid_request', 'Enter an amount.');
      return undefined;
    }
    const decimals = decimalsOf(currency);
    const pattern = new RegExp(`^(0|[1-9]\\d{0,11})${decimals > 0 ? `(\\.\\d{1,${decimals}})?` : ''}$`);
    if (typeof amount !== 'string' || !pattern.test(amount) || toMinor(amount, currency) <= 0) {
      throw refuse(
        'invalid_request',
        `Enter an amount above zero such as ${fromMinor(5 * 10 ** decimals, currency)}: ${currency} has ${decimals} decimals.`,
      );
    }
    return amount;
  };

  return [
    [
      'GET',
      /^\/api\/payments$/,
      async () => {
        const rows = await Promise.all(
          ledger.all().map((entry) =>
            fresh(entry).then(
              ({ payment }) => payment,
              (error) => row(entry, undefined, error),
            ),
          ),
        );
        return json(200, { payments: rows });
      },
    ],

    // Each notification of the service as it arrived, with the order it settled: newest first.
    ['GET', /^\/api\/notifications$/, async () => json(200, { notifications: ledger.notices() })],

    [
      'GET',
      /^\/api\/payments\/([^/]+)$/,
      async (_request, [id]) => {
        const entry = ledger.get(id);
        if (entry) return json(200, await fresh(entry));
        // Any id the service knows (a capture or refund record too): shown, not acted on.
        return json(200, { payment: null, record: await gateway.payments.get(/** @type {string} */ (id)) });
      },
    ],

    [
      'POST',
      /^\/api\/payments\/([^/]+)\/capture$/,
      async (request, [id]) => {
        const amount = await amountOf(request, entryOf(/** @type {string} */ (id)).amount.currency, false);
        return action(
          /** @type {string} */ (id),
          async (entry) => {
            const record = await gateway.payments.capture(
              entry.referenceId,
              amount ? { amount: { currency: entry.amount.currency, total: amount } } : {},
            );
            await ledger.noteAction(entry, 'captures', {
              id: record.id,
              total: record.transaction?.amount?.total ?? amount ?? entry.amount.total,
              at: record.create_time,
            });
          },
          (entry) => {
            const { total, captured } = totals(entry, 'captured');
            const { currency } = entry.amount;
            return captured < total
              ? `Captured ${money(captured, currency)} of ${money(total, currency)}; the rest of the hold is released.`
              : `Captured ${money(captured, currency)}.`;
          },
        );
      },
    ],

    [
      'POST',
      /^\/api\/payments\/([^/]+)\/void$/,
      async (request, [id]) => {
        onlyKeys(await readJson(request), []);
        return action(
          /** @type {string} */ (id),
          async (entry) => {
            const record = await gateway.payments.void(entry.referenceId);
            await ledger.noteAction(entry, 'voids', { id: record.id, total: entry.amount.total, at: record.create_time });
          },
          (entry) => `Voided: the hold of ${entry.amount.currency} ${entry.amount.total} is released.`,
        );
      },
    ],

    [
      'POST',
      /^\/api\/payments\/([^/]+)\/refund$/,
      async (request, [id]) => {
        const amount = await amountOf(request, entryOf(/** @type {string} */ (id)).amount.currency, false);
        return action(
          /** @type {string} */ (id),
          async (entry) => {
            const record = await gateway.payments.refund(
              entry.referenceId,
              amount ? { amount: { currency: entry.amount.currency, total: amount } } : {},
            );
            await ledger.noteAction(entry, 'refunds', {
              id: record.id,
              total: record.transaction?.amount?.total ?? amount ?? '0',
              at: record.create_time,
            });
          },
          (entry, record) => {
            const { captured, refunded } = totals(entry, record.state);
            const { currency } = entry.amount;
            const last = /** @type {import('./ledger.mjs').Action} */ (entry.refunds.at(-1));
            return refunded < captured
              ? `Refunded ${currency} ${last.total}; ${money(captured - refunded, currency)} is left to refund.`
              : `Refunded ${currency} ${last.total}; the payment is now refunded in full.`;
          },
        );
      },
    ],

    [
      'POST',
      /^\/api\/payments\/([^/]+)\/charge$/,
      async (request, [id]) => {
        const first = entryOf(/** @type {string} */ (id));
        const total = /** @type {string} */ (await amountOf(request, first.amount.currency, true));
        if (!first.saveCard) throw refuse('conflict', 'The payer did not ask to keep this card: it cannot be charged again.');
        if (!first.savedCardId) await ledger.learn(first, await gateway.payments.get(first.referenceId));
        if (!first.savedCardId) throw refuse('conflict', 'This payment was not approved, so no card was kept.');
        const orderId = ledger.nextOrderId();
        const amount = { currency: first.amount.currency, total };
        // Kept before it is sent: if the answer is lost, the notification settles this order.
        const entry = await ledger.open({
          orderId,
          kind: 'merchant-initiated',
          intent: 'sale',
          amount,
          saveCard: false,
          previousPaymentId: first.referenceId,
          ...(first.email ? { email: first.email } : {}),
        });
        const payment = await gateway.payments
          .create({
            intent: 'sale',
            amount,
            card: { savedCardId: first.savedCardId },
            storedCredential: { kind: 'unscheduled', previousPaymentId: first.referenceId },
            ...(first.email ? { payer: { email: first.email } } : {}),
            description: `Merchant-initiated charge ${orderId} on the card kept by ${first.referenceId}`,
            invoiceNumber: orderId,
          })
          .catch(async (/** @type {unknown} */ error) => {
            if (!isPayframeError(error) || error.code !== 'outcome_unknown') await ledger.drop(entry);
            throw error;
          });
        await ledger.attach(entry, payment.reference_id);
        const outcome = readPayment(payment);
        const message =
          outcome.status === 'approved'
            ? `Charged ${amount.currency} ${amount.total} on the saved card (${entry.referenceId}).`
            : `The charge was declined: ${outcome.text ?? outcome.code}.`;
        return json(200, { message, payment: row(entry, payment), record: payment });
      },
    ],

    [
      'GET',
      /^\/api\/payers$/,
      async (request) => {
        const email = new URL(request.url).searchParams.get('email') ?? '';
        return json(200, payerView(shop, await gateway.payers.byEmail(email)));
      },
    ],

    [
      'GET',
      /^\/api\/payers\/([^/]+)$/,
      async (_request, [payerId]) => json(200, payerView(shop, await gateway.payers.byId(/** @type {string} */ (payerId)))),
    ],

    [
      'GET',
      /^\/api\/payers\/([^/]+)\/cards\/([^/]+)$/,
      async (_request, [payerId, cardId]) =>
        json(200, { card: await gateway.payers.card(/** @type {string} */ (payerId), /** @type {string} */ (cardId)) }),
    ],
  ];
}

/**
 * A payment as the back office lists it. `state` is the service's (it moves by itself: an
 * authorisation left seven days is cancelled); the amounts are the ledger's.
 * @param {Entry} entry @param {Payment | undefined} record @param {unknown} [error]
 */
function row(entry, record, error) {
  const state = record?.state ?? null;
  const { currency } = entry.amount;
  const { captured, refunded } = totals(entry, state ?? 'pending');
  const card = record?.payer?.funding_instrument?.credit_card;
  return {
    referenceId: entry.referenceId || null,
    orderId: entry.orderId,
    // Sent, its answer lost: the service's notification tells how it ended.
    checking: !entry.referenceId,
    kind: entry.kind,
    intent: entry.intent,
    state,
    result: record ? { code: record.result.code, text: record.result.description ?? record.result.message ?? '' } : null,
    amount: entry.amount,
    captured: fromMinor(captured, currency),
    refunded: fromMinor(refunded, currency),
    card: card ? { type: card.type ?? '', bin: card.bin ?? '', last4: card.last4 ?? '' } : null,
    email: entry.email ?? null,
    createdAt: entry.createdAt,
    savedCard: entry.saveCard && entry.savedCardId ? entry.savedCardId : null,
    previousPaymentId: entry.previousPaymentId ?? null,
    history: [
      ...entry.captures.map((a) => ({ kind: 'capture', ...a })),
      ...entry.voids.map((a) => ({ kind: 'void', ...a })),
      ...entry.refunds.map((a) => ({ kind: 'refund', ...a })),
    ],
    ...(error ? { error: isPayframeError(error) ? error.message : 'The service did not answer.' } : {}),
  };
}

/**
 * What the person in the back office needs to read in a refusal: the service's reason, with the
 * amounts the shop knows.
 * @param {import('payframe/server').PayframeError} error @param {Entry} entry @param {Payment | undefined} record
 */
function explain(error, entry, record) {
  const { currency } = entry.amount;
  const { total, captured, refunded } = totals(entry, record?.state ?? 'captured');
  switch (error.reason) {
    case 'AUTHORISATION_EXPIRED':
      return 'Refused: this authorisation is more than seven days old, so the bank has cancelled it. It can no longer be captured or voided.';
    case 'ALREADY_CAPTURED':
      return 'Refused: this payment is captured already.';
    case 'CAPTURE_EXCEEDS_AMOUNT':
      return `Refused: a capture cannot be above the authorised ${money(total, currency)}.`;
    case 'VOID_NOT_ALLOWED':
      return `Refused: only an authorisation that is not captured can be voided; this payment is ${record?.state ?? 'not one'}.`;
    case 'REFUND_EXCEEDS_AMOUNT':
      return `Refused: only ${money(captured - refunded, currency)} is left to refund (${money(captured, currency)} captured, ${money(refunded, currency)} refunded).`;
    case 'ALREADY_REFUNDED':
      return 'Refused: this payment is refunded in full already.';
    default:
      return error.code === 'invalid_request' ? `Refused: ${error.message}` : undefined;
  }
}

/** A payer and their cards, each marked when the payer asked the shop to keep it. @param {Shop} shop @param {import('payframe/server').PayerRecord} record */
function payerView(shop, record) {
  const kept = new Set(
    shop.ledger
      .all()
      .map((e) => (e.saveCard ? e.savedCardId : undefined))
      .filter(Boolean),
  );
  const info = record.payer_info;
  return {
    payer: { id: info.id ?? '', email: info.email ?? '', name: info.name ?? '' },
    cards: record.funding_instrument.credit_cards.map((c) => ({
      id: c.id,
      type: c.type ?? '',
      bin: c.bin,
      last4: c.last4,
      expireMonth: c.expire_month ?? null,
      expireYear: c.expire_year ?? null,
      isDefault: c.is_default ?? false,
      savedWithConsent: kept.has(c.id),
    })),
  };
}
