/** Card number formatting and the as-you-type helper that keeps the caret where a person expects. */
import { detectBrand } from './detect';
import { asText, digitsOnly, leadingDigits, MAX_DIGITS } from './digits';
import { expiryDigits, formatExpiry } from './expiry';

const DEFAULT_GAPS = [4, 8, 12, 16];

/**
 * Groups the digits by the detected brand's gaps with single spaces and no trailing space, cut to the
 * brand's longest length (19 when unknown). Other characters are dropped. A brand's own gaps (Amex
 * 4-6-5, Diners 4-6-4) are for its shortest length; longer numbers, and every 19-digit number, are
 * grouped by fours (4-4-4-4-3), as the cards are printed and as gateways list them.
 */
export function formatNumber(value: string): string {
  const digits = leadingDigits(asText(value) ?? '', MAX_DIGITS);
  const brand = detectBrand(digits);
  const max = brand ? brand.lengths.at(-1)! : MAX_DIGITS;
  const kept = digits.slice(0, max);
  const gaps = brand && kept.length <= brand.lengths[0]! ? brand.gaps : DEFAULT_GAPS;
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
  return formatEdit(read(state), kind);
}

/** `formatInput` of a state whose fields are checked: the fields' own entry (fields/rules.ts). */
export function formatEdit(
  { value, caret, previous, inputType }: { value: string; caret: number; previous?: string; inputType?: unknown },
  kind: 'number' | 'expiry',
): { value: string; caret: number } {
  let n = countDigits(value, caret);
  let digits = digitsOnly(value);
  if (previous !== undefined && value.length < previous.length && digits !== '' && digits === digitsOnly(previous)) {
    // Only a separator went: take the digit beside it with it, as the person meant.
    const at = inputType === 'deleteContentForward' ? n : n - 1;
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

/** The fields of an InputState, each checked; anything else (even an object whose getters throw) reads as empty. */
function read(state: InputState): { value: string; caret: number; previous: string | undefined; inputType: unknown } {
  try {
    const value = typeof state?.value === 'string' ? state.value : '';
    const caret = typeof state.caret === 'number' && state.caret >= 0 ? Math.min(state.caret, value.length) : value.length;
    return { value, caret, previous: typeof state.previous === 'string' ? state.previous : undefined, inputType: state.inputType };
  } catch {
    return { value: '', caret: 0, previous: undefined, inputType: undefined };
  }
}
