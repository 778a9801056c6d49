/**
 * `<payframe-card-fields>`: one hosted card form (`mountFields`) mounted into the elements inside it
 * that carry `data-payframe-field="number"` (`expiry`, `cvv`, `name`), for pages without React: plain
 * HTML, Vue, Svelte, Angular. Built on the public entry alone, as `payframe/react` is.
 *
 * Why field boxes are the merchant's own elements, marked by an attribute, and not child elements of
 * ours: a `<div>` is a block box that takes the page's classes and a `<label for>` as the plain hosted
 * form's containers do, and a framework renders it as any other `<div>` (it never patches the frame
 * mountFields puts inside, as the box has no children of its own). A custom child element would be
 * inline until the merchant's style sheet says otherwise, and the element may add no style (CSP).
 *
 * The traps, and what avoids each:
 * - a framework sets properties and attributes one by one, after or before inserting the element: every
 *   change queues one sync (a microtask), which mounts once everything set in that task is there;
 * - a move in the document (disconnect, then connect, in one task): the form is kept, as `mountFields`
 *   keeps one whose containers move (the browser reloads the frames empty); only an element still
 *   out of the document a task later is cleaned up;
 * - option objects new at each render: styles, fonts and texts are compared by value (JSON);
 * - locale, texts, styles, disabled and placeholders are applied in place, no remount.
 */
import type { BrandId, FieldStyles, LocaleTag, PostCvvOptions, TokenizeOptions } from '../index';
import { Binding, FIELD } from './binding';
import type { CardFieldsElement, CardFieldsProps } from './types';

const ATTRIBUTES = ['merchant-id', 'gateway-url', 'frame-url', 'timeout-ms', 'brands', 'locale', 'disabled'];
const WATCH: MutationObserverInit = { childList: true, subtree: true, attributeFilter: [FIELD, 'placeholder'] };

/** The element's class, made when it is defined (never at import: `HTMLElement` is not there on a server). */
export function cardFieldsClass(): CustomElementConstructor {
  // Each element's binding, out of its public properties.
  const bindings = new WeakMap<object, Binding>();
  const prop = <K extends keyof CardFieldsProps>(key: K) => ({
    get(this: object) {
      return bindings.get(this)!.props[key];
    },
    set(this: object, value: CardFieldsProps[K]) {
      bindings.get(this)!.props[key] = value;
      bindings.get(this)!.queue();
    },
  });
  class PayframeCardFields extends HTMLElement {
    static observedAttributes = ATTRIBUTES;
    readonly #b: Binding = new Binding(this as unknown as CardFieldsElement);
    readonly #watch = new MutationObserver(() => this.#b.queue());
    constructor() {
      super();
      bindings.set(this, this.#b);
    }

    get brands(): BrandId[] | undefined {
      return this.#b.props.brands ?? (this.getAttribute('brands')?.split(' ').filter(Boolean) as BrandId[] | undefined);
    }
    set brands(value) {
      prop('brands').set.call(this, value);
    }
    get locale(): LocaleTag | undefined {
      return this.getAttribute('locale') ?? undefined;
    }
    set locale(value) {
      if (value == null) this.removeAttribute('locale');
      else this.setAttribute('locale', value);
    }
    get disabled() {
      return this.hasAttribute('disabled');
    }
    set disabled(value) {
      this.toggleAttribute('disabled', !!value);
    }
    get form() {
      return this.#b.mounted?.form;
    }
    get state() {
      return this.#b.state;
    }
    get error() {
      return this.#b.error;
    }
    tokenize(options?: TokenizeOptions) {
      return this.#b.mounted?.form.tokenize(options) ?? this.#b.none();
    }
    postCvv(options: PostCvvOptions) {
      return this.#b.mounted?.form.postCvv(options) ?? this.#b.none();
    }
    setDisabled(disabled: boolean) {
      this.disabled = disabled;
    }
    setStyles(styles: FieldStyles | undefined) {
      (this as unknown as CardFieldsElement).styles = styles;
    }
    connectedCallback() {
      this.#watch.observe(this, WATCH);
      this.#b.queue();
    }
    disconnectedCallback() {
      // A move is a disconnect and a connect in one task: the form is kept through it.
      setTimeout(() => {
        if (this.isConnected) return;
        this.#watch.disconnect();
        this.#b.destroy();
      });
    }
    attributeChangedCallback() {
      this.#b.queue();
    }
  }
  for (const key of ['client', 'authorization', 'styles', 'fonts', 'texts'] as const) {
    Object.defineProperty(PayframeCardFields.prototype, key, { ...prop(key), configurable: true });
  }
  return PayframeCardFields;
}
