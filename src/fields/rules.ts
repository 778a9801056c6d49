/**
 * What a card field does with each edit, without the DOM: fold other scripts' digits, format with
 * the caret where the person expects it, refuse digits past the brand's longest length, judge
 * validity. Shared by the hosted form's frames and by `attachForm` on the merchant's own inputs.
 */
import { type Brand, brandsFor, formatEdit, validateCvv, validateExpiryText, validateNumber } from '../card';
import { type BrandId, table } from '../card/brands';
import { foldDigits } from '../card/digits';
import type { FieldName, FieldReason } from '../shared/names';
import type { BrandInfo, FieldState } from '../protocol/messages';

export interface Edit {
  value: string;
  caret: number;
  /** The value before this edit. */
  previous: string;
  /** The InputEvent's `inputType`. */
  inputType?: string;
}

/** The CVV sizes when the brand is not known yet. */
export const ANY_CVV = [3, 4];

export const cvvSizes = (b: BrandInfo | Brand | null | undefined) => (b ? [b.code.size] : ANY_CVV);

const digitsOf = (text: string) => text.replace(/\D/g, '');
const countDigits = (text: string) => digitsOf(text).length;

/**
 * The value and caret after an edit. An edit that adds digits past what the field holds (the
 * brand's longest number, six expiry digits, the CVV's size) is refused whole: the previous value
 * stays and the caret goes back to where the edit began. No edit loses a digit the person typed.
 */
export function applyEdit(name: FieldName, edit: Edit, sizes: number[] = ANY_CVV): { value: string; caret: number } {
  const value = foldDigits(edit.value);
  if (name === 'name') return { value, caret: edit.caret };
  let next: { value: string; caret: number };
  if (name === 'cvv') {
    next = { value: digitsOf(value).slice(0, Math.max(...sizes)), caret: countDigits(value.slice(0, edit.caret)) };
  } else {
    next = formatEdit({ value, caret: Math.min(edit.caret, value.length), previous: edit.previous, inputType: edit.inputType }, name);
  }
  const typed = countDigits(value);
  // Backspace over a space only: the card core takes the digit beside it with it, on purpose.
  const separatorOnly = value.length < edit.previous.length && digitsOf(value) === digitsOf(edit.previous);
  if (countDigits(next.value) >= typed - (separatorOnly ? 1 : 0) || name === 'expiry') return next;
  if (typed > countDigits(edit.previous)) {
    return { value: edit.previous, caret: Math.max(0, edit.caret - (value.length - edit.previous.length)) };
  }
  // A deletion made the number another brand's, shorter one (3056… less its 0 is Amex): keep every
  // digit, in fours; the field shows as invalid until the person fixes it.
  const n = countDigits(value.slice(0, edit.caret));
  return { value: digitsOf(value).replace(/\d{4}(?=\d)/g, '$& '), caret: n + Math.max(0, Math.floor((n - 1) / 4)) };
}

/** The longest cardholder's name: what the name frame's input holds (its `maxLength`, in UTF-16 units). */
export const MAX_NAME = 100;

/**
 * The cardholder's name, one rule for the frames, `attachForm` and `client.tokenize`: trimmed, not
 * empty, at most `MAX_NAME` long, and no digit of any script: a card number or CVV typed into the wrong
 * field must not reach the page, which receives the name with the nonce.
 */
export function checkName(value: string) {
  const name = value.trim();
  const isPotentiallyValid = !/\p{Nd}/u.test(name) && name.length <= MAX_NAME;
  return { isValid: isPotentiallyValid && name !== '', isPotentiallyValid };
}

/** The brands a form takes when the merchant names none: the four the service documents. */
export const DEFAULT_BRANDS: readonly BrandId[] = ['visa', 'mastercard', 'american-express', 'discover'];

/**
 * The merchant's `brands` option checked: a non-empty list of the card core's brand ids (default
 * `DEFAULT_BRANDS`); a string saying what is wrong, naming the valid ids, for anything else.
 */
export function readBrands(given: unknown): readonly BrandId[] | string {
  if (given === undefined) return DEFAULT_BRANDS;
  const ids: string[] = table().map((e) => e.brand.id);
  const ok = Array.isArray(given) && given.length > 0 && given.every((b) => ids.includes(b));
  return ok ? [...new Set(given as BrandId[])] : `brands must be a non-empty list of brand ids among ${ids.join(', ')}`;
}

/**
 * A number of no brand the merchant takes: no brand the digits may still become is among `brands` (`30`
 * can only be Diners Club). Not the decided brand alone: `50` is Maestro until `506699` makes it Elo,
 * and a merchant who takes Elo must not see an Elo card refused on the way. A whole number (12 digits
 * or more, past every pattern) may only be its decided brand, so what is sent is checked as before.
 */
const unsupported = (value: string, brands: readonly BrandId[]) => {
  const may = brandsFor(value);
  return may.length > 0 && !may.some((b) => brands.includes(b.id));
};

/**
 * Validity of a field's value, and why it is not valid (`cvvSizes` from the number's brand; `brands`
 * the number's brands the merchant takes; `typing`: the person is in the field now). A number of
 * another brand is neither valid nor potentially valid: it shows as invalid at once.
 */
export function checkField(
  name: FieldName,
  value: string,
  sizes: number[] = ANY_CVV,
  brands: readonly BrandId[] = DEFAULT_BRANDS,
  typing = false,
): Pick<FieldState, 'isValid' | 'isPotentiallyValid' | 'reason'> {
  const check: { isValid: boolean; isPotentiallyValid: boolean; brand?: Brand; isExpired?: boolean } =
    name === 'number'
      ? validateNumber(value)
      : name === 'expiry'
        ? validateExpiryText(value)
        : name === 'cvv'
          ? validateCvv(value, sizes)
          : checkName(value);
  const { isValid, isPotentiallyValid } = check;
  let reason: FieldReason | undefined;
  if (value.trim() === '') reason = 'empty';
  else if (name === 'number' && unsupported(value, brands)) reason = 'unsupported_brand';
  else if (isValid) return { isValid, isPotentiallyValid };
  else if (check.isExpired) reason = 'expired';
  // A typo, once the person has left the field: a length of its brand whose check digit fails. A Visa
  // of 16 digits may still become 19, but a payer who stopped at 16 mistyped one, not left one out.
  else reason = isPotentiallyValid && (typing || !check.brand?.lengths.includes(countDigits(value))) ? 'incomplete' : 'invalid';
  return { isValid: false, isPotentiallyValid: isPotentiallyValid && reason !== 'unsupported_brand' && reason !== 'invalid', reason };
}
