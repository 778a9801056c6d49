/**
 * How a card field's state shows, without the card core: the page side of the hosted form imports
 * this file alone. The state itself is part of the frames' messages (src/protocol/messages.ts).
 */
import type { Brand } from '../card';
import type { BrandInfo, FieldState } from '../protocol/messages';

export const brandInfo = (b: Brand | undefined): BrandInfo | null =>
  b ? { id: b.id, name: b.name, code: { name: b.code.name, size: b.code.size } } : null;

/**
 * Whether a field shows as invalid: what is typed cannot become valid, or it is incomplete and the
 * person has left it (or tried to pay). An empty field the person only passed through is not.
 */
export function showsInvalid(state: FieldState, touched: boolean): boolean {
  return !state.isPotentiallyValid || (!state.isValid && (touched || (!state.isFocused && !state.isEmpty)));
}
