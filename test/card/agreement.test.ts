import { expect, test } from 'vitest';
import * as card from '../../src/card';
import { DISAGREEMENTS, KNOWN, NOW, SOURCES, VECTORS, type Vector } from './vectors';

/** What payframe answers for a row, in the row's own terms; undefined when it agrees. */
function difference(row: Vector): string | undefined {
  const input = row.input as string;
  const got = (() => {
    switch (row.kind) {
      case 'number': {
        const r = card.validateNumber(input);
        return { brand: r.brand?.id ?? null, valid: r.isValid, potential: r.isPotentiallyValid };
      }
      case 'brands': {
        const known = KNOWN[row.source];
        return {
          brands: card
            .brandsFor(input)
            .map((b) => b.id)
            .filter((id) => !known || known.includes(id))
            .sort(),
        };
      }
      case 'first': {
        const first = card.brandsFor(input)[0];
        return { ...(row.code && { code: first && { ...first.code } }), ...(row.lengths && { lengths: first && [...first.lengths] }) };
      }
      case 'expiry': {
        const r = card.validateExpiry(input as never, NOW);
        return { valid: r.isValid, potential: r.isPotentiallyValid, ...(row.month !== undefined && { month: r.month, year: r.year }) };
      }
      case 'cvv': {
        const r = card.validateCvv(input, row.size);
        return { valid: r.isValid, potential: r.isPotentiallyValid };
      }
      case 'card': {
        const r = card.validateNumber(input);
        return {
          ...(row.brand && { brand: r.brand?.id }),
          ...(row.valid === false ? { valid: false } : {}),
          ok: r.isValid === (row.valid ?? true),
        };
      }
      case 'format':
        return { display: card.formatNumber(input) };
    }
  })();
  const want = (() => {
    switch (row.kind) {
      case 'number':
        return { brand: row.brand, valid: row.valid, potential: row.potential };
      case 'brands':
        return { brands: [...row.brands].sort() };
      case 'first':
        return { ...(row.code && { code: row.code }), ...(row.lengths && { lengths: row.lengths }) };
      case 'expiry':
        return { valid: row.valid, potential: row.potential, ...(row.month !== undefined && { month: row.month, year: row.year }) };
      case 'cvv':
        return { valid: row.valid, potential: row.potential };
      case 'card':
        return { ...(row.brand && { brand: row.brand }), ...(row.valid === false ? { valid: false } : {}), ok: true };
      case 'format':
        return { display: row.display };
    }
  })();
  return JSON.stringify(got) === JSON.stringify(want) ? undefined : `payframe ${JSON.stringify(got)}, source ${JSON.stringify(want)}`;
}

/** The row's key in DISAGREEMENTS: source, input, and what else tells two rows of one input apart. */
export function keyOf(row: Vector): string {
  const extra =
    row.kind === 'cvv' && row.size !== undefined
      ? ` size ${JSON.stringify(row.size)}`
      : row.kind === 'first'
        ? row.code
          ? ' code'
          : ' lengths'
        : '';
  return `${row.source}|${describe(row.input)}${extra}`;
}

function describe(input: unknown): string {
  if (typeof input === 'string') return input;
  if (input instanceof String) return `new String(${JSON.stringify(String(input))})`;
  if (typeof input === 'number') return `number ${input}`;
  return input === undefined ? 'undefined' : JSON.stringify(input);
}

test('the card core agrees with its peers on at least 98 % of their published vectors', () => {
  const misses = VECTORS.map((row) => ({ key: keyOf(row), why: difference(row) })).filter((m) => m.why !== undefined);
  const agreement = 1 - misses.length / VECTORS.length;
  const report = misses.map((m) => `${m.key}: ${m.why}`).join('\n');
  console.log(`agreement ${(agreement * 100).toFixed(2)} % of ${VECTORS.length} vectors; misses:\n${report}`);
  // Every miss is a decision written down with its reason, and every decision is still a miss.
  expect(misses.map((m) => m.key).sort()).toEqual(Object.keys(DISAGREEMENTS).sort());
  expect(agreement).toBeGreaterThanOrEqual(0.98);
});

test('every row names a source, and rows are not repeated within a source', () => {
  const keys = VECTORS.map(keyOf);
  expect(VECTORS.every((row) => row.source in SOURCES)).toBe(true);
  expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
});
