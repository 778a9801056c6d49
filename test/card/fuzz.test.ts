/**
 * Issue 12, "Fuzz": 100,000 seeded random and adversarial strings (Unicode digits, bidi marks,
 * zero-width characters, emoji, very long pastes, corrupted real numbers) through every function of
 * the card core. A failure names the seed and the input's index, so `fuzzer(SEED)` replays it.
 */
import { expect, test } from 'vitest';
import * as card from '../../src/card';
import { asciiDigits, fuzzer } from '../fuzz/generator';

const SEED = 20261121;
const COUNT = 100_000;
const now = new Date(2026, 10, 15);
const YEAR_FIRST = /^\s*(\d{4})\s*-\s*(\d{1,2})\s*$/;

/** What the formatted number must hold: the input's ASCII digits, cut only at the brand's longest length. */
function keepsDigits(input: string, shown: string): boolean {
  const given = asciiDigits(input);
  const kept = asciiDigits(shown);
  const brand = card.detectBrand(kept);
  const max = brand ? brand.lengths[brand.lengths.length - 1]! : 19;
  return given.startsWith(kept) && kept.length === Math.min(given.length, max);
}

/** The formatted expiry: the input's digits up to six, plus at most a leading zero of a one-digit month. */
function keepsExpiryDigits(input: string, shown: string): boolean {
  const given = asciiDigits(input);
  const kept = asciiDigits(shown);
  const yearFirst = YEAR_FIRST.exec(input);
  if (yearFirst) return kept === yearFirst[2]!.padStart(2, '0') + yearFirst[1];
  return (given.startsWith(kept) || ('0' + given).startsWith(kept)) && kept.length >= Math.min(6, given.length);
}

test(`${COUNT} fuzzed inputs: nothing throws, isValid implies isPotentiallyValid, formatting keeps every digit`, () => {
  const fuzz = fuzzer(SEED);
  const failures: string[] = [];
  let valid = 0;
  const fail = (i: number, what: string, input: string) => {
    if (failures.length < 10) failures.push(`#${i} ${what}: ${JSON.stringify(input.slice(0, 60))}`);
  };
  for (let i = 0; i < COUNT; i++) {
    const s = fuzz.next();
    try {
      const n = card.validateNumber(s);
      if (n.isValid && !n.isPotentiallyValid) fail(i, 'number valid, not potentially valid', s);
      if (n.isValid) valid++;
      if (n.isValid && (!n.brand || !/^[\d -]+$/.test(s))) fail(i, 'number valid without a brand, or with other characters', s);
      if (/[^\d -]/.test(s) && (n.isPotentiallyValid || n.brand)) fail(i, 'a character other than a digit, space or dash accepted', s);
      const brand = card.detectBrand(s);
      if (brand && !card.brandsFor(s).includes(brand)) fail(i, 'detected brand not among brandsFor', s);
      card.luhn(s);

      for (const e of [card.validateExpiry(s, now), card.validateExpiry({ month: s, year: s }, now)]) {
        if (e.isValid && !e.isPotentiallyValid) fail(i, 'expiry valid, not potentially valid', s);
        if (e.month !== undefined && !(e.month >= 1 && e.month <= 12)) fail(i, 'expiry month out of range', s);
      }
      for (const size of [3, 4, [3, 4]]) {
        const c = card.validateCvv(s, size);
        if (c.isValid && !c.isPotentiallyValid) fail(i, 'cvv valid, not potentially valid', s);
      }

      const f = card.formatNumber(s);
      if (!/^(?:\d+(?: \d+)*)?$/.test(f) || !keepsDigits(s, f)) fail(i, 'formatNumber lost, invented or misplaced a digit', s);
      if (card.formatNumber(f) !== f) fail(i, 'formatNumber not stable', s);
      const fe = card.formatExpiry(s);
      if (!/^(?:\d{0,2}|\d\d \/ \d{0,4})$/.test(fe) || !keepsExpiryDigits(s, fe)) fail(i, 'formatExpiry lost or invented a digit', s);
      if (card.formatExpiry(fe) !== fe) fail(i, 'formatExpiry not stable', s);

      const caret = fuzz.int(s.length + 3) - 1;
      const typed = card.formatInput({ value: s, caret }, 'number');
      if (typed.value !== f || typed.caret < 0 || typed.caret > typed.value.length) fail(i, 'formatInput (number)', s);
      const edited = card.formatInput(
        { value: s, caret, previous: fuzz.next(), inputType: fuzz.pick(['deleteContentBackward', 'deleteContentForward', 'insertText']) },
        'expiry',
      );
      if (card.formatExpiry(edited.value) !== edited.value || edited.caret < 0 || edited.caret > edited.value.length)
        fail(i, 'formatInput (expiry)', s);
    } catch (error) {
      fail(i, `threw ${String(error)}`, s);
    }
  }
  expect(failures).toEqual([]);
  expect(valid).toBeGreaterThan(100); // corrupted real numbers that stayed clean do reach the valid paths
}, 120_000); // all computing (3 s alone), so its time is the machine's: the time test/fields/fuzz.test.ts gives its own

