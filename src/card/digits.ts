/**
 * Input hygiene shared by the validators and formatters. Nothing here throws on any input.
 * A digit is an ASCII digit: other scripts' digits are folded by the input field before it calls
 * the core, never guessed here, so that a number is the same everywhere it goes.
 */

/** Longer input is refused by the validators: no card field is ever this long, and it bounds the work. */
export const MAX_INPUT = 64;

/** The longest card number of any brand (ISO/IEC 7812). */
export const MAX_DIGITS = 19;

const NUMBER_CHARS = /^[\d -]*$/;
const SEPARATORS = /[ -]/g;
const NON_DIGITS = /\D/g;

/** A primitive string for a string or a String object (of any realm); undefined for anything else. */
export function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return undefined;
  try {
    return String.prototype.valueOf.call(value); // throws unless value is a String object
  } catch {
    return undefined;
  }
}

/** The first `max` ASCII digits of the value, found without copying the rest of a long paste. */
export function leadingDigits(value: string, max: number): string {
  let out = '';
  for (let i = 0; i < value.length && out.length < max; i++) {
    const c = value.charCodeAt(i);
    if (c >= 48 && c <= 57) out += value[i];
  }
  return out;
}

/**
 * The digits of a card number typed or pasted with spaces and dashes as separators;
 * undefined when the value is not text, is too long or holds any other character.
 */
export function cleanNumber(value: unknown): string | undefined {
  const text = asText(value);
  if (text === undefined || text.length > MAX_INPUT || !NUMBER_CHARS.test(text)) return undefined;
  return text.replace(SEPARATORS, '');
}

/** Every ASCII digit of the value, anything else dropped (for formatting, which never refuses). */
export function digitsOnly(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value.replace(NON_DIGITS, '');
}

/**
 * Arabic-Indic (U+0660-0669), Extended Arabic-Indic, the Persian and Urdu forms (U+06F0-06F9), and
 * fullwidth (U+FF10-FF19) digits as ASCII: a payer typing on an Arabic, Persian or Japanese keyboard
 * means the same number. Each block starts at a multiple of 16. The one folding rule of the card
 * fields and the OTP form.
 */
export function foldDigits(value: string): string {
  return value.replace(/[\u0660-\u0669\u06f0-\u06f9\uff10-\uff19]/g, (d) => String(d.charCodeAt(0) & 15));
}
