import { describe, expect, test } from 'vitest';
import { luhn, validateCvv, validateNumber } from '../../src/card';
import { broken, cards, withCheckDigit } from './helpers';

const all = Object.entries(cards).flatMap(([id, numbers]) => numbers.map((n) => [id, n] as const));

describe('luhn', () => {
  test('known numbers pass and their twins fail', () => {
    for (const [, n] of all) {
      expect(luhn(n), n).toBe(true);
      expect(luhn(broken(n)), broken(n)).toBe(false);
    }
  });
  test.each(['', ' ', '4111 1111 1111 1111', '0x10', '-0', 'a'])('%j is false', (s) => expect(luhn(s)).toBe(false));
});

describe('validateNumber', () => {
  test.each(all)('%s %s is valid, its Luhn-broken twin is not (unless the brand has no check digit)', (id, n) => {
    const ok = validateNumber(n);
    expect(ok).toMatchObject({ isValid: true, isPotentiallyValid: true });
    expect(ok.brand?.id).toBe(id);
    const twin = validateNumber(broken(n));
    expect(twin.isValid).toBe(id === 'unionpay');
    expect(twin.brand?.id).toBe(id);
  });

  test('a broken twin at a length below the brand maximum may still grow into a valid number', () => {
    expect(validateNumber(broken('4111111111111111'))).toMatchObject({ isValid: false, isPotentiallyValid: true });
    expect(validateNumber(broken('5555555555554444'))).toMatchObject({ isValid: false, isPotentiallyValid: false });
    expect(validateNumber(broken('378282246310005'))).toMatchObject({ isValid: false, isPotentiallyValid: false });
    expect(validateNumber(broken(cards.visa![4]!))).toMatchObject({ isValid: false, isPotentiallyValid: false });
  });

  test.each([
    '4111-1111-1111-1111',
    '4111 1111 1111 1111',
    '4111-1111 1111 1111',
    ' 4111111111111111 ',
    '4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1',
    '--4111--1111--1111--1111--',
  ])('separators: %j', (s) => {
    expect(validateNumber(s)).toMatchObject({ isValid: true, isPotentiallyValid: true });
    expect(validateNumber(s).brand?.id).toBe('visa');
  });

  test.each([
    '4111.1111.1111.1111',
    '4111_1111_1111_1111',
    '4111\t1111 1111 1111',
    '4111\u00a01111\u00a01111\u00a01111',
    '4111111111111111a',
    '٤١١١١١١١١١١١١١١١',
    '４１１１１１１１１１１１１１１１',
    '+4111111111111111',
    '4111111111111111\n',
  ])('other characters make it neither valid nor potentially valid: %j', (s) => {
    expect(validateNumber(s)).toEqual({ brand: undefined, isValid: false, isPotentiallyValid: false });
  });

  test.each([
    ['', true],
    ['   ', true],
    ['4', true],
    ['41', true],
    ['411111111111111', true], // 15 digits: too short for Visa, still growing
    ['41111111111111111', true], // 17: not a Visa length, 18 and 19 still ahead
    ['4111111111111111111', false], // 19 digits failing Luhn: nowhere left to go
    ['41111111111111111111', false], // 20 digits
    ['34', true],
    ['3782822463100050', false], // 16 digits of Amex
    ['9', false],
    ['7', false],
    ['818', false],
    ['0000000000000000', false],
  ])('potentially valid %j -> %s', (s, pv) => {
    const r = validateNumber(s);
    expect(r.isPotentiallyValid).toBe(pv);
    expect(r.isValid).toBe(false);
  });

  test('lengths follow the brand', () => {
    expect(validateNumber(withCheckDigit('411111111111')).isValid).toBe(false); // 13-digit Visa: not listed
    expect(validateNumber(withCheckDigit('41111111111111111')).isValid).toBe(true); // 18
    expect(validateNumber(withCheckDigit('60110000000000000')).isValid).toBe(false); // 18-digit Discover
    expect(validateNumber(withCheckDigit('601100000000000000')).isValid).toBe(true); // 19-digit Discover
    expect(validateNumber(withCheckDigit('67590000000')).isValid).toBe(true); // 12-digit Maestro
    expect(validateNumber(withCheckDigit('3056930902590')).isValid).toBe(true); // 14-digit Diners
    expect(validateNumber(withCheckDigit('305693090259000000')).isValid).toBe(true); // 19-digit Diners
    expect(validateNumber(withCheckDigit('30569309025900')).isValid).toBe(false); // 15-digit Diners
  });

  test('UnionPay numbers need no check digit, and other brands do', () => {
    expect(validateNumber('6200000000000006').isValid).toBe(true);
    expect(validateNumber('62000000000006').isValid).toBe(true); // 14 digits
    expect(validateNumber('4111111111111112').isValid).toBe(false);
  });

  test('numbers of no known brand are never valid, even with a good check digit', () => {
    for (const prefix of ['9', '7', '0', '818']) {
      expect(validateNumber(withCheckDigit(prefix.padEnd(15, '0')))).toEqual({
        brand: undefined,
        isValid: false,
        isPotentiallyValid: false,
      });
    }
  });
});

describe('validateCvv', () => {
  test.each([
    ['123', 3, true, true],
    ['12', 3, false, true],
    ['', 3, false, true],
    ['1234', 3, false, false],
    ['1234', 4, true, true],
    ['123', 4, false, true],
    ['123', [3, 4], true, true],
    ['1234', [3, 4], true, true],
    ['12345', [3, 4], false, false],
    ['12a', 3, false, false],
    [' 123', 3, false, false],
    ['１２３', 3, false, false],
    ['-12', 3, false, false],
    ['000', 3, true, true],
  ] as const)('%j size %j -> valid %s, potentially %s', (value, size, isValid, isPotentiallyValid) => {
    expect(validateCvv(value, size as number | number[])).toEqual({ isValid, isPotentiallyValid });
  });

  test('the default size is 3, and an Amex CID is 4', () => {
    expect(validateCvv('123').isValid).toBe(true);
    expect(validateCvv('1234').isValid).toBe(false);
    const amex = validateNumber('378282246310005').brand!;
    expect(validateCvv('1234', amex.code.size).isValid).toBe(true);
    expect(validateCvv('123', amex.code.size)).toEqual({ isValid: false, isPotentiallyValid: true });
  });

  test('nonsense sizes validate nothing', () => {
    expect(validateCvv('123', [])).toEqual({ isValid: false, isPotentiallyValid: false });
    expect(validateCvv('123', NaN)).toEqual({ isValid: false, isPotentiallyValid: false });
    expect(validateCvv('', null as never)).toEqual({ isValid: false, isPotentiallyValid: false });
  });
});
