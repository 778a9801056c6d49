/**
 * Expiry dates. Accepted: 'MM/YY', 'MM / YYYY', 'MMYY', 'MMYYYY', 'M/YY', 'MM-YY', 'MM YY', '1/2030',
 * 'YYYY-MM' (the value of an `<input type="month">`) and every partial of them. Without a separator,
 * a first digit 2-9 is a whole month ('225' is 02/25) and so is '1' followed by 3-9 ('130' is
 * 01/30), as in 'M/YY'. The display is 'MM / YY', like Stripe.
 */
import { asText, digitsOnly, MAX_INPUT } from './digits';

export interface ExpiryValidation {
  isValid: boolean;
  isPotentiallyValid: boolean;
  /** 1-12, once the month is typed. */
  month?: number;
  /** Four digits, once a two- or four-digit year is typed. */
  year?: number;
  /**
   * True when the date typed is before this month (a two-digit year read as 20YY, though more digits
   * may follow), or every date the digits can still become is.
   */
  isExpired?: boolean;
}

/** Cards are not issued for longer than this; a later date is a typo. The same window as card-validator. */
const MAX_YEARS_AHEAD = 19;

/*
 * The patterns below are written so that no two runs of white space can trade characters: each one
 * answers in time linear in its input (eslint-plugin-regexp checks it; test/security/linear-patterns.test.ts).
 */
/** Month, separator ('/', '-' or white space), year: each part may still be partly typed ('/' alone too). */
export const WITH_SEPARATOR = /^\s*(?:(\d{1,2})(?:\s*[/-]\s*|\s+)|[/-]\s*)(?:(\d{1,4})\s*)?$/;
/** Year first, as `<input type="month">` gives it: '2030-07'. */
export const YEAR_FIRST = /^\s*(\d{4})\s*-\s*(\d{1,2})\s*$/;
export const DIGITS = /^\s*(?:(\d{1,6})\s*)?$/;
const WHOLE = /^\d{1,4}$/;
/** The month and what follows its separator, for formatting ('1/3', '12 / 30', '1 2030'). */
export const MONTH_THEN = /^\s*(\d{1,2})(?:\s*[/-]|\s)([\s\S]*)$/;

/** Month and year parts of a separator-free run of digits; month '' or '0'/'1' while undecided. */
function split(digits: string): [month: string, year: string] {
  const a = digits.charAt(0);
  const b = digits.charAt(1);
  if (a === '0' || (a === '1' && (b === '' || b <= '2'))) return [digits.slice(0, 2), digits.slice(2)];
  return a === '' ? ['', ''] : ['0' + a, digits.slice(1)];
}

/** The canonical digits of an expiry as typed: a whole month is always two digits ('1/2' -> '012'). */
export function expiryDigits(value: string): string {
  const text = asText(value) ?? '';
  const yearFirst = YEAR_FIRST.exec(text);
  if (yearFirst) return yearFirst[2]!.padStart(2, '0') + yearFirst[1]!;
  const parts = MONTH_THEN.exec(text);
  if (parts && parts[1] !== '0') return (parts[1]!.padStart(2, '0') + digitsOnly(parts[2])).slice(0, 6);
  const [m, y] = split(digitsOnly(text));
  return (m + y).slice(0, 6);
}

/** 'MM / YY' as you type: '1' -> '1', '2' -> '02 / ', '12' -> '12 / ', '122' -> '12 / 2'. */
export function formatExpiry(value: string): string {
  const d = expiryDigits(value);
  return d.length < 2 ? d : `${d.slice(0, 2)} / ${d.slice(2)}`;
}

function fromParts(month: string, year: string, now: Date): ExpiryValidation {
  const bad = { isValid: false, isPotentiallyValid: false };
  if (month.length < 2 && year === '' && (month === '' || month === '0' || month === '1')) {
    return { isValid: false, isPotentiallyValid: true }; // the month is still being typed
  }
  const mo = Number(month);
  if (!(mo >= 1 && mo <= 12)) return bad;
  const thisYear = now.getFullYear();
  const first = thisYear + (mo < now.getMonth() + 1 ? 1 : 0); // valid through the end of the month
  const last = thisYear + MAX_YEARS_AHEAD;
  const n = Number(year);
  // A two-digit year is in this century; a partial year may still be two or four digits long.
  const century = thisYear - (thisYear % 100);
  const short = year.length === 2 ? century + n : undefined;
  const full = year.length === 4 ? n : undefined;
  const exact = short ?? full;
  const isValid = exact !== undefined && exact >= first && exact <= last;
  const open = (lo: number, hi: number) => Math.max(lo, first) <= Math.min(hi, last);
  const k = year.length;
  const isPotentiallyValid =
    isValid ||
    (k < 2 && open(century + n * 10 ** (2 - k), century + (n + 1) * 10 ** (2 - k) - 1)) ||
    (k < 4 && open(n * 10 ** (4 - k), (n + 1) * 10 ** (4 - k) - 1));
  const result: ExpiryValidation = { isValid, isPotentiallyValid, month: mo };
  if (exact !== undefined) result.year = exact;
  // Expired: the year typed is past ('12 / 25', though 2025 could still become 2050), or the latest
  // year the digits can still become is ('12 / 1': 201x at the latest; 1xxx is earlier).
  const latest =
    exact ?? (isPotentiallyValid ? last : Math.max(k < 2 ? century + (n + 1) * 10 ** (2 - k) - 1 : 0, (n + 1) * 10 ** (4 - k) - 1));
  if (!isValid && latest < first) result.isExpired = true;
  return result;
}

