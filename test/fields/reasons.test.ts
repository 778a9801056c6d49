// Why a field is not valid (`FieldState.reason`), from what a person types, and the merchant's brands.
import { describe, expect, it } from 'vitest';
import { checkField, DEFAULT_BRANDS, readBrands } from '../../src/fields';
import { luhn } from '../../src/card/luhn';
import { formCard } from '../../src/nonce/form-card';
import type { FieldName } from '../../src/shared/names';
import { PayframeError } from '../../src/shared/errors';

const lastYear = String((new Date().getFullYear() - 1) % 100).padStart(2, '0');

describe('each reason, from a real input', () => {
  it.each([
    ['number', '', 'empty'],
    ['expiry', '', 'empty'],
    ['cvv', '', 'empty'],
    ['name', '   ', 'empty'],
    ['number', '4111 1111', 'incomplete'],
    ['expiry', '12 / 3', 'incomplete'],
    ['cvv', '12', 'incomplete'],
    // Mastercard has 16 digits: a wrong check digit cannot be fixed by typing on.
    ['number', '5555 5555 5555 4445', 'invalid'],
    ['number', '1234', 'invalid'], // no brand starts so
    ['expiry', '13 / 30', 'invalid'], // no thirteenth month
    ['expiry', '12 / 60', 'invalid'], // more than nineteen years ahead: a typo
    ['name', 'Ada 3', 'invalid'],
    ['expiry', `12 / ${lastYear}`, 'expired'],
    ['expiry', '01 / 2020', 'expired'],
    ['expiry', '01 / 20', 'expired'], // read as 2020, though 20 may still become 2030
    ['expiry', '12 / 1', 'expired'], // 201x, whatever comes next
    ['number', '3530 1113 3330 0000', 'unsupported_brand'], // JCB
    ['number', '35', 'unsupported_brand'], // as soon as the brand is known: only JCB starts 35
    ['number', '6200 0000 0000 0005', 'unsupported_brand'], // UnionPay
    ['number', '30', 'unsupported_brand'], // only Diners Club starts 30
  ] as const)('%s %j: %s', (name, value, reason) => {
    const check = checkField(name, value, [3]);
    expect(check.reason).toBe(reason);
    expect(check.isValid).toBe(false);
    // An unwanted brand shows as invalid at once, as what cannot become valid does.
    if (reason === 'unsupported_brand') expect(check.isPotentiallyValid).toBe(false);
  });

  it('a valid field has no reason', () => {
    expect(checkField('number', '4111 1111 1111 1111')).toEqual({ isValid: true, isPotentiallyValid: true });
    expect(checkField('expiry', '12 / 34')).toEqual({ isValid: true, isPotentiallyValid: true });
  });

  it('a typo reads as a typo once the person leaves the field: a complete length, a wrong check digit', () => {
    // A Visa may have 19 digits: while the person types, 16 with a wrong check digit may still become valid.
    expect(checkField('number', '4111 1111 1111 1112', [3], DEFAULT_BRANDS, true)).toEqual({
      isValid: false,
      isPotentiallyValid: true,
      reason: 'incomplete',
    });
    // Left there, it is one mistyped digit, not a missing one.
    expect(checkField('number', '4111 1111 1111 1112', [3], DEFAULT_BRANDS, false)).toEqual({
      isValid: false,
      isPotentiallyValid: false,
      reason: 'invalid',
    });
    expect(checkField('number', '6011 1111 1111 1118').reason).toBe('invalid'); // Discover, 16 of up to 19
    // Short of every length of its brand, it is still incomplete; typed on to 19 digits it is valid.
    expect(checkField('number', '4111 1111 1111 111').reason).toBe('incomplete');
    expect(checkField('number', '4111 1111 1111 1112 001')).toEqual({ isValid: true, isPotentiallyValid: true });
    expect(checkField('number', '4111 1111 1111 1112 000').reason).toBe('invalid');
  });

  it('a number of an allowed brand still being typed is incomplete, not unsupported', () => {
    expect(checkField('number', '6').reason).toBe('incomplete'); // may still be Discover
    expect(checkField('number', '3').reason).toBe('incomplete'); // may still be American Express
    expect(checkField('number', '34').reason).toBe('incomplete');
  });
});

