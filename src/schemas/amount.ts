/**
 * Amounts travel as decimal strings. Their precision follows ISO 4217 minor units, so that an
 * amount the service would round (or refuse) is caught before any request.
 */
const THREE_DECIMALS = new Set(['OMR', 'BHD', 'KWD', 'JOD', 'TND', 'LYD', 'IQD']);
const NO_DECIMALS = new Set(['JPY', 'KRW']);

export function minorUnits(currency: string): 0 | 2 | 3 {
  if (THREE_DECIMALS.has(currency)) return 3;
  if (NO_DECIMALS.has(currency)) return 0;
  return 2;
}

export const CURRENCY_PATTERN = /^[A-Z]{3}$/;
/** A non-negative decimal string; at most 15 significant digits, so minor units stay exact as a JS number. */
export const DECIMAL_PATTERN = /^(0|[1-9]\d{0,11})(\.\d{1,3})?$/;

/** Why `amount` is not a valid positive amount in `currency`, or undefined when it is. */
export function amountProblem(amount: unknown, currency: string): string | undefined {
  if (typeof amount !== 'string') return 'must be a decimal string such as "10.00"';
  if (!CURRENCY_PATTERN.test(currency)) return 'currency must be a three-letter upper-case ISO 4217 code';
  if (!DECIMAL_PATTERN.test(amount)) return 'must be a positive decimal string such as "10.00"';
  const decimals = amount.split('.')[1]?.length ?? 0;
  const allowed = minorUnits(currency);
  if (decimals > allowed) return `has ${decimals} decimals; ${currency} allows ${allowed}`;
  if (toMinor(amount, currency) <= 0) return 'must be above zero';
  return undefined;
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
