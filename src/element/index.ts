// The `payframe/element` entry: the hosted card form as a custom element, `<payframe-card-fields>`, for
// pages without React (plain HTML, Vue, Svelte, Angular). Importing it touches no window or document:
// `defineElements()` defines the element, in the browser, when the page calls it.
import { cardFieldsClass } from './card-fields';

export type { CardFieldsElement, CardFieldsEventMap, CardFieldsProps } from './types';

export const CARD_FIELDS_TAG = 'payframe-card-fields';

/**
 * Defines `<payframe-card-fields>` in `registry` (the page's `customElements` by default). Safe to call
 * twice, and where there is no registry (a server rendering the page): it does nothing then.
 */
export function defineElements(registry: CustomElementRegistry | undefined = globalThis.customElements): void {
  if (registry && !registry.get(CARD_FIELDS_TAG)) registry.define(CARD_FIELDS_TAG, cardFieldsClass());
}
