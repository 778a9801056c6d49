/**
 * A card field's state and how it shows, without the card core: the page side of the hosted form
 * imports this file alone.
 */
import type { Brand, BrandId } from '../card';

export interface FieldState {
  isEmpty: boolean;
  /** Complete and correct. */
  isValid: boolean;
  /** What is typed can still become valid (`isValid` implies it). */
  isPotentiallyValid: boolean;
  isFocused: boolean;
}

/** What the page may know of the brand while the person types. */
export interface BrandInfo {
  id: BrandId;
  name: string;
  /** The security code's name on this brand (CVV, CVC, CID, ...) and its size. */
  code: { name: string; size: number };
}

export const brandInfo = (b: Brand | undefined): BrandInfo | null =>
  b ? { id: b.id, name: b.name, code: { name: b.code.name, size: b.code.size } } : null;

/**
 * Whether a field shows as invalid: what is typed cannot become valid, or it is incomplete and the
 * person has left it (or tried to pay). An empty field the person only passed through is not.
 */
export function showsInvalid(state: FieldState, touched: boolean): boolean {
  return !state.isPotentiallyValid || (!state.isValid && (touched || (!state.isFocused && !state.isEmpty)));
}
