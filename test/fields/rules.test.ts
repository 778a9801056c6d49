// What a card field does with each edit, without a DOM: the frames and attachForm run this.
import { describe, expect, it } from 'vitest';
import { foldDigits } from '../../src/card/digits';
import { applyEdit, checkField, showsInvalid } from '../../src/fields';
import type { FieldName } from '../../src/shared/names';

/** Types `text` key by key at the end of the field, as a person would. */
function type(name: FieldName, text: string, start = '', sizes?: number[]): string {
  let value = start;
  for (const key of text)
    value = applyEdit(name, { value: value + key, caret: value.length + 1, previous: value, inputType: 'insertText' }, sizes).value;
  return value;
}

describe('applyEdit', () => {
  it('formats the number and the expiry as they are typed', () => {
    expect(type('number', '4111111111111111')).toBe('4111 1111 1111 1111');
    expect(type('number', '378282246310005')).toBe('3782 822463 10005');
    expect(type('expiry', '1234')).toBe('12 / 34');
    expect(type('expiry', '4')).toBe('04 / ');
    expect(type('name', 'Ada Lovelace')).toBe('Ada Lovelace');
  });

  it('reads Arabic-Indic, Persian and fullwidth digits as ASCII', () => {
    expect(foldDigits('٠١٢٣٤٥٦٧٨٩ ۰۱۲۳۴۵۶۷۸۹ ０１２３４５６７８９')).toBe('0123456789 0123456789 0123456789');
    expect(type('number', '٤١١١١١١١١١١١١١١١')).toBe('4111 1111 1111 1111');
    expect(type('expiry', '۱۲۳۴')).toBe('12 / 34');
    expect(type('cvv', '١٢٣')).toBe('123');
  });

  it("refuses a digit past the brand's longest number, wherever the caret is", () => {
    const full = '5555 5555 5555 4444';
    expect(type('number', '4', full)).toBe(full);
    expect(applyEdit('number', { value: '55555 5555 5555 4444', caret: 2, previous: full, inputType: 'insertText' })).toEqual({
      value: full,
      caret: 1,
    });
    expect(type('number', '1', '3782 822463 10005')).toBe('3782 822463 10005');
    // A 19-digit Visa exists: a 17th digit is taken.
    expect(type('number', '1', '4111 1111 1111 1111')).toBe('4111 1111 1111 1111 1');
  });

  it('refuses a paste with more digits than the field holds, whole', () => {
    const edit = { value: '5555 5555 5555 4444 9', caret: 21, previous: '', inputType: 'insertFromPaste' };
    expect(applyEdit('number', edit)).toEqual({ value: '', caret: 0 });
    expect(applyEdit('number', { ...edit, value: '  5555-5555-5555-4444 ' })).toEqual({ value: '5555 5555 5555 4444', caret: 19 });
  });

  it('deletes the digit before a space that backspace removed', () => {
    expect(applyEdit('number', { value: '41111', caret: 4, previous: '4111 1', inputType: 'deleteContentBackward' })).toEqual({
      value: '4111',
      caret: 3,
    });
    expect(applyEdit('number', { value: '41111', caret: 4, previous: '4111 1', inputType: 'deleteContentForward' })).toEqual({
      value: '4111',
      caret: 4,
    });
  });

  it("keeps every digit when a deletion makes the number a shorter brand's, and it shows as invalid", () => {
    // A 19-digit Diners Club number less its 0 starts like American Express (15 digits at most).
    const next = applyEdit('number', {
      value: '347 715441 170332140',
      caret: 1,
      previous: '3047 715441 170332140',
      inputType: 'deleteContentBackward',
    });
    expect(next).toEqual({ value: '3477 1544 1170 3321 40', caret: 1 });
    expect(checkField('number', next.value)).toEqual({ isValid: false, isPotentiallyValid: false, reason: 'invalid' });
  });

  it('gives the CVV the size of the brand', () => {
    expect(type('cvv', '12345', '', [4])).toBe('1234');
    expect(type('cvv', '12345', '', [3])).toBe('123');
    expect(type('cvv', '12345')).toBe('1234');
    expect(type('cvv', '1a2-3')).toBe('123');
  });
});

describe('checkField', () => {
  it.each([
    ['number', '4111 1111 1111 1111', true, true, undefined],
    ['number', '4111 1111', false, true, 'incomplete'],
    ['number', '5555 5555 5555 4445', false, false, 'invalid'],
    ['expiry', '12 / 34', true, true, undefined],
    ['expiry', '1', false, true, 'incomplete'],
    ['expiry', '00 / ', false, false, 'invalid'],
    ['cvv', '123', true, true, undefined],
    ['cvv', '12', false, true, 'incomplete'],
    ['name', ' Ada ', true, true, undefined],
    ['name', '  ', false, true, 'empty'],
    // A number typed into the wrong field must not reach the page with the name.
    ['name', '4111 1111 1111 1111', false, false, 'invalid'],
    ['name', 'Ada 3', false, false, 'invalid'],
    ['name', 'Ada ٣', false, false, 'invalid'],
    // At most what the name frame's input holds, once trimmed.
    ['name', ` ${'x'.repeat(100)} `, true, true, undefined],
    ['name', 'x'.repeat(101), false, false, 'invalid'],
  ] as const)('%s %j: valid %s, potentially %s, %s', (name, value, isValid, isPotentiallyValid, reason) => {
    expect(checkField(name, value)).toEqual(reason ? { isValid, isPotentiallyValid, reason } : { isValid, isPotentiallyValid });
  });

  it("takes the brand's CVV size", () => {
    expect(checkField('cvv', '1234', [3])).toEqual({ isValid: false, isPotentiallyValid: false, reason: 'invalid' });
    expect(checkField('cvv', '1234', [4]).isValid).toBe(true);
  });
});

describe('showsInvalid', () => {
  const s = (over: object) => ({ isEmpty: false, isValid: false, isPotentiallyValid: true, isFocused: true, ...over });
  it('shows what cannot become valid at once, what is incomplete once left, and an empty field only after a refused pay', () => {
    expect(showsInvalid(s({ isPotentiallyValid: false }), false)).toBe(true);
    expect(showsInvalid(s({}), false)).toBe(false);
    expect(showsInvalid(s({ isFocused: false }), false)).toBe(true);
    expect(showsInvalid(s({ isFocused: false, isEmpty: true }), false)).toBe(false);
    expect(showsInvalid(s({ isFocused: false, isEmpty: true }), true)).toBe(true);
    expect(showsInvalid(s({ isValid: true, isFocused: false }), true)).toBe(false);
  });
});
