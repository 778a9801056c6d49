import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  amountProblem,
  AuthenticateRequestSchema,
  minorUnits,
  CaptureRequestSchema,
  fromMinor,
  NonceRequestSchema,
  PaymentRequestSchema,
  toMinor,
} from '../../src/schemas';

const base = {
  intent: 'sale',
  payer: { payment_type: 'CC', funding_instrument: { credit_card_nonce: { nonce: '3b241101-e2bb-4255-8caf-4136c566a962' } } },
  transaction: { amount: { currency: 'USD', total: '10.00' } },
};
const issues = (schema: v.GenericSchema, value: unknown) => {
  const r = v.safeParse(schema, value);
  return r.success ? [] : r.issues.map((i) => i.message);
};
/** Where a value is refused: the dot path of each issue, so that a test says which field is at fault. */
const refusedAt = (schema: v.GenericSchema, value: unknown) => {
  const r = v.safeParse(schema, value);
  return r.success ? [] : [...new Set(r.issues.map((i) => v.getDotPath(i)))];
};

describe('request schemas are strict', () => {
  it('accepts each of the three funding forms', () => {
    const card = { credit_card: { number: '4111111111111111', expire_month: '04', expire_year: 2034, cvv2: '123', stored: true } };
    const vault = { credit_card_token: { credit_card_id: 'CARD-1', cvv2: '123' } };
    for (const fi of [base.payer.funding_instrument, card, vault]) {
      expect(issues(PaymentRequestSchema, { ...base, payer: { ...base.payer, funding_instrument: fi } })).toEqual([]);
    }
  });

  it('refuses two funding forms at once, unknown fields and a wrong payment type', () => {
    const both = { credit_card_token: { credit_card_id: 'C' }, credit_card_nonce: { nonce: '3b241101-e2bb-4255-8caf-4136c566a962' } };
    expect(issues(PaymentRequestSchema, { ...base, payer: { ...base.payer, funding_instrument: both } })).toEqual([
      'funding_instrument must hold exactly one of credit_card, credit_card_token, credit_card_nonce',
    ]);
    expect(refusedAt(PaymentRequestSchema, { ...base, surprise: 1 })).toEqual(['surprise']);
    expect(refusedAt(PaymentRequestSchema, { ...base, payer: { ...base.payer, payment_type: 'PP' } })).toEqual(['payer.payment_type']);
  });

  it('checks the amount against the minor units of its currency', () => {
    const withAmount = (currency: string, total: string) => ({ ...base, transaction: { amount: { currency, total } } });
    expect(issues(PaymentRequestSchema, withAmount('OMR', '1.250'))).toEqual([]);
    expect(issues(PaymentRequestSchema, withAmount('JPY', '1000'))).toEqual([]);
    expect(issues(PaymentRequestSchema, withAmount('USD', '1.250'))[0]).toMatch(/3 decimals; USD allows 2/);
    expect(issues(PaymentRequestSchema, withAmount('JPY', '10.5'))[0]).toMatch(/total has 1 decimal; JPY allows 0/);
    expect(issues(PaymentRequestSchema, withAmount('usd', '1.00')).join()).toMatch(
      /currency must be a three-letter upper-case ISO 4217 code/,
    );
    expect(issues(PaymentRequestSchema, withAmount('usd', '1.00')).join()).not.toMatch(/total currency/);
    for (const bad of ['-1.00', '', '1e3', '01.00', ' 1.00']) {
      expect(issues(PaymentRequestSchema, withAmount('USD', bad)), bad).toContain(
        'total must be a positive decimal string such as "10.00"',
      );
    }
    for (const zero of ['0', '0.00'])
      expect(issues(PaymentRequestSchema, withAmount('USD', zero)), zero).toEqual(['total must be above zero']);
  });

  it('accepts browser_info and refuses a browser_info field it does not know', () => {
    const info = {
      color_depth: 24,
      java_enabled: false,
      javascript_enabled: true,
      language: 'en',
      screen_height: '800',
      screen_width: '1200',
      timezone_offset: -60,
      user_agent: 'UA',
      channel: 'Web',
    };
    expect(issues(PaymentRequestSchema, { ...base, payer: { ...base.payer, browser_info: info } })).toEqual([]);
    expect(refusedAt(PaymentRequestSchema, { ...base, payer: { ...base.payer, browser_info: { ...info, gpu: 'x' } } })).toEqual([
      'payer.browser_info.gpu',
    ]);
  });

  it('refuses an array where a free object goes, and numbers that are not finite', () => {
    expect(issues(PaymentRequestSchema, { ...base, custom: { order: 7 }, metadata: {} })).toEqual([]);
    expect(issues(PaymentRequestSchema, { ...base, custom: [1, 2] })).toEqual(['must be an object, not an array']);
    expect(refusedAt(PaymentRequestSchema, { ...base, metadata: [] })).toEqual(['metadata']);
    expect(refusedAt(PaymentRequestSchema, { ...base, capture_delay: Number.POSITIVE_INFINITY })).toEqual(['capture_delay']);
    expect(issues(PaymentRequestSchema, { ...base, capture_delay: 24 })).toEqual([]);
  });

  it('takes only http(s) return and cancel URLs', () => {
    const withUrls = (return_url: string) => ({ ...base, transaction: { ...base.transaction, return_url, cancel_url: return_url } });
    expect(issues(PaymentRequestSchema, withUrls('https://shop.example/done?order=7'))).toEqual([]);
    for (const bad of ['javascript:alert(1)', 'data:text/html,hi', '/relative', 'ftp://shop.example/']) {
      expect(refusedAt(PaymentRequestSchema, withUrls(bad)), bad).toEqual(['transaction.return_url', 'transaction.cancel_url']);
    }
  });

  it('checks the nonce request fields', () => {
    const ok = { number: '4111111111111111', expire_month: 12, expire_year: 2034, cvv2: '123' };
    expect(issues(NonceRequestSchema, ok)).toEqual([]);
    expect(refusedAt(NonceRequestSchema, { ...ok, expire_month: 13 })).toEqual(['expire_month']);
    expect(refusedAt(NonceRequestSchema, { ...ok, expire_year: 34 })).toEqual(['expire_year']);
    expect(issues(NonceRequestSchema, { ...ok, number: '4111 1111 1111 1111' })).toEqual(['number must be 12 to 19 digits']);
    expect(issues(NonceRequestSchema, { ...ok, cvv2: '12' })).toEqual(['cvv2 must be 3 or 4 digits']);
  });

  it('checks capture and authenticate bodies', () => {
    expect(issues(CaptureRequestSchema, {})).toEqual([]);
    expect(refusedAt(CaptureRequestSchema, { amount: 5 })).toEqual(['amount']);
    expect(issues(AuthenticateRequestSchema, { reference_id: 'PAY-1', otp: '111111' })).toEqual([]);
    expect(issues(AuthenticateRequestSchema, { reference_id: 'PAY-1', otp: 'abc' })).toEqual(['otp must be 4 to 8 digits']);
  });
});

