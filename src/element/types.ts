/** The public shape of `<payframe-card-fields>`: its properties, methods and DOM events. */
import type {
  Authorization,
  BrandId,
  CardForm,
  Client,
  CvvAnswer,
  FieldName,
  FieldStyles,
  FieldTextsByLocale,
  FontSource,
  FormState,
  LocaleTag,
  PayframeError,
  PostCvvOptions,
  TokenizeOptions,
  TokenizeResult,
} from '../index';

/** The DOM events the element dispatches, each the form's event of the same name in lower case; only `change` bubbles. */
export interface CardFieldsEventMap {
  ready: CustomEvent<{ state: FormState }>;
  focus: CustomEvent<{ state: FormState; field: FieldName }>;
  blur: CustomEvent<{ state: FormState; field: FieldName }>;
  change: CustomEvent<{ state: FormState; field: FieldName }>;
  validitychange: CustomEvent<{ state: FormState; field: FieldName }>;
  brandchange: CustomEvent<{ state: FormState; field: FieldName }>;
  submit: CustomEvent<{ state: FormState; field: FieldName }>;
  error: CustomEvent<{ error: PayframeError }>;
}

/** What the element holds as properties only (objects and functions: no attribute can carry them). */
export interface CardFieldsProps {
  /** From `createClient`; or leave it unset and give `merchant-id`, `gateway-url` and `authorization`. */
  client?: Client;
  /** The client token provider of the client the element makes from `merchant-id` and `gateway-url`. */
  authorization?: Authorization;
  /** Applied in place (`setStyles`), compared by value. */
  styles?: FieldStyles;
  /** Compared by value: another list mounts another form. */
  fonts?: FontSource[];
  /** Applied in place with the locale (`setLocale`), compared by value. */
  texts?: FieldTextsByLocale;
  /** The brands you take (or the attribute `brands`, space-separated); another list mounts another form. */
  brands?: BrandId[];
}

export interface CardFieldsElement extends HTMLElement, CardFieldsProps {
  /** The attribute `locale`: applied in place. */
  locale: LocaleTag | undefined;
  /** The attribute `disabled`: while a payment runs, the fields take no input. */
  disabled: boolean;
  /** The mounted form (for `focus`, `clear`); undefined until it is mounted and after it is removed. */
  readonly form: CardForm | undefined;
  /** The form's last state; the empty state before a form. */
  readonly state: FormState;
  /** Why there is no working form, or the last change the form refused. */
  readonly error: PayframeError | undefined;
  /** The form's `tokenize()`; without a form, rejects with `error`, else `invalid_request`. */
  tokenize(options?: TokenizeOptions): Promise<TokenizeResult>;
  postCvv(options: PostCvvOptions): Promise<CvvAnswer>;
  /** Sets `disabled`. */
  setDisabled(disabled: boolean): void;
  /** Sets `styles`. */
  setStyles(styles: FieldStyles | undefined): void;
  addEventListener<K extends keyof CardFieldsEventMap>(
    type: K,
    listener: (this: CardFieldsElement, event: CardFieldsEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
}
