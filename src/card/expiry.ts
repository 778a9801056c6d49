/**
 * Expiry dates. Accepted: 'MM/YY', 'MM / YYYY', 'MMYY', 'MMYYYY', 'M/YY', 'MM-YY', '1/2030' and every
 * partial of them. Without a separator, a first digit 2-9 is a whole month ('225' is 02/25) and so is
 * '1' followed by 3-9 ('130' is 01/30), as in 'M/YY'. The display is 'MM / YY', like Stripe.
 */
import { digitsOnly, MAX_INPUT } from './digits';

export interface ExpiryValidation {
  isValid: boolean;
  isPotentiallyValid: boolean;
  /** 1-12, once the month is typed. */
  month?: number;
  /** Four digits, once a two- or four-digit year is typed. */
  year?: number;
}

/** Cards are not issued for longer than this; a later date is a typo. */
const MAX_YEARS_AHEAD = 20;

const WITH_SEPARATOR = /^\s*(\d{1,2})\s*[/-]\s*(\d{0,4})\s*$/;
const DIGITS = /^\s*(\d{0,6})\s*$/;
const WHOLE = /^\d{1,4}$/;

/** Month and year parts of a separator-free run of digits; month '' or '0'/'1' while undecided. */
function split(digits: string): [month: string, year: string] {
  const a = digits.charAt(0);
  const b = digits.charAt(1);
  if (a === '0' || (a === '1' && (b === '' || b <= '2'))) return [digits.slice(0, 2), digits.slice(2)];
  return a === '' ? ['', ''] : ['0' + a, digits.slice(1)];
}

/** The canonical digits of an expiry as typed: a whole month is always two digits ('1/2' -> '012'). */
export function expiryDigits(value: string): string {
  if (typeof value !== 'string') return '';
  const text = value.slice(0, MAX_INPUT);
  const sep = text.search(/[/-]/);
  const month = sep > 0 ? digitsOnly(text.slice(0, sep)) : '';
  if (month.length === 2 || (month.length === 1 && month !== '0')) {
    return (month.padStart(2, '0') + digitsOnly(text.slice(sep + 1))).slice(0, 6);
  }
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
  return result;
}

/**
 * Validates an expiry typed as text or given as parts. A card is valid through the last day of its
 * expiry month in the local time of `now`; past months and dates more than 20 years ahead are invalid.
 */
export function validateExpiry(
  value: string | { month: number | string; year: number | string },
  now: Date = new Date(),
): ExpiryValidation {
  const bad = { isValid: false, isPotentiallyValid: false };
  const today = now instanceof Date && !Number.isNaN(now.getTime()) ? now : new Date();
  if (typeof value === 'string') {
    if (value.length > MAX_INPUT) return bad;
    const sep = WITH_SEPARATOR.exec(value);
    if (sep) return sep[1] === '0' ? bad : fromParts(sep[1]!.padStart(2, '0'), sep[2]!, today);
    const plain = DIGITS.exec(value);
    return plain ? fromParts(...split(plain[1]!), today) : bad;
  }
  if (value === null || typeof value !== 'object') return bad;
  const month = part(value.month);
  const year = part(value.year);
  if (month === undefined || year === undefined || month.length > 2 || year.length === 3) return bad;
  if (month === '') return { isValid: false, isPotentiallyValid: year === '' };
  return month === '0' ? bad : fromParts(month.padStart(2, '0'), year, today);
}

/** A month or year given as a whole number or digits ('' allowed); undefined when neither. */
function part(v: unknown): string | undefined {
  if (typeof v === 'number') return Number.isInteger(v) && v >= 0 ? part(String(v)) : undefined;
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t === '' || WHOLE.test(t) ? t : undefined;
}
