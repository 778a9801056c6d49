/**
 * Amounts travel as decimal strings. Their precision follows ISO 4217 minor units, so that an
 * amount the service would round (or refuse) is caught before any request.
 */
// The minor units of ISO 4217 table A.1 ("list one") other than 2; checked against the table ECMA-402
// engines generate from it (Firefox, js/src/builtin/intl/CurrencyDataGenerated.h, version 2026-01-01).
// Not Intl.NumberFormat's digits: those are CLDR's display habits (0 for IQD, HUF...), not ISO's.
const EXPONENTS = [
  new Set(['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']),
  undefined,
  undefined,
  new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']),
  new Set(['CLF', 'UYW']),
] as const;

export function minorUnits(currency: string): 0 | 2 | 3 | 4 {
  if (EXPONENTS[0].has(currency)) return 0;
  if (EXPONENTS[3].has(currency)) return 3;
  if (EXPONENTS[4].has(currency)) return 4;
  return 2;
}

export const CURRENCY_PATTERN = /^[A-Z]{3}$/;
/** A non-negative decimal string: at most 12 digits before the point and 4 after. */
export const DECIMAL_PATTERN = /^(0|[1-9]\d{0,11})(\.\d{1,4})?$/;
/** Minor units stay below 10^15, so they are exact as a JS number (11 whole digits for CLF, UYW). */
const MAX_MINOR = 1e15;

/** Why `amount` is not a valid positive amount in `currency`, or undefined when it is. */
export function amountProblem(amount: unknown, currency: string): string | undefined {
  if (typeof amount !== 'string') return 'must be a decimal string such as "10.00"';
  if (!CURRENCY_PATTERN.test(currency)) return 'currency must be a three-letter upper-case ISO 4217 code';
  if (!DECIMAL_PATTERN.test(amount)) return 'must be a positive decimal string such as "10.00"';
  const decimals = amount.split('.')[1]?.length ?? 0;
  const allowed = minorUnits(currency);
  if (decimals > allowed) return `has ${decimals} decimal${decimals === 1 ? '' : 's'}; ${currency} allows ${allowed}`;
  const minor = toMinor(amount, currency);
  if (minor <= 0) return 'must be above zero';
  if (minor >= MAX_MINOR) return `is too large: ${currency} takes at most ${15 - allowed} digits before the point`;
  return undefined;
}

/** `amountProblem`'s answer naming the field of `{ total, currency }` that is wrong, under `path` when given. */
export function amountRefusal(problem: string, path?: string): string {
  const named = problem.startsWith('currency ') ? problem : `total ${problem}`;
  return path ? `${path}.${named}` : named;
}

/** "12.5" in EUR is 1250. Callers check the amount first. */
export function toMinor(amount: string, currency: string): number {
  const units = minorUnits(currency);
  const [whole = '0', fraction = ''] = amount.split('.');
  return Number(whole) * 10 ** units + Number(fraction.padEnd(units, '0') || '0');
}

/** 1250 in EUR is "12.50". */
export function fromMinor(minor: number, currency: string): string {
  const units = minorUnits(currency);
  if (units === 0) return String(minor);
  const text = String(minor).padStart(units + 1, '0');
  return `${text.slice(0, -units)}.${text.slice(-units)}`;
}