describe('amounts', () => {
  it('converts to and from minor units', () => {
    expect(toMinor('12.5', 'EUR')).toBe(1250);
    expect(toMinor('1.005', 'KWD')).toBe(1005);
    expect(toMinor('500', 'JPY')).toBe(500);
    expect(fromMinor(1250, 'EUR')).toBe('12.50');
    expect(fromMinor(5, 'BHD')).toBe('0.005');
    expect(fromMinor(500, 'KRW')).toBe('500');
  });

  it('names the problem with an amount', () => {
    expect(amountProblem(10.5, 'USD')).toMatch(/decimal string/);
    expect(amountProblem('10.50', 'usd')).toMatch(/currency/);
    expect(amountProblem('10.50', 'USD')).toBeUndefined();
  });

  it('follows the ISO 4217 exponent of each currency: 0, 2, 3 or 4', () => {
    const cases = [
      ['ISK', 0, '1500'],
      ['XOF', 0, '250'],
      ['UYI', 0, '7'],
      ['EUR', 2, '1.25'],
      ['MGA', 2, '1.25'],
      ['IQD', 3, '1.250'],
      ['TND', 3, '0.005'],
      ['CLF', 4, '1.2345'],
      ['UYW', 4, '0.0001'],
    ] as const;
    for (const [currency, units, ok] of cases) {
      expect(minorUnits(currency), currency).toBe(units);
      expect(amountProblem(ok, currency), currency).toBeUndefined();
      // Five decimals are no amount at all (the pattern stops at four); fewer name the currency's limit.
      expect(amountProblem(`1.${'1'.repeat(units + 1)}`, currency), currency).toMatch(
        units === 4 ? /decimal string/ : new RegExp(`${currency} allows ${units}`),
      );
      expect(fromMinor(toMinor(ok, currency), currency), currency).toBe(
        units === 0 ? ok : `${ok.split('.')[0]}.${ok.split('.')[1]!.padEnd(units, '0')}`,
      );
    }
    expect(toMinor('1.2345', 'CLF')).toBe(12345);
  });

  it('caps an amount at 12 digits before the point, 11 for a 4-decimal currency (minor units stay exact)', () => {
    expect(amountProblem('999999999999.999', 'KWD')).toBeUndefined();
    expect(amountProblem('1000000000000', 'JPY')).toMatch(/decimal string/);
    expect(amountProblem('99999999999.9999', 'CLF')).toBeUndefined();
    expect(amountProblem('100000000000', 'CLF')).toMatch(/too large/);
  });
});
