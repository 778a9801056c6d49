import { describe, expect, it } from 'vitest';
import { createGateway, isApproved, readSavedCard, readPayment, type Payment } from '../../src/server';
import { CVV, EUR, fullCard, nonceFor, refusal, testCards, useSandbox } from './helpers';

// The vault beyond lookups through payframe/server: payers.removeCard, payers.update, payers.setDefaultCard, payments.verify.
const ctx = useSandbox();
const mastercard = { ...testCards.approved, number: '5555555555554444' };
const amex = { ...testCards.approved, number: '378282246310005' };
let n = 0;

/** A payer (a fresh email) with these cards kept by payments, the first the default; its id and card ids. */
async function payerWith(cards = [testCards.approved, mastercard, amex]) {
  const email = `vault-${++n}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const ids: string[] = [];
  let payerId = '';
  for (const card of cards) {
    const payment = await ctx.gateway.payments.create({
      intent: 'auth',
      amount: EUR('5.00'),
      card: fullCard(card),
      payer: { email, name: 'Ada Lovelace' },
    });
    payerId = payment.payer!.payer_info!.id!;
    ids.push(readSavedCard(payment).savedCardId!);
  }
  return { payerId, ids, email };
}
const cardIds = async (payerId: string) => (await ctx.gateway.payers.cards(payerId)).credit_cards.map((c) => [c.id, c.is_default]);
const sent = () => ctx.sandbox.requests().length;
const lastSent = () => ctx.sandbox.requests().at(-1)!;

describe('payers.removeCard', () => {
  it('removes the card ("DONE" read as done): it can pay no more, cardholder- or merchant-started', async () => {
    const { payerId, ids } = await payerWith();
    await expect(ctx.gateway.payers.removeCard(payerId, ids[0]!)).resolves.toBeUndefined();
    expect(lastSent()).toMatchObject({
      method: 'DELETE',
      path: `/v1/merchants/${ctx.sandbox.merchant.id}/payer/${payerId}/card/${ids[0]}`,
    });
    // The default was removed: the oldest card left is the default now.
    expect(await cardIds(payerId)).toEqual([
      [ids[1], true],
      [ids[2], false],
    ]);

    const cardholder = await refusal(
      ctx.gateway.payments.create({ intent: 'sale', amount: EUR('1.00'), card: { savedCardId: ids[0]!, cvv: CVV } }),
      'not_found',
    );
    expect(cardholder.status).toBe(404);
    const first = await ctx.gateway.payments.create({
      intent: 'sale',
      amount: EUR('1.00'),
      card: fullCard(testCards.approved),
      storedCredential: { kind: 'first' },
    });
    await refusal(
      ctx.gateway.payments.create({
        intent: 'sale',
        amount: EUR('1.00'),
        card: { savedCardId: ids[0]! },
        storedCredential: { kind: 'unscheduled', previousPaymentId: first.reference_id },
      }),
      'not_found',
    );
    await refusal(ctx.gateway.payers.removeCard(payerId, ids[0]!), 'not_found');
  });
});

describe('payers.update and payers.setDefaultCard', () => {
  it("a default chosen comes first in the payer's cards; name and email change", async () => {
    const { payerId, ids } = await payerWith();
    await expect(
      ctx.gateway.payers.update(payerId, { defaultCard: ids[2]!, name: 'Ada King', email: `king-${Date.now()}@example.com` }),
    ).resolves.toBeUndefined();
    expect(lastSent()).toMatchObject({ method: 'PUT', body: { default_card: ids[2], name: 'Ada King' } });
    expect(await cardIds(payerId)).toEqual([
      [ids[2], true],
      [ids[0], false],
      [ids[1], false],
    ]);
    expect((await ctx.gateway.payers.byId(payerId)).payer_info.name).toBe('Ada King');
  });

  it('setDefaultCard reads the payer and sends its own email and name with the card', async () => {
    const { payerId, ids, email } = await payerWith();
    await ctx.gateway.payers.setDefaultCard(payerId, ids[1]!);
    expect(lastSent()).toMatchObject({ method: 'PUT', body: { email, name: 'Ada Lovelace', default_card: ids[1] } });
    expect(await cardIds(payerId)).toEqual([
      [ids[1], true],
      [ids[0], false],
      [ids[2], false],
    ]);
  });

  it("another payer's card ids get nothing: not_found, nothing sent to change it, nothing changed", async () => {
    const a = await payerWith([testCards.approved, mastercard]);
    const b = await payerWith([amex]);
    const before = sent();
    await refusal(ctx.gateway.payers.setDefaultCard(b.payerId, a.ids[1]!), 'not_found');
    expect(
      ctx.sandbox
        .requests()
        .slice(before)
        .map((r) => r.method),
    ).toEqual(['GET']);
    await refusal(ctx.gateway.payers.update(b.payerId, { defaultCard: a.ids[1]! }), 'not_found');
    await refusal(ctx.gateway.payers.removeCard(b.payerId, a.ids[0]!), 'not_found');
    expect(await cardIds(a.payerId)).toEqual([
      [a.ids[0], true],
      [a.ids[1], false],
    ]);
    expect(await cardIds(b.payerId)).toEqual([[b.ids[0], true]]);
  });
});

describe('payments.verify', () => {
  it('keeps a card without charging it; it pays later with its CVV, and as a merchant-started payment', async () => {
    const email = `verify-${Date.now()}@example.com`;
    const nonce = await nonceFor(ctx, testCards.approved);
    const verification: Payment = await ctx.gateway.payments.verify({ card: { nonce }, currency: 'EUR', payer: { email } });
    expect(lastSent().body).toMatchObject({
      intent: 'auth',
      merchant_initiated: false,
      transaction: { type: '1', amount: { currency: 'EUR', total: '0.00' } },
    });
    expect(isApproved(verification)).toBe(true);
    expect(readPayment(verification)).toMatchObject({ status: 'approved', state: 'voided', code: '0000' });
    expect(verification.transaction?.amount?.total).toBe('0.00');
    const { savedCardId, previousPaymentId } = readSavedCard(verification);
    const payerId = verification.payer!.payer_info!.id!;
    expect((await ctx.gateway.payers.cards(payerId)).credit_cards.map((c) => c.id)).toEqual([savedCardId]);

    const later = await ctx.gateway.payments.create({
      intent: 'sale',
      amount: EUR('12.00'),
      card: { savedCardId: savedCardId!, cvv: CVV },
    });
    expect(readPayment(later)).toMatchObject({ status: 'approved', state: 'captured' });
    const renewal = await ctx.gateway.payments.create({
      intent: 'sale',
      amount: EUR('12.00'),
      card: { savedCardId: savedCardId! },
      storedCredential: { kind: 'scheduled', previousPaymentId },
    });
    expect(readPayment(renewal)).toMatchObject({ status: 'approved', state: 'captured' });
    expect(lastSent().body).toMatchObject({
      merchant_initiated: true,
      previous_payment_id: verification.reference_id,
      transaction: { type: '2' },
    });
  });

  it('a declined card is returned, not thrown; zero in the currency\'s own precision; a subscription is type "2"; a saved card again with its CVV', async () => {
    const declined = await ctx.gateway.payments.verify({ card: fullCard(testCards.declined), currency: 'EUR' });
    expect(readPayment(declined)).toMatchObject({ status: 'declined', code: '1005' });
    await ctx.gateway.payments.verify({ card: fullCard(testCards.approved), currency: 'JPY', subscription: true });
    expect(lastSent().body).toMatchObject({ transaction: { type: '2', amount: { currency: 'JPY', total: '0' } } });
    await ctx.gateway.payments.verify({ card: fullCard(testCards.approved), currency: 'OMR' });
    expect(lastSent().body).toMatchObject({ transaction: { amount: { total: '0.000' } } });
    const { ids } = await payerWith([testCards.approved]);
    const again = await ctx.gateway.payments.verify({ card: { savedCardId: ids[0]!, cvv: CVV }, currency: 'EUR' });
    expect(readPayment(again).status).toBe('approved');
    expect(lastSent().body).toMatchObject({
      payer: { funding_instrument: { credit_card_token: { credit_card_id: ids[0], cvv2: '***' } } },
    });
  });
});

describe('validation before any request', () => {
  const refusals: [string, () => Promise<unknown>, RegExp][] = [
    ['removeCard: blank payer', () => ctx.gateway.payers.removeCard('', 'CARD-1'), /^payerId must be an id/],
    ['removeCard: .. card', () => ctx.gateway.payers.removeCard('PAYER-1', '..'), /^cardId must be an id/],
    ['update: nothing', () => ctx.gateway.payers.update('PAYER-1', {}), /at least one of email, name, defaultCard/],
    ['update: not an object', () => ctx.gateway.payers.update('PAYER-1', null as never), /^update must be an object/],
    ['update: bad email', () => ctx.gateway.payers.update('PAYER-1', { email: 'ada' }), /^email must be an email address/],
    ['update: name', () => ctx.gateway.payers.update('PAYER-1', { name: 7 as never }), /^name must be a string/],
    ['update: blank card', () => ctx.gateway.payers.update('PAYER-1', { defaultCard: ' ' }), /^defaultCard must be a card id/],
    [
      'update: unknown field',
      () => ctx.gateway.payers.update('PAYER-1', { default_card: 'CARD-1' } as never),
      /^update\.default_card is not a field/,
    ],
    ['update: blank payer', () => ctx.gateway.payers.update(' ', { name: 'x' }), /^payerId must be an id/],
    ['setDefaultCard: blank card', () => ctx.gateway.payers.setDefaultCard('PAYER-1', ''), /^cardId must be an id/],
    ['verify: currency', () => ctx.gateway.payments.verify({ card: fullCard(testCards.approved), currency: 'eur' }), /^currency must be/],
    ['verify: no card', () => ctx.gateway.payments.verify({ currency: 'EUR' } as never), /^card must be exactly one of/],
    [
      'verify: saved card without CVV',
      () => ctx.gateway.payments.verify({ card: { savedCardId: 'CARD-1' }, currency: 'EUR' } as never),
      /needs the CVV/,
    ],
    [
      'verify: saved card as subscription',
      () => ctx.gateway.payments.verify({ card: { savedCardId: 'CARD-1', cvv: CVV }, currency: 'EUR', subscription: true }),
      /^subscription is for a new card/,
    ],
    [
      'verify: bad number',
      () => ctx.gateway.payments.verify({ card: { ...fullCard(testCards.approved), number: '4111111111111112' }, currency: 'EUR' }),
      /^card\.number/,
    ],
    [
      'verify: subscription type',
      () => ctx.gateway.payments.verify({ card: fullCard(testCards.approved), currency: 'EUR', subscription: 'yes' as never }),
      /^subscription must be/,
    ],
    [
      'verify: bad email',
      () => ctx.gateway.payments.verify({ card: fullCard(testCards.approved), currency: 'EUR', payer: { email: 'x' } }),
      /payer_info\.email/,
    ],
    [
      'create: zero stays refused',
      () => ctx.gateway.payments.create({ intent: 'auth', amount: EUR('0.00'), card: fullCard(testCards.approved) }),
      /^amount\.total must be above zero/,
    ],
  ];
  it.each(refusals)('%s: invalid_request naming the field, nothing sent', async (_, run, message) => {
    const before = sent();
    const error = await refusal(run, 'invalid_request');
    expect(error.message).toMatch(message);
    expect(sent()).toBe(before);
  });
});

describe('the "DONE" answers', () => {
  const path = /\/payer\//;
  it.each([
    ['a JSON string other than DONE', '"done"'],
    ['an object', '{"status":"DONE"}'],
    ['DONE, not JSON', 'DONE'],
    ['nothing', ''],
  ])('%s is invalid_response, with what arrived', async (_, body) => {
    const { payerId, ids } = await payerWith([testCards.approved]);
    ctx.sandbox.injectFault({ kind: 'reply', method: 'DELETE', path, body });
    const error = await refusal(ctx.gateway.payers.removeCard(payerId, ids[0]!), 'invalid_response');
    expect(error.status).toBe(200);
    ctx.sandbox.injectFault({ kind: 'reply', method: 'PUT', path, body });
    await refusal(ctx.gateway.payers.update(payerId, { name: 'x' }), 'invalid_response');
  });

  it('a failed DELETE or PUT is not repeated (no idempotency key); a refusal keeps its reason', async () => {
    const { payerId, ids } = await payerWith([testCards.approved]);
    const before = sent();
    ctx.sandbox.injectFault({ kind: 'error', method: 'DELETE', path });
    await refusal(ctx.gateway.payers.removeCard(payerId, ids[0]!), 'server_error');
    expect(sent() - before).toBe(1);
    expect(await cardIds(payerId)).toEqual([[ids[0], true]]);
    const unauthorized = createGateway({ ...ctx.options, clientSecret: 'wrong' });
    const error = await refusal(unauthorized.payers.removeCard(payerId, ids[0]!), 'unauthorized');
    expect(error).toMatchObject({ status: 401, reason: 'UNAUTHORIZED' });
  });
});
