import { describe, expect, test } from 'vitest';
import { validateExpiry } from '../../src/card';

const now = new Date(2026, 10, 15, 12, 0); // 15 November 2026, local time

describe('validateExpiry', () => {
  test.each([
    ['12/30', 12, 2030],
    ['12 / 30', 12, 2030],
    ['12 / 2030', 12, 2030],
    ['12/2030', 12, 2030],
    ['1230', 12, 2030],
    ['122030', 12, 2030],
    ['1/30', 1, 2030],
    ['1/2030', 1, 2030],
    ['01-30', 1, 2030],
    ['3-2031', 3, 2031],
    ['  05 /  28 ', 5, 2028],
    ['530', 5, 2030], // a first digit 2-9 is a whole month
    ['130', 1, 2030], // '1' followed by 3-9 is January
    ['11/26', 11, 2026], // this month: valid through its end
    ['11/45', 11, 2045], // nineteen years ahead
    ['12/2045', 12, 2045],
    ['12 30', 12, 2030], // a space separates as well as a slash
    ['1 2030', 1, 2030],
    ['2030-12', 12, 2030], // what <input type="month"> gives
    ['2030-1', 1, 2030],
    [' 2027-01 ', 1, 2027],
    ['12030', 1, 2030], // M + YYYY: the only reading that can be a date
    ['130', 1, 2030],
  ])('%j is valid: %i/%i', (value, month, year) => {
    expect(validateExpiry(value, now)).toEqual({ isValid: true, isPotentiallyValid: true, month, year });
  });

  test.each([
    ['10/26', { month: 10, year: 2026, isExpired: true }], // last month
    ['10/2026', { month: 10, year: 2026, isExpired: true }],
    ['12/25', { month: 12, year: 2025, isExpired: true }],
    ['01/46', { month: 1, year: 2046 }], // more than nineteen years ahead: a typo, not expired
    ['12/2050', { month: 12, year: 2050 }],
    ['2026-10', { month: 10, year: 2026, isExpired: true }],
    ['12/19', { month: 12, year: 2019, isExpired: true }],
    ['12 / 1', { month: 12, isExpired: true }], // 201x at the latest
    ['12 / 201', { month: 12, isExpired: true }],
    ['12 / 209', { month: 12 }], // 209x: too far ahead
  ])('%j is invalid and cannot become valid', (value, parts) => {
    expect(validateExpiry(value, now)).toEqual({ isValid: false, isPotentiallyValid: false, ...parts });
  });

  test.each([
    ['', undefined],
    ['1', undefined],
    ['0', undefined],
    ['12', 12],
    ['12/', 12],
    ['12 / ', 12],
    ['12/2', 12],
    ['12/20', 12], // 2020 is past, but 2026-2029 are still ahead as four digits
    ['12/202', 12],
    ['2', 2],
    ['02', 2],
    ['1/', 1],
    ['11/2', 11],
    ['13', 1], // January of a year starting with 3
    ['12 ', 12],
    ['1 2', 1],
    ['/', undefined], // nothing typed yet but the separator
    [' / ', undefined],
    ['1202', 1], // 12/02 is past; 1/202x is still ahead
  ])('%j is potentially valid, not valid', (value, month) => {
    const r = validateExpiry(value, now);
    expect(r.isValid).toBe(false);
    expect(r.isPotentiallyValid).toBe(true);
    expect(r.month).toBe(month);
  });

  test.each([
    '00',
    '13/30',
    '0/30',
    '00/30',
    '12/1',
    '12/0',
    '10/1',
    '12/203x',
    'ab',
    '12//30',
    '12/30/1',
    '/30',
    '1230301',
    '12/20301',
    '12.30',
    '１２/３０',
    '12/30a',
    '2030-13',
    '2030-00',
    '2030-',
    '12  30  1',
  ])('%j is neither', (value) => {
    const r = validateExpiry(value, now);
    expect(r.isValid).toBe(false);
    expect(r.isPotentiallyValid).toBe(false);
  });

  test('a card is valid through the last moment of its month, in local time', () => {
    const lastMoment = new Date(2026, 10, 30, 23, 59, 59, 999);
    const nextMonth = new Date(2026, 11, 1, 0, 0, 0, 0);
    expect(validateExpiry('11/26', lastMoment).isValid).toBe(true);
    expect(validateExpiry('11/26', nextMonth).isValid).toBe(false);
    expect(validateExpiry('12/26', nextMonth).isValid).toBe(true);
    expect(validateExpiry('12/26', new Date(2027, 0, 1)).isValid).toBe(false);
    expect(validateExpiry('01/27', new Date(2027, 0, 31, 23, 59)).isValid).toBe(true);
  });

  test('nineteen years ahead is counted in years, as card-validator counts them', () => {
    expect(validateExpiry('12/45', now).isValid).toBe(true);
    expect(validateExpiry('01/46', now).isValid).toBe(false);
    expect(validateExpiry('12/4', now).isPotentiallyValid).toBe(true); // 2040-2045 left
    expect(validateExpiry('12/5', now).isPotentiallyValid).toBe(false);
  });

  test('a value that reads two ways is judged by the reading that can be valid; the month is the two-digit one otherwise', () => {
    expect(validateExpiry('1230', now)).toMatchObject({ isValid: true, month: 12, year: 2030 }); // not 1/230
    expect(validateExpiry('12030', now)).toMatchObject({ isValid: true, month: 1, year: 2030 }); // not 12/030
    expect(validateExpiry('127', now)).toMatchObject({ isValid: true, month: 1, year: 2027 }); // 12/7_ is too far
    expect(validateExpiry('122', now)).toMatchObject({ isValid: false, isPotentiallyValid: true, month: 12 });
  });

  test('a partial year that cannot reach the window is refused as soon as it is typed', () => {
    expect(validateExpiry('12/1', now).isPotentiallyValid).toBe(false);
    expect(validateExpiry('12/3', now).isPotentiallyValid).toBe(true);
    expect(validateExpiry('12/21', now).isPotentiallyValid).toBe(false); // 2021 is past, 21xx too far
  });

  test('parts: numbers or strings, as a form with two fields gives them', () => {
    expect(validateExpiry({ month: 12, year: 2030 }, now)).toEqual({ isValid: true, isPotentiallyValid: true, month: 12, year: 2030 });
    expect(validateExpiry({ month: '1', year: '30' }, now)).toEqual({ isValid: true, isPotentiallyValid: true, month: 1, year: 2030 });
    expect(validateExpiry({ month: '01', year: 30 }, now)).toMatchObject({ isValid: true, year: 2030 });
    expect(validateExpiry({ month: 11, year: 2026 }, now).isValid).toBe(true);
    expect(validateExpiry({ month: 10, year: 2026 }, now).isValid).toBe(false);
    expect(validateExpiry({ month: 13, year: 2030 }, now).isPotentiallyValid).toBe(false);
    expect(validateExpiry({ month: 0, year: 2030 }, now).isPotentiallyValid).toBe(false);
    expect(validateExpiry({ month: 1.5, year: 2030 }, now).isPotentiallyValid).toBe(false);
    expect(validateExpiry({ month: -1, year: 2030 }, now).isPotentiallyValid).toBe(false);
    expect(validateExpiry({ month: 12, year: 203 }, now).isPotentiallyValid).toBe(false);
    expect(validateExpiry({ month: '', year: '' }, now)).toEqual({ isValid: false, isPotentiallyValid: true });
    expect(validateExpiry({ month: 12, year: '' }, now)).toMatchObject({ isValid: false, isPotentiallyValid: true, month: 12 });
    expect(validateExpiry({ month: 12, year: 30 }, now)).toMatchObject({ isValid: true, month: 12, year: 2030 });
    expect(validateExpiry({ month: new String('12') as never, year: new String('2030') as never }, now).isValid).toBe(true);
  });

  test('text as a String object is text', () => {
    expect(validateExpiry(new String('12/30') as never, now)).toMatchObject({ isValid: true, month: 12, year: 2030 });
  });

  test('the default clock is now', () => {
    const year = new Date().getFullYear();
    expect(validateExpiry(`12/${year + 1}`).isValid).toBe(true);
    expect(validateExpiry(`12/${year - 1}`).isValid).toBe(false);
    expect(validateExpiry('12/30', new Date(NaN)).isValid).toBe(validateExpiry('12/30').isValid);
  });
});
