/** Input hygiene shared by the validators and formatters. Nothing here throws on any input. */

/** Longer input is rejected outright: no card field is ever this long, and it bounds the work. */
export const MAX_INPUT = 64;

const NUMBER_CHARS = /^[\d -]*$/;
const SEPARATORS = /[ -]/g;
const NON_DIGITS = /\D/g;

/**
 * The digits of a card number typed or pasted with spaces and dashes as separators;
 * undefined when the value is not a string, is too long or holds any other character.
 */
export function cleanNumber(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_INPUT || !NUMBER_CHARS.test(value)) return undefined;
  return value.replace(SEPARATORS, '');
}

/** Every ASCII digit of the value, anything else dropped (for formatting, which never refuses). */
export function digitsOnly(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value.replace(NON_DIGITS, '');
}

const EASTERN_DIGITS = /[\u0660-\u0669\u06f0-\u06f9]/g;

/**
 * Arabic-Indic (U+0660-0669) and Extended Arabic-Indic, the Persian and Urdu forms (U+06F0-06F9),
 * digits as ASCII: a payer typing on an Arabic or Persian keyboard means the same number.
 */
export function toAsciiDigits(value: string): string {
  return value.replace(EASTERN_DIGITS, (d) => String(d.charCodeAt(0) & 0xf));
}