/**
 * Separator-free digits that start '10', '11' or '12' read two ways ('1202': 12/02 or 1/202_); the
 * reading that is valid, else the one that can still become valid, wins; the two-digit month first.
 */
function fromDigits(digits: string, now: Date): ExpiryValidation {
  const first = fromParts(...split(digits), now);
  if (first.isValid || digits.length < 3 || digits[0] !== '1' || digits[1]! > '2') return first;
  const other = fromParts('01', digits.slice(1), now);
  return other.isValid || (other.isPotentiallyValid && !first.isPotentiallyValid) ? other : first;
}

/**
 * `validateExpiry` of a text, against a valid `now`: the frames' own entry, which takes only typed
 * text, so that their script carries no reader of parts.
 */
export function validateExpiryText(text: string, now: Date = new Date()): ExpiryValidation {
  const bad = { isValid: false, isPotentiallyValid: false };
  if (text.length > MAX_INPUT) return bad;
  const yearFirst = YEAR_FIRST.exec(text);
  if (yearFirst) return fromParts(yearFirst[2]!.padStart(2, '0'), yearFirst[1]!, now);
  const sep = WITH_SEPARATOR.exec(text);
  if (sep) {
    const [, month = '', year = ''] = sep;
    if (month === '') return year === '' ? { isValid: false, isPotentiallyValid: true } : bad;
    return month === '0' ? bad : fromParts(month.padStart(2, '0'), year, now);
  }
  const plain = DIGITS.exec(text);
  return plain ? fromDigits(plain[1] ?? '', now) : bad;
}

/**
 * Validates an expiry typed as text or given as parts. A card is valid through the last day of its
 * expiry month in the local time of `now`; past months and dates more than 19 years ahead are invalid.
 * A year that can no longer reach that window is refused as soon as it is typed ('12 / 1': 201x).
 */
export function validateExpiry(
  value: string | { month: number | string; year: number | string },
  now: Date = new Date(),
): ExpiryValidation {
  const bad = { isValid: false, isPotentiallyValid: false };
  const today = now instanceof Date && !Number.isNaN(now.getTime()) ? now : new Date();
  const text = asText(value);
  if (text !== undefined) return validateExpiryText(text, today);
  if (value === null || typeof value !== 'object') return bad;
  let month: string | undefined;
  let year: string | undefined;
  try {
    month = part(value.month);
    year = part(value.year);
  } catch {
    return bad; // an object whose getters throw
  }
  if (month === undefined || year === undefined || month.length > 2 || year.length === 3) return bad;
  if (month === '') return { isValid: false, isPotentiallyValid: year === '' };
  return month === '0' ? bad : fromParts(month.padStart(2, '0'), year, today);
}

/** A month or year given as a whole number or digits ('' allowed); undefined when neither. */
function part(v: unknown): string | undefined {
  if (typeof v === 'number') return Number.isInteger(v) && v >= 0 ? part(String(v)) : undefined;
  const text = asText(v);
  if (text === undefined) return undefined;
  const t = text.trim();
  return t === '' || WHOLE.test(t) ? t : undefined;
}

/**
 * A card's month and year given apart, as numbers or strings (`1`, `'01'`, `2034`, `'34'`): whole
 * numbers, a two-digit year read as 20YY; undefined for a part that is not one, or out of range
 * (month 1-12, year 2000-9999). The one rule of `client.tokenize` and of the server companion's
 * full-card input, so both take the same forms.
 */
export function readExpiryParts(month: unknown, year: unknown): { month: number | undefined; year: number | undefined } {
  const m = wholeNumber(month);
  let y = wholeNumber(year);
  if (y !== undefined && y < 100 && String(year).trim().length === 2) y += 2000;
  return {
    month: m !== undefined && m >= 1 && m <= 12 ? m : undefined,
    year: y !== undefined && y >= 2000 && y <= 9999 ? y : undefined,
  };
}

/** A whole number from a number or a string of one to four digits; anything else is undefined. */
function wholeNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  return typeof value === 'string' && /^\s*\d{1,4}\s*$/.test(value) ? Number(value) : undefined;
}
