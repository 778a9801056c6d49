/** Card number and CVV validation, as you type (isPotentiallyValid) and when done (isValid). */
import type { Brand } from './brands';
import { judge } from './detect';
import { asText, cleanNumber } from './digits';
import { luhn } from './luhn';

export interface NumberValidation {
  /** The detected brand (see detectBrand); undefined while ambiguous or unknown. */
  brand: Brand | undefined;
  /** A complete number: a length of its brand and, where the brand uses one, a correct check digit. */
  isValid: boolean;
  /** What is typed so far can still become a valid number. isValid implies it. */
  isPotentiallyValid: boolean;
}

export interface Validation {
  isValid: boolean;
  isPotentiallyValid: boolean;
}

function complete(brand: Brand, digits: string): boolean {
  return brand.lengths.includes(digits.length) && (!brand.luhn || luhn(digits));
}

/**
 * Validates a card number typed or pasted with spaces and dashes as separators ('4111-1111 1111 1111').
 * Any other character makes both flags false, and so does a JS number: a card number is text (a
 * number loses digits past 2^53 and its leading zeros). A number of no known brand is never valid.
 */
export function validateNumber(value: string): NumberValidation {
  const digits = cleanNumber(value);
  if (digits === undefined) return { brand: undefined, isValid: false, isPotentiallyValid: false };
  const { brand, candidates } = judge(digits);
  const isValid = brand !== undefined && complete(brand, digits);
  // A decided brand decides; otherwise any brand still possible keeps the number alive while it is
  // shorter than that brand's longest length.
  const alive = (b: Brand) => digits.length < b.lengths.at(-1)! || complete(b, digits);
  const isPotentiallyValid = isValid || candidates.some(alive);
  return { brand, isValid, isPotentiallyValid };
}

const CVV_CHARS = /^\d*$/;

/**
 * Validates a CVV/CVC/CID of the given size or sizes (a brand's `code.size`; [3, 4] when the brand
 * is unknown). Digits only; an empty value is potentially valid.
 */
export function validateCvv(value: string, size: number | number[] = 3): Validation {
  const text = asText(value);
  if (text === undefined || text.length > 8 || !CVV_CHARS.test(text)) {
    return { isValid: false, isPotentiallyValid: false };
  }
  const sizes = Array.isArray(size) ? size : [size];
  let isValid = false;
  let max = 0;
  for (const s of sizes) {
    if (typeof s !== 'number') continue;
    if (s === text.length) isValid = true;
    if (s > max) max = s;
  }
  return { isValid, isPotentiallyValid: isValid || text.length < max };
}
