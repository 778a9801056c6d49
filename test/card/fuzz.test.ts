import { expect, test } from 'vitest';
import * as card from '../../src/card';
import { prng } from './helpers';

const rand = prng(20261121);
const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
const pieces = ['0', '1', '2', '3', '4', '5', '6', '9', ' ', '-', '/', '  ', '\t', '\u00a0', 'a', '💳', '\ud800', '\udfff', '١', '．', '\u0000', '4111', '6062', '12', '/20'];

function randomString(): string {
  const n = Math.floor(rand() * 30);
  let s = '';
  for (let i = 0; i < n; i++) s += pick(pieces);
  return s;
}

const odd: unknown[] = [
  undefined, null, 0, 42, NaN, {}, [], ['4111'], true, Symbol('s'), () => '4111', new String('4111'),
  '4'.repeat(65), '4'.repeat(1_000_000), '💳'.repeat(100_000), '\ud800'.repeat(70), '1'.repeat(64), ' '.repeat(64),
];

test('no input throws, and isValid always implies isPotentiallyValid', () => {
  const now = new Date(2026, 10, 15);
  const inputs: unknown[] = [...odd];
  for (let i = 0; i < 5000; i++) inputs.push(randomString());
  inputs.push('4111 1111 1111 1111', '4111-1111 1111-1111', '12/30', '123');
  let valid = 0;
  // Plain checks, one expect at the end: thousands of expect() calls would dominate the run time.
  const failures: string[] = [];
  const check = (ok: boolean, what: string, x: unknown) => {
    if (!ok && failures.length < 20) failures.push(`${what}: ${JSON.stringify(typeof x === 'string' ? x.slice(0, 40) : String(typeof x))}`);
  };
  for (const x of inputs) {
    const s = x as string;
    const n = card.validateNumber(s);
    check(!n.isValid || n.isPotentiallyValid, 'number isValid without isPotentiallyValid', x);
    if (n.isValid) {
      valid++;
      check(n.brand !== undefined, 'valid number without brand', x);
    }
    const brands = card.brandsFor(s);
    const brand = card.detectBrand(s);
    check(!brand || brands.includes(brand), 'detected brand not among brandsFor', x);
    check(typeof card.luhn(s) === 'boolean', 'luhn', x);

    for (const e of [card.validateExpiry(s, now), card.validateExpiry({ month: s, year: s }, now), card.validateExpiry(x as never, x as never)]) {
      check(!e.isValid || e.isPotentiallyValid, 'expiry isValid without isPotentiallyValid', x);
      check(e.month === undefined || (e.month >= 1 && e.month <= 12), 'expiry month', x);
    }
    for (const size of [3, 4, [3, 4], x as never]) {
      const c = card.validateCvv(s, size);
      check(!c.isValid || c.isPotentiallyValid, 'cvv isValid without isPotentiallyValid', x);
    }

    const f = card.formatNumber(s);
    check(/^(\d+( \d+)*)?$/.test(f) && f.replace(/ /g, '').length <= 19, 'formatNumber shape', x);
    check(card.formatNumber(f) === f, 'formatNumber not stable', x);
    const fe = card.formatExpiry(s);
    check(/^(\d{0,2}|\d\d \/ \d{0,4})$/.test(fe), 'formatExpiry shape', x);
    check(card.formatExpiry(fe) === fe, 'formatExpiry not stable', x);

    for (const kind of ['number', 'expiry'] as const) {
      const caret = Math.floor(rand() * 40) - 5;
      const out = card.formatInput({ value: s, caret, previous: pick([undefined, randomString(), typeof s === 'string' ? s + ' ' : s]) }, kind);
      check(out.caret >= 0 && out.caret <= out.value.length, 'caret out of range', x);
      card.formatInput(x as never, kind);
    }
  }
  expect(failures).toEqual([]);
  expect(valid).toBeGreaterThan(0); // the loop did reach valid numbers
});

test('random valid-looking numbers: formatting never changes the verdict', () => {
  for (let i = 0; i < 3000; i++) {
    let digits = pick(['4', '5', '2', '3', '6', '62', '50', '81', '']);
    const length = 12 + Math.floor(rand() * 8);
    while (digits.length < length) digits += Math.floor(rand() * 10);
    const raw = card.validateNumber(digits);
    const shown = card.formatNumber(digits);
    // Formatting cuts digits past the brand's longest length; up to there the verdict is the same.
    if (shown.replace(/ /g, '') === digits) expect(card.validateNumber(shown)).toEqual(raw);
    else expect(raw.isPotentiallyValid, digits).toBe(false);
    expect(!raw.isValid || raw.isPotentiallyValid).toBe(true);
  }
});
