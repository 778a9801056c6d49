/** The card form as the merchant holds it: `mountFields` and `attachForm` answer one. */
import type { BrandInfo, FieldState, FieldStyles, TokenizeResult } from '../../protocol/messages';
import type { PayframeError } from '../../shared/errors';
import type { FieldName, LocaleTag } from '../../shared/names';
import type { FieldTextsByLocale } from './mount-options';
import type { CvvAnswer } from '../../protocol/wire';
import type { TokenizeOptions } from '../core/types';

export interface FormState {
  /** The mounted fields only. */
  fields: Partial<Record<FieldName, FieldState>>;
  /** The number's brand, once it is known. */
  brand: BrandInfo | undefined;
  /** Every field is valid: `tokenize()` will send the card. */
  isValid: boolean;
}

type FieldHandler = (state: FormState, field: FieldName) => void;
export interface FormEvents {
  ready: (state: FormState) => void;
  focus: FieldHandler;
  blur: FieldHandler;
  /** Every edit: typing, deleting, pasting, autofill, `clear()`. */
  change: FieldHandler;
  /** A field's `isValid` or `isPotentiallyValid` moved. */
  validityChange: FieldHandler;
  brandChange: FieldHandler;
  /** Enter in a field. */
  submit: FieldHandler;
  /** The mount failed (the same error `ready` rejects with). */
  error: (error: PayframeError) => void;
}

export interface CardForm {
  /** Resolves when every field can be typed in; rejects `timeout` (naming the fields) or `aborted`. */
  readonly ready: Promise<void>;
  /** Answers a function that removes the handler. */
  on<K extends keyof FormEvents>(event: K, handler: FormEvents[K]): () => void;
  off<K extends keyof FormEvents>(event: K, handler: FormEvents[K]): void;
  getState(): FormState;
  focus(field: FieldName): void;
  clear(field: FieldName): void;
  setPlaceholder(field: FieldName, text: string): void;
  /**
   * Turns the fields to another language (and direction) in place, keeping what was typed; `texts`, when
   * given, replace the mount's (a locale of your own comes with its texts). `invalid_request` for a locale
   * neither shipped nor given; texts the frames refuse fail the form (`invalid_config`, its `error` event).
   * `attachForm` has nothing to turn.
   */
  setLocale(locale: LocaleTag, texts?: FieldTextsByLocale): void;
  /**
   * `true` while a payment runs: the fields take no input and say so to assistive technology (`disabled`
   * inputs, the `disabled` state of `styles`); `false` gives them back. What was typed stays.
   */
  setDisabled(disabled: boolean): void;
  /** Replaces `mountFields`' `styles` in place, keeping what was typed; `attachForm`'s inputs are the merchant's own to style. */
  setStyles(styles: FieldStyles | undefined): void;
  /**
   * Validates, then exchanges the card for a nonce. An incomplete form rejects `invalid_card` with
   * `fields`, sends nothing and changes no value. A call while one runs answers the same promise.
   */
  tokenize(options?: TokenizeOptions): Promise<TokenizeResult>;
  /**
   * A form of the CVV field alone (`mountFields` with `fields: { cvv }`): validates, then the CVV frame
   * POSTs `{ ...body, cvv }` as JSON to `url`, on this page's own origin, and answers the payment's
   * outcome the route sent back (a `CvvAnswer`, as `handlers.cvv()` answers it: nothing else of the
   * route's answer reaches the page). The page's scripts never see the CVV. Bad options reject before
   * anything is sent (`unsafe_url` for another origin); an incomplete CVV rejects `invalid_card`; a
   * refusal rejects with its code and reason, without the route's text. A call while one runs answers
   * the same promise.
   */
  postCvv(options: PostCvvOptions): Promise<CvvAnswer>;
  /** Removes every frame, listener and class; safe to call twice. */
  destroy(): void;
}

export interface PostCvvOptions {
  /** The merchant's route, on this page's origin exactly (a path such as `/pay/saved-card` is resolved against the page). */
  url: string;
  /** What the route needs besides the CVV (a one-time ticket, the saved card's id): a JSON object without a `cvv` key. */
  body?: Record<string, unknown>;
  signal?: AbortSignal;
  /** The whole call; default: the client's `timeoutMs`. */
  timeoutMs?: number;
}