test('values that are not text never throw and are never valid', () => {
  const odd: unknown[] = [
    undefined,
    null,
    0,
    42,
    NaN,
    -0,
    Infinity,
    4111111111111111,
    4111111111111111n,
    {},
    [],
    ['4111111111111111'],
    true,
    Symbol('s'),
    () => '4111',
    Object.create(null),
    { toString: () => '4111111111111111' },
    new Date(),
    {
      [Symbol.toStringTag]: 'String',
      valueOf: () => {
        throw new Error('no');
      },
    },
    new Proxy(
      {},
      {
        get: () => {
          throw new Error('trap');
        },
      },
    ),
  ];
  for (const x of odd) {
    const v = x as never;
    expect(card.validateNumber(v)).toEqual({ brand: undefined, isValid: false, isPotentiallyValid: false });
    expect(card.brandsFor(v)).toEqual([]);
    expect(card.detectBrand(v)).toBeUndefined();
    expect(card.luhn(v)).toBe(false);
    expect(card.validateCvv(v, 3).isValid).toBe(false);
    expect(card.formatNumber(v)).toBe('');
    expect(card.formatExpiry(v)).toBe('');
    expect(card.formatInput(v, 'number')).toEqual({ value: '', caret: 0 });
    expect(card.formatInput({ value: v, caret: v, previous: v, inputType: v }, 'expiry')).toEqual({ value: '', caret: 0 });
    expect(card.validateExpiry(v, v).isValid).toBe(false);
  }
});

test('very long pastes: validators refuse them, formatters keep the first digits and stay fast enough to type on', () => {
  for (const paste of [
    '4'.repeat(1_000_000),
    '💳'.repeat(100_000) + '4111111111111111',
    ' '.repeat(100_000) + '12/30',
    '\u202e'.repeat(70),
  ]) {
    expect(card.validateNumber(paste).isValid).toBe(false);
    expect(card.validateExpiry(paste, now).isValid).toBe(false);
    expect(keepsDigits(paste, card.formatNumber(paste))).toBe(true);
    expect(keepsExpiryDigits(paste, card.formatExpiry(paste))).toBe(true);
  }
  expect(card.formatNumber('💳'.repeat(100_000) + '4111111111111111')).toBe('4111 1111 1111 1111');
  expect(card.formatExpiry(' '.repeat(100_000) + '12/30')).toBe('12 / 30');
});

test('random valid-looking numbers: formatting never changes the verdict', () => {
  const fuzz = fuzzer(SEED + 1);
  for (let i = 0; i < 3000; i++) {
    let digits = fuzz.pick(['4', '5', '2', '3', '6', '62', '50', '81', '']);
    const length = 12 + fuzz.int(8);
    while (digits.length < length) digits += fuzz.int(10);
    const raw = card.validateNumber(digits);
    const shown = card.formatNumber(digits);
    // Formatting cuts digits past the brand's longest length; up to there the verdict is the same.
    if (shown.replace(/ /g, '') === digits) expect(card.validateNumber(shown)).toEqual(raw);
    else expect(raw.isPotentiallyValid, digits).toBe(false);
  }
});
