/** Card number formatting and the as-you-type helper that keeps the caret where a person expects. */
import { detectBrand } from './detect';
import { digitsOnly, MAX_INPUT } from './digits';
import { expiryDigits, formatExpiry } from './expiry';

const DEFAULT_GAPS = [4, 8, 12, 16];
const MAX_DIGITS = 19;

/**
 * Groups the digits by the detected brand's gaps (every four when unknown) with single spaces and no
 * trailing space, cut to the brand's longest length (19 when unknown). Other characters are dropped.
 */
export function formatNumber(value: string): string {
  const digits = digitsOnly(typeof value === 'string' ? value.slice(0, MAX_INPUT) : '');
  const brand = detectBrand(digits.slice(0, MAX_DIGITS));
  const max = brand ? brand.lengths[brand.lengths.length - 1]! : MAX_DIGITS;
  const gaps = brand ? brand.gaps : DEFAULT_GAPS;
  const kept = digits.slice(0, max);
  let out = '';
  let from = 0;
  for (const gap of gaps) {
    if (gap >= kept.length) break;
    out += kept.slice(from, gap) + ' ';
    from = gap;
  }
  return out + kept.slice(from);
}

export interface InputState {
  value: string;
  /** Caret position in `value` (a collapsed selection). */
  caret: number;
  /** The value before this edit; tells a deletion of a separator apart from other edits. */
  previous?: string;
  /** The InputEvent's `inputType`; 'deleteContentForward' makes a removed separator take the digit after it. */
  inputType?: string;
}

function countDigits(text: string, end: number): number {
  let n = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}

/** The caret position just after the n-th digit of text (the end if that is the last digit). */
function caretAfter(text: string, n: number): number {
  if (n >= countDigits(text, text.length)) return text.length;
  let seen = 0;
  for (let i = 0; i < text.length && seen < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57 && ++seen === n) return i + 1;
  }
  return 0;
}

/**
 * Formats an input's value after an edit and places the caret by counting the digits before it:
 * typing in the middle keeps the caret after the typed digit; a paste with spaces or dashes is
 * regrouped; deleting only a separator (the digits did not change) deletes the digit before it
 * (after it for a forward delete), as the person meant. Pure: the DOM wiring applies the result.
 */
export function formatInput(state: InputState, kind: 'number' | 'expiry'): { value: string; caret: number } {
  const raw = state !== null && typeof state === 'object' && typeof state.value === 'string' ? state.value : '';
  const value = raw.slice(0, MAX_INPUT);
  const c = typeof state?.caret === 'number' && state.caret >= 0 ? Math.min(state.caret, value.length) : value.length;
  let n = countDigits(value, c);
  const previous = typeof state?.previous === 'string' ? state.previous.slice(0, MAX_INPUT) : undefined;
  let digits = digitsOnly(value);
  if (previous !== undefined && value.length < previous.length && digits !== '' && digits === digitsOnly(previous)) {
    // Only a separator went: take the digit beside it with it, as the person meant.
    const at = state.inputType === 'deleteContentForward' ? n : n - 1;
    if (at >= 0 && at < digits.length) digits = digits.slice(0, at) + digits.slice(at + 1);
    if (at >= 0 && at < n) n--;
  } else if (kind === 'expiry') {
    digits = value; // keep the separator: '1/' means January
  }
  if (kind === 'expiry') {
    const typed = digitsOnly(digits).length;
    digits = expiryDigits(digits);
    // A month may gain a leading '0' ('2' -> '02'): the caret moves past it.
    if (n > 0 && digits.length > typed) n++;
  }
  const formatted = kind === 'expiry' ? formatExpiry(digits) : formatNumber(digits);
  return { value: formatted, caret: caretAfter(formatted, n) };
}
