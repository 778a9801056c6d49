import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  CardListSchema,
  ClientTokenSchema,
  ErrorBodySchema,
  NonceResponseSchema,
  PaymentSchema,
  PayerRecordSchema,
  ReducedRecordSchema,
} from '../../src/schemas';

const now = '2026-11-21T10:00:00.000Z';
const payment = (over: Record<string, unknown> = {}) => ({
  id: 'PAY-1',
  reference_id: 'PAY-1',
  state: 'authorised',
  result: { code: '0000', description: 'Approved', authorisation_code: '123456' },
  intent: 'AUTH',
  create_time: now,
  ...over,
});

describe('response schemas accept the variance the spec names', () => {
  it('reads the intent in any letter case as lower case', () => {
    for (const intent of ['AUTH', 'Auth', 'auth']) expect(v.parse(PaymentSchema, payment({ intent })).intent).toBe('auth');
    for (const intent of ['SALE', 'Sale']) expect(v.parse(PaymentSchema, payment({ intent })).intent).toBe('sale');
    expect(v.safeParse(PaymentSchema, payment({ intent: 'refund' })).success).toBe(false);
  });

  it('accepts a result with description or message', () => {
    expect(v.parse(PaymentSchema, payment()).result.description).toBe('Approved');
    const withMessage = payment({ result: { code: '0000', message: 'Approved' } });
    expect(v.parse(PaymentSchema, withMessage).result.message).toBe('Approved');
  });

  it('reads expire_month as an integer or a two-digit string, transaction.type as integer or string', () => {
    const card = (expire_month: unknown) => ({ funding_instrument: { credit_card: { expire_month, expire_year: 2030, last4: '1111' } } });
    expect(v.parse(PaymentSchema, payment({ payer: card('04') })).payer?.funding_instrument?.credit_card?.expire_month).toBe(4);
    expect(v.parse(PaymentSchema, payment({ payer: card(4) })).payer?.funding_instrument?.credit_card?.expire_month).toBe(4);
    expect(v.safeParse(PaymentSchema, payment({ payer: card('13') })).success).toBe(false);
    expect(v.parse(PaymentSchema, payment({ transaction: { type: '2' } })).transaction?.type).toBe(2);
    expect(v.parse(PaymentSchema, payment({ transaction: { type: 1 } })).transaction?.type).toBe(1);
  });

  it('reads tangible as a boolean from a string or boolean, country codes as upper case', () => {
    const items = [
      { name: 'a', tangible: 'true' },
      { name: 'b', tangible: false },
    ];
    const parsed = v.parse(
      PaymentSchema,
      payment({
        transaction: { items },
        payer: { payer_info: { billing_address: { country_code: 'om' } } },
      }),
    );
    expect(parsed.transaction?.items?.map((i) => i.tangible)).toEqual([true, false]);
    expect(parsed.payer?.payer_info?.billing_address?.country_code).toBe('OM');
  });

  it('keeps unknown fields', () => {
    const parsed = v.parse(PaymentSchema, payment({ brand_new: { x: 1 } }));
    expect((parsed as Record<string, unknown>).brand_new).toEqual({ x: 1 });
  });

  it('refuses a state it does not know and a missing id', () => {
    expect(v.safeParse(PaymentSchema, payment({ state: 'exploded' })).success).toBe(false);
    const { id: _, ...noId } = payment();
    expect(v.safeParse(PaymentSchema, noId).success).toBe(false);
  });

  it('parses the reduced capture record, the client token, the nonce and the error body', () => {
    const capture = {
      id: 'CAP-1',
      reference_id: 'PAY-1',
      state: 'captured',
      result: { code: '0000', message: 'Approved' },
      transaction: { amount: { currency: 'OMR', total: '1.500' }, mode: 'TEST', invoice_number: 'INV-1' },
      create_time: now,
      chargeback: 'N',
    };
    expect(v.parse(ReducedRecordSchema, capture).chargeback).toBe('N');
    expect(v.parse(ClientTokenSchema, { accessToken: 'abc', tokenType: 'Bearer', expiresOn: now, issuedOn: now }).accessToken).toBe('abc');
    const nonce = {
      data: {
        brand_code: 'VISA',
        credit_card_nonce: '3b241101-e2bb-4255-8caf-4136c566a962',
        last4: '1111',
        type: 'Visa',
        expire_month: '12',
        expire_year: '2034',
        expires_on: now,
        issued_on: now,
      },
    };
    expect(v.parse(NonceResponseSchema, nonce).data).toMatchObject({ expire_month: 12, expire_year: 2034 });
    expect(v.safeParse(ErrorBodySchema, { code: '4095', name: 'REFUND_EXCEEDS_AMOUNT', message: 'm', eventId: 'e' }).success).toBe(true);
    expect(v.safeParse(ErrorBodySchema, { message: 'm' }).success).toBe(false);
  });

  it('parses the payer lookup and card list shapes with bin_data', () => {
    const card = {
      id: 'CARD-1',
      type: 'Visa',
      expire_month: 12,
      expire_year: 2034,
      last4: '1111',
      bin: '411111',
      is_default: true,
      bin_data: {
        bin: '411111',
        country_code: 'US',
        country_name: 'United States',
        bank_name: 'Bank',
        card_scheme: 'VISA',
        card_type: 'CREDIT',
        card_category: 'CLASSIC',
      },
    };
    const payer = { payer_info: { id: 'P-1', email: 'a@b.co', name: 'A' }, funding_instrument: { credit_cards: [card] } };
    expect(v.parse(PayerRecordSchema, payer).funding_instrument.credit_cards[0]?.bin_data?.card_scheme).toBe('VISA');
    expect(v.parse(CardListSchema, { count: 1, credit_cards: [card] }).count).toBe(1);
    expect(v.safeParse(CardListSchema, { count: 1, credit_cards: [{ ...card, last4: undefined }] }).success).toBe(false);
  });
});
