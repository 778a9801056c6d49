import { type Brand, detectBrand } from '../card';
import type { BrandId } from '../card/brands';
import type { FieldEvent, FieldName } from '../shared/names';
import { ANY_CVV, applyEdit, checkField, DEFAULT_BRANDS } from './rules';
import type { FieldState } from '../protocol/messages';

export interface BoundField {
  readonly name: FieldName;
  state(): FieldState;
  /** The number's brand (number field only). */
  brand(): Brand | undefined;
  /** The CVV sizes of the number's brand; `ANY_CVV` while it is unknown. */
  setCvvSizes(sizes: number[]): void;
  /** The brands the merchant takes (number field only): a number of another is `unsupported_brand`. */
  brands: readonly BrandId[];
  clear(): void;
  /** Removes the listeners; the input and its value stay. */
  unbind(): void;
}

/**
 * Makes an `<input>` a card field: formatting as the person types or pastes, validity, and the events
 * the form reports. `changed` runs after every edit that changed the value, focus, blur and Enter.
 */
export function bindField(input: HTMLInputElement, name: FieldName, changed: (event: FieldEvent) => void): BoundField {
  let sizes = ANY_CVV;
  let previous = input.value;
  let focused = input.ownerDocument.activeElement === input;

  const onInput = (event: Event) => {
    const edit = {
      value: input.value,
      caret: input.selectionStart ?? input.value.length,
      previous,
      inputType: (event as InputEvent).inputType,
    };
    const next = applyEdit(name, edit, sizes);
    if (next.value !== input.value) input.value = next.value;
    if (focused) input.setSelectionRange(next.caret, next.caret);
    if (next.value === previous) return;
    previous = next.value;
    changed('input');
  };
  const onFocus = () => ((focused = true), changed('focus'));
  const onBlur = () => ((focused = false), changed('blur'));
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.isComposing) changed('submit');
  };
  input.addEventListener('input', onInput);
  input.addEventListener('focus', onFocus);
  input.addEventListener('blur', onBlur);
  input.addEventListener('keydown', onKey);

  const field: BoundField = {
    name,
    brands: DEFAULT_BRANDS,
    state: () => ({ isEmpty: input.value === '', ...checkField(name, input.value, sizes, field.brands, focused), isFocused: focused }),
    brand: () => (name === 'number' ? detectBrand(input.value) : undefined),
    setCvvSizes(next) {
      sizes = next;
    },
    clear() {
      input.value = previous = '';
      changed('input');
    },
    unbind() {
      input.removeEventListener('input', onInput);
      input.removeEventListener('focus', onFocus);
      input.removeEventListener('blur', onBlur);
      input.removeEventListener('keydown', onKey);
    },
  };
  return field;
}
