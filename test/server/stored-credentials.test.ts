import { beforeAll, describe, expect, it } from 'vitest';
import { isApproved, readSavedCard, type Payment } from '../../src/server';
import { CVV, EUR, fullCard, nonceFor, refusal, testCards, useSandbox } from './helpers';

// Every row of the stored-credential table of the interface document's 4.3: what the sandbox received, and that it accepted it.
const ctx = useSandbox();
let first: Payment;
let previousPaymentId: string;
let savedCardId: string;

/** The body of the last payment request the sandbox received (card number and CVV masked by the sandbox). */
function lastPaymentBody() {
  const sent = ctx.sandbox
    .requests()
    .filter((r) => r.method === 'POST' && r.path.endsWith('/payment'))
    .at(-1);
  return sent?.body as Record<string, any>;
}

beforeAll(async () => {
  first = await ctx.gateway.payments.create({
    intent: 'sale',
    amount: EUR('9.99'),
    card: { ...fullCard(testCards.approved), name: 'Sub Scriber' },
    storedCredential: { kind: 'first', subscription: true },
    payer: { email: `first-${Date.now()}@example.com` },
  });
  ({ previousPaymentId, savedCardId } = readSavedCard(first) as { previousPaymentId: string; savedCardId: string });
});

describe("stored credentials (the interface document's 4.3)", () => {
  it('first payment of a subscription: cardholder-started, type "2", full card not yet stored', () => {
    expect(isApproved(first)).toBe(true);
    expect(savedCardId).toMatch(/\S/);
    const body = lastPaymentBody();
    expect(body.merchant_initiated).toBe(false);
    expect(body.previous_payment_id).toBeUndefined();
    expect(body.transaction.type).toBe('2');
    expect(body.payer.funding_instrument.credit_card).toMatchObject({ number: '****1111', cvv2: '***', name: 'Sub Scriber' });
    expect(body.payer.funding_instrument.credit_card.stored).toBeUndefined();
  });

  it('first payment of a card to keep, paid by a nonce, no subscription: a regular payment, type "1"', async () => {
    const nonce = await nonceFor(ctx, testCards.approved);
    const payment = await ctx.gateway.payments.create({
      intent: 'auth',
      amount: EUR('1.00'),
      card: { nonce },
      storedCredential: { kind: 'first' },
    });
    expect(isApproved(payment)).toBe(true);
    const body = lastPaymentBody();
    expect(body.merchant_initiated).toBe(false);
    expect(body.transaction.type).toBe('1');
    expect(body.payer.funding_instrument).toEqual({ credit_card_nonce: { nonce } });
  });

  it('scheduled, merchant keeps the card: merchant_initiated, previous id, type "2", stored, no CVV needed', async () => {
    const { cvv: _, ...noCvv } = fullCard(testCards.approved);
    const payment = await ctx.gateway.payments.create({
      intent: 'sale',
      amount: EUR('9.99'),
      card: noCvv,
      storedCredential: { kind: 'scheduled', previousPaymentId },
    });
    expect(isApproved(payment)).toBe(true);
    const body = lastPaymentBody();
    expect(body).toMatchObject({ merchant_initiated: true, previous_payment_id: previousPaymentId, transaction: { type: '2' } });
    expect(body.payer.funding_instrument.credit_card).toMatchObject({ number: '****1111', stored: true });
    expect(body.payer.funding_instrument.credit_card.cvv2).toBeUndefined();
  });

  it('scheduled on the saved card', async () => {
    const payment = await ctx.gateway.payments.create({
      intent: 'sale',
      amount: EUR('9.99'),
      card: { savedCardId },
      storedCredential: { kind: 'scheduled', previousPaymentId },
    });
    expect(isApproved(payment)).toBe(true);
    const body = lastPaymentBody();
    expect(body).toMatchObject({ merchant_initiated: true, previous_payment_id: previousPaymentId, transaction: { type: '2' } });
    expect(body.payer.funding_instrument).toEqual({ credit_card_token: { credit_card_id: savedCardId } });
  });

  it('unscheduled on the saved card and on a saved card: type "1"', async () => {
    const onVault = await ctx.gateway.payments.create({
      intent: 'auth',
      amount: EUR('3.10'),
      card: { savedCardId },
      storedCredential: { kind: 'unscheduled', previousPaymentId },
    });
    expect(isApproved(onVault)).toBe(true);
    expect(lastPaymentBody()).toMatchObject({
      merchant_initiated: true,
      previous_payment_id: previousPaymentId,
      transaction: { type: '1' },
    });

    const onKept = await ctx.gateway.payments.create({
      intent: 'auth',
      amount: EUR('3.20'),
      card: fullCard(testCards.approved),
      storedCredential: { kind: 'unscheduled', previousPaymentId },
    });
    expect(isApproved(onKept)).toBe(true);
    const body = lastPaymentBody();
    expect(body).toMatchObject({ merchant_initiated: true, transaction: { type: '1' } });
    expect(body.payer.funding_instrument.credit_card.stored).toBe(true);
  });

  it('cardholder-started with a saved card: stored, CVV entered again', async () => {
    const payment = await ctx.gateway.payments.create({
      intent: 'sale',
      amount: EUR('12.00'),
      card: fullCard(testCards.approved, CVV),
      storedCredential: { kind: 'cardholder' },
    });
    expect(isApproved(payment)).toBe(true);
    const body = lastPaymentBody();
    expect(body.merchant_initiated).toBe(false);
    expect(body.previous_payment_id).toBeUndefined();
    expect(body.payer.funding_instrument.credit_card).toMatchObject({ stored: true, cvv2: '***' });
  });

  it('cardholder-started with the saved card: CVV in credit_card_token', async () => {
    for (const storedCredential of [{ kind: 'cardholder' as const }, undefined]) {
      const payment = await ctx.gateway.payments.create({
        intent: 'auth',
        amount: EUR('2.00'),
        card: { savedCardId, cvv: CVV },
        storedCredential,
      });
      expect(isApproved(payment)).toBe(true);
      const body = lastPaymentBody();
      expect(body.merchant_initiated).toBe(false);
      expect(body.payer.funding_instrument).toEqual({ credit_card_token: { credit_card_id: savedCardId, cvv2: '***' } });
    }
  });

  it('lets the service refuse a previous payment id it does not know', async () => {
    const error = await refusal(
      ctx.gateway.payments.create({
        intent: 'sale',
        amount: EUR('1.00'),
        card: { savedCardId },
        storedCredential: { kind: 'scheduled', previousPaymentId: 'PAY-NOPE' },
      }),
      'invalid_request',
    );
    expect(error).toMatchObject({ status: 400, reason: 'INVALID_STORED_CREDENTIAL' });
  });
});
