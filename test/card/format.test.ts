import { describe, expect, test } from 'vitest';
import { formatExpiry, formatInput, formatNumber } from '../../src/card';

describe('formatNumber', () => {
  test.each([
    ['', ''],
    ['4', '4'],
    ['4111', '4111'],
    ['41111', '4111 1'],
    ['4111111111111111', '4111 1111 1111 1111'],
    ['4111-1111 1111-1111', '4111 1111 1111 1111'],
    ['  4111  1111 ', '4111 1111'],
    ['4111111111111111111', '4111 1111 1111 1111 111'], // 19-digit Visa
    ['41111111111111111119999', '4111 1111 1111 1111 111'], // never more than the brand's longest
    ['378282246310005', '3782 822463 10005'], // Amex 4-6-5
    ['3782822463100059999', '3782 822463 10005'],
    ['37828', '3782 8'],
    ['30569309025904', '3056 930902 5904'], // Diners 4-6-4
    ['5555555555554444', '5555 5555 5555 4444'],
    ['55555555555544449', '5555 5555 5555 4444'], // Mastercard is 16 at most
    ['6200000000000000000', '6200 0000 0000 0000 000'],
    ['99999999999999999999999', '9999 9999 9999 9999 999'], // unknown: 4-4-4-4-3, 19 at most
    ['4111 abc 1111', '4111 1111'],
    ['💳4111', '4111'],
  ])('%j -> %j', (value, expected) => {
    expect(formatNumber(value)).toBe(expected);
  });
});

describe('formatExpiry', () => {
  test.each([
    ['', ''],
    ['1', '1'],
    ['0', '0'],
    ['2', '02 / '],
    ['9', '09 / '],
    ['12', '12 / '],
    ['10', '10 / '],
    ['13', '01 / 3'],
    ['122', '12 / 2'],
    ['1230', '12 / 30'],
    ['122030', '12 / 2030'],
    ['1220301', '12 / 2030'],
    ['1/', '01 / '],
    ['1/3', '01 / 3'],
    ['1/2030', '01 / 2030'],
    ['12/30', '12 / 30'],
    ['12 / 30', '12 / 30'],
    ['12-30', '12 / 30'],
    ['12 / ', '12 / '],
    ['0/', '0'],
    ['/12', '12 / '],
  ])('%j -> %j', (value, expected) => {
    expect(formatExpiry(value)).toBe(expected);
  });

  test('formatting is stable: a formatted value formats to itself', () => {
    for (const v of ['1', '02 / ', '12 / 2', '12 / 2030', '01 / 3']) expect(formatExpiry(v)).toBe(v);
  });
});

/** Puts the caret where '|' is, runs formatInput, and draws the caret back in. */
function edit(kind: 'number' | 'expiry', value: string, extra: { previous?: string; inputType?: string } = {}) {
  const caret = value.indexOf('|');
  const out = formatInput({ value: value.replace('|', ''), caret, ...extra }, kind);
  return out.value.slice(0, out.caret) + '|' + out.value.slice(out.caret);
}

describe('formatInput', () => {
  test('typing at the end', () => {
    expect(edit('number', '4|')).toBe('4|');
    expect(edit('number', '41111|')).toBe('4111 1|');
    expect(edit('number', '4111 11111|')).toBe('4111 1111 1|');
    expect(edit('expiry', '1|')).toBe('1|');
    expect(edit('expiry', '2|')).toBe('02 / |');
    expect(edit('expiry', '12|')).toBe('12 / |');
    expect(edit('expiry', '12 / 2|')).toBe('12 / 2|');
    expect(edit('expiry', '1/|')).toBe('01 / |');
  });

  test('typing in the middle keeps the caret after the typed digit', () => {
    expect(edit('number', '41119| 1111 1111')).toBe('4111 9|111 1111 1');
    expect(edit('number', '419|11 1111')).toBe('419|1 1111 1');
    expect(edit('number', '4111 1111 1111 11119|')).toBe('4111 1111 1111 1111 9|');
    expect(edit('expiry', '1|2 / 30')).toBe('1|2 / 30');
    expect(edit('expiry', '12 / 3|0')).toBe('12 / 3|0');
    // A third month digit cannot fit: the digits flow on into the year, caret still after the typed one.
    expect(edit('expiry', '132| / 30')).toBe('01 / 32|30');
    // Deleting a month digit lets the year's digits flow back into the month.
    expect(edit('expiry', '0| / 30', { previous: '01 / 30' })).toBe('0|3 / 0');
  });

  test('a brand change regroups and keeps the caret by digits', () => {
    // Typing '3' in front of '7828224631' makes it Amex (4-6-5)
    expect(edit('number', '3|7828224631')).toBe('3|782 822463 1');
    expect(edit('number', '378282|2463 1000 5')).toBe('3782 82|2463 10005');
  });

  test('backspace right after a space removes the digit before it', () => {
    expect(edit('number', '4111|1', { previous: '4111 1' })).toBe('411|1');
    expect(edit('number', '4111|1', { previous: '4111 1', inputType: 'deleteContentBackward' })).toBe('411|1');
    expect(edit('number', '4111 1111|1111', { previous: '4111 1111 1111' })).toBe('4111 111|1 111');
    expect(edit('expiry', '12 /|', { previous: '12 / ', inputType: 'deleteContentBackward' })).toBe('1|');
  });

  test('forward delete of a space removes the digit after it', () => {
    expect(edit('number', '4111|1', { previous: '4111 1', inputType: 'deleteContentForward' })).toBe('4111|');
    expect(edit('number', '4111|1111 1', { previous: '4111 1111 1', inputType: 'deleteContentForward' })).toBe('4111| 1111');
  });

  test('deleting a digit is an ordinary edit', () => {
    expect(edit('number', '4111 |111', { previous: '4111 1111' })).toBe('4111| 111');
    expect(edit('number', '411| 1111', { previous: '4111 1111' })).toBe('411|1 111');
    expect(edit('expiry', '12 / |', { previous: '12 / 3' })).toBe('12 / |');
  });

  test('pasting with spaces or dashes', () => {
    expect(edit('number', '4111-1111 1111-1111|')).toBe('4111 1111 1111 1111|');
    expect(edit('number', '4111 1111 1111 1111 9999|')).toBe('4111 1111 1111 1111 999|');
    expect(edit('number', '3782-822463-10005|')).toBe('3782 822463 10005|');
    expect(edit('expiry', '12/2030|')).toBe('12 / 2030|');
    expect(edit('expiry', '1-30|')).toBe('01 / 30|');
  });

  test('caret at the start and odd carets', () => {
    expect(edit('number', '|4111 1')).toBe('|4111 1');
    expect(formatInput({ value: '41111', caret: 99 }, 'number')).toEqual({ value: '4111 1', caret: 6 });
    expect(formatInput({ value: '41111', caret: -3 }, 'number')).toEqual({ value: '4111 1', caret: 6 });
    expect(formatInput({ value: '41111', caret: NaN }, 'number')).toEqual({ value: '4111 1', caret: 6 });
    expect(formatInput({ value: '41111', caret: 2 }, 'number')).toEqual({ value: '4111 1', caret: 2 });
  });
});