describe('the brands option', () => {
  it('defaults to the four brands the service documents', () => {
    expect(DEFAULT_BRANDS).toEqual(['visa', 'mastercard', 'american-express', 'discover']);
    expect(readBrands(undefined)).toBe(DEFAULT_BRANDS);
    for (const number of ['4111 1111 1111 1111', '5555 5555 5555 4444', '3782 822463 10005', '6011 1111 1111 1117'])
      expect(checkField('number', number).isValid).toBe(true);
  });

  it('takes the merchant list: JCB taken, Visa refused', () => {
    const brands = readBrands(['jcb', 'mastercard']);
    expect(brands).toEqual(['jcb', 'mastercard']);
    expect(checkField('number', '3530 1113 3330 0000', [3], brands as never)).toEqual({ isValid: true, isPotentiallyValid: true });
    expect(checkField('number', '4111 1111 1111 1111', [3], brands as never).reason).toBe('unsupported_brand');
    expect(checkField('number', '4', [3], brands as never).reason).toBe('unsupported_brand'); // 4 is Visa or Elo
  });

  it('refuses no number that may still become a brand taken: an Elo card typed where Elo is taken and Maestro is not', () => {
    const brands = readBrands(['elo', 'visa']) as never;
    // 50 is Maestro (decided) until 506699 makes it Elo; 65 is Discover until 650405 makes it Elo.
    for (const partial of ['50', '506', '5066', '50669', '65', '650', '6504', '65040'])
      expect(checkField('number', partial, [3], brands)).toEqual({ isValid: false, isPotentiallyValid: true, reason: 'incomplete' });
    // Whole numbers are their decided brand: Maestro's and Discover's refused, Elo's taken.
    const whole = (prefix: string) => {
      const body = prefix.padEnd(15, '0');
      const check = [...Array(10).keys()].find((d) => luhn(`${body}${d}`))!;
      return `${body}${check}`;
    };
    expect(checkField('number', whole('5000'), [3], brands).reason).toBe('unsupported_brand');
    expect(checkField('number', whole('6011'), [3], brands).reason).toBe('unsupported_brand');
    expect(checkField('number', whole('506699'), [3], brands)).toEqual({ isValid: true, isPotentiallyValid: true });
    expect(checkField('number', whole('650405'), [3], brands)).toEqual({ isValid: true, isPotentiallyValid: true });
    expect(() => formCard({ number: whole('5000'), expiry: '12 / 34', cvv: '123' }, ['number', 'expiry', 'cvv'], [3], brands)).toThrow(
      expect.objectContaining({ code: 'invalid_card', reasons: { number: 'unsupported_brand' } }),
    );
  });

  it.each([
    ['a string', 'visa'],
    ['an empty list', []],
    ['an unknown id', ['visa', 'amex']],
    ['a service code', ['VISA']],
    ['not text', [1]],
  ])('refuses %s, naming the valid ids', (_, given) => {
    const refused = readBrands(given);
    expect(typeof refused).toBe('string');
    expect(refused).toContain('visa, mastercard, american-express, diners-club, discover, jcb, unionpay, maestro');
  });
});

describe('invalid_card carries each field its reason', () => {
  const fields: FieldName[] = ['number', 'expiry', 'cvv'];
  const refusal = (values: Partial<Record<FieldName, string>>, brands?: never) => {
    try {
      formCard(values, fields, [3], brands);
    } catch (error) {
      return error as PayframeError;
    }
    throw new Error('expected a refusal');
  };

  it('an unwanted brand is refused before anything is sent, and says so', () => {
    const error = refusal({ number: '3530 1113 3330 0000', expiry: '12 / 34', cvv: '123' });
    expect(error).toBeInstanceOf(PayframeError);
    expect(error).toMatchObject({ code: 'invalid_card', fields: ['number'], reasons: { number: 'unsupported_brand' } });
    expect(error.toJSON().reasons).toEqual({ number: 'unsupported_brand' });
  });

  it('names each refused field and why', () => {
    expect(refusal({ number: '4111 1111', expiry: '01 / 2020', cvv: '' }).reasons).toEqual({
      number: 'incomplete',
      expiry: 'expired',
      cvv: 'empty',
    });
  });

  it('takes a brand the merchant names', () => {
    const card = formCard({ number: '3530 1113 3330 0000', expiry: '12 / 34', cvv: '123' }, fields, [3], ['jcb']);
    expect(card.brand).toBe('jcb');
  });
});
