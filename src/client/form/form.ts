/**
 * What `mountFields` and `attachForm` share: the form's state and events, the classes on the
 * merchant's elements, validation before any request, one tokenisation at a time, and a `destroy`
 * that is safe to call twice. The two differ only in their `FormOps`.
 */
import { PayframeError } from '../../shared/errors';
import type { FieldEvent } from '../../fields';
// Straight to the file: the fields/ index would bring the card core to a page that only mounts fields.
import { type BrandInfo, type FieldName, type FieldState, showsInvalid } from '../../fields/state';
import type { Locale } from '../../protocol';
import type { TokenizeResult } from '../../tokenize';
import type { TokenizeOptions } from '../core/tokenize';

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
  /** Turns the fields to another language (and direction) in place, keeping what was typed; `attachForm` has nothing to turn. */
  setLocale(locale: Locale): void;
  /**
   * Validates, then exchanges the card for a nonce. An incomplete form rejects `invalid_card` with
   * `fields`, sends nothing and changes no value. A call while one runs answers the same promise.
   */
  tokenize(options?: TokenizeOptions): Promise<TokenizeResult>;
  /**
   * A form of the CVV field alone (`mountFields` with `fields: { cvv }`): validates, then the CVV frame
   * POSTs `{ ...body, cvv }` as JSON to `url`, on this page's own origin, and answers the JSON the
   * merchant's server sent back. The page's scripts never see the CVV. Bad options reject before
   * anything is sent (`unsafe_url` for another origin); an incomplete CVV rejects `invalid_card`. A
   * call while one runs answers the same promise.
   */
  postCvv(options: PostCvvOptions): Promise<unknown>;
  /** Removes every frame, listener and class; safe to call twice. */
  destroy(): void;
}

export interface PostCvvOptions {
  /** The merchant's route, on this page's origin exactly (a path such as `/pay/kept-card` is resolved against the page). */
  url: string;
  /** What the route needs besides the CVV (a one-time ticket, the kept card's id): a JSON object without a `cvv` key. */
  body?: Record<string, unknown>;
  signal?: AbortSignal;
  /** The whole call; default: the client's `timeoutMs`. */
  timeoutMs?: number;
}

export interface FormOps {
  focus(field: FieldName): void;
  clear(field: FieldName): void;
  placeholder(field: FieldName, text: string): void;
  locale(locale: Locale): void;
  /** The fields refused by `tokenize()` now show as invalid. */
  touch(fields: FieldName[]): void;
  /** After the classes: whether the field shows as invalid (undefined when the form lets go of it). */
  painted?(field: FieldName, invalid: boolean | undefined): void;
  /** Tokenises; absent on a CVV-only form. */
  send?(signal: AbortSignal | undefined): Promise<TokenizeResult>;
  /** A CVV-only form's post: checks the options (rejecting with a PayframeError), then answers what sends it. */
  post?(options: PostCvvOptions): Promise<() => Promise<unknown>>;
  teardown(): void;
}

/** The classes on each field's element (the container, or the merchant's own input): `payframe-field`, and `payframe-field--<state>`. */
const CLASS = 'payframe-field';
const SHOWN = ['focused', 'valid', 'invalid', 'empty'] as const;

/** The error of a call on a destroyed form, or one that was waiting when it was destroyed. */
export const destroyedError = () => new PayframeError('aborted', 'the card form was destroyed');

export interface FormControl {
  form: CardForm;
  /** A field reported its state; `event` names what happened, if anything the merchant hears. */
  update(field: FieldName, event: FieldEvent | undefined, state: FieldState, brand?: BrandInfo | null): void;
  ready(): void;
  /** The mount failed: tear down, reject `ready`, tell `error` handlers. */
  fail(error: PayframeError): void;
}

const EVENTS = ['ready', 'focus', 'blur', 'change', 'validityChange', 'brandChange', 'submit', 'error'];

export function createForm(elements: Map<FieldName, Element>, ops: FormOps): FormControl {
  const names = [...elements.keys()];
  const fields = new Map<FieldName, FieldState>(names.map((n) => [n, { isEmpty: true, isValid: false, isPotentiallyValid: true, isFocused: false }]));
  const touched = new Set<FieldName>();
  const handlers = new Map<keyof FormEvents, Set<(...args: any[]) => void>>();
  let brand: BrandInfo | undefined;
  let running: Promise<unknown> | undefined;
  let destroyed = false;
  let loaded = false;
  let settle!: (error?: PayframeError) => void;
  const ready = new Promise<void>((resolve, reject) => (settle = (error) => (error ? reject(error) : resolve())));
  // Rejects when the form is destroyed: a tokenise that waits (for a token, say) stops waiting then.
  let end!: (error: PayframeError) => void;
  const gone = new Promise<never>((_, reject) => (end = reject));
  // A form nobody awaits (destroyed at once by a StrictMode remount) must not be an unhandled rejection.
  ready.catch(() => undefined);
  gone.catch(() => undefined);

  const getState = (): FormState => ({
    fields: Object.fromEntries([...fields].map(([n, s]) => [n, { ...s }])),
    brand: brand && { ...brand, code: { ...brand.code } },
    isValid: [...fields.values()].every((s) => s.isValid),
  });
  const call = (list: ((...args: any[]) => void)[], args: unknown[]) => {
    for (const handler of list) {
      try {
        handler(...args);
      } catch (error) {
        queueMicrotask(() => {
          throw error; // the merchant's bug surfaces as theirs, and the other handlers still run
        });
      }
    }
  };
  const emit = (event: keyof FormEvents, ...args: unknown[]) => call([...(handlers.get(event) ?? [])], args);
  const paint = (name: FieldName, clean = false) => {
    const el = elements.get(name)!;
    const s = fields.get(name)!;
    const invalid = !clean && showsInvalid(s, touched.has(name));
    const on = { focused: s.isFocused, valid: s.isValid, invalid, empty: s.isEmpty };
    el.classList.toggle(CLASS, !clean);
    for (const key of SHOWN) el.classList.toggle(`${CLASS}--${key}`, !clean && on[key]);
    ops.painted?.(name, clean ? undefined : invalid);
  };
  const checkName = (name: FieldName) => {
    if (!fields.has(name)) throw new PayframeError('invalid_request', `no ${String(name)} field in this form`);
    return !destroyed;
  };
  const destroy = (error = destroyedError()) => {
    if (destroyed) return;
    destroyed = true;
    settle(error);
    end(destroyedError());
    ops.teardown();
    for (const name of names) paint(name, true);
    handlers.clear();
  };
  names.forEach((name) => paint(name));

  /**
   * One call at a time: `prepared` is what sends the call, or a promise of it once the call's options
   * are checked; then every field is validated (an incomplete form sends nothing and changes no value),
   * and only then it is sent. Every call's options are checked, one made while another runs too (a
   * double click): refused, it says so; accepted, it answers the call in flight, which alone sends.
   */
  const once = <T>(prepared: (() => Promise<T>) | Promise<() => Promise<T>>): Promise<T> => {
    const current = running as Promise<T> | undefined;
    if (destroyed || current) return Promise.resolve(prepared).then(() => current ?? Promise.reject(destroyedError()));
    running = (async () => {
      const run = await prepared;
      await ready;
      const bad = names.filter((n) => !fields.get(n)!.isValid);
      if (bad.length > 0) {
        for (const n of bad) {
          touched.add(n);
          paint(n);
        }
        ops.touch(bad);
        throw new PayframeError('invalid_card', `incomplete card details: ${bad.join(', ')}`, { fields: bad });
      }
      return Promise.race([run(), gone]);
    })().finally(() => (running = undefined));
    return running as Promise<T>;
  };

  const form: CardForm = {
    ready,
    on(event, handler) {
      if (!EVENTS.includes(event) || typeof handler !== 'function') {
        throw new PayframeError('invalid_request', `on() takes one of ${EVENTS.join(', ')} and a function`);
      }
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event)!.add(handler);
      return () => form.off(event, handler);
    },
    off: (event, handler) => void handlers.get(event)?.delete(handler),
    getState,
    focus: (name) => void (checkName(name) && ops.focus(name)),
    clear: (name) => void (checkName(name) && ops.clear(name)),
    setPlaceholder(name, text) {
      if (typeof text !== 'string' || text.length > 200) throw new PayframeError('invalid_request', 'the placeholder must be text of at most 200 characters');
      if (checkName(name)) ops.placeholder(name, text);
    },
    setLocale(locale) {
      if (locale !== 'en' && locale !== 'ar') throw new PayframeError('invalid_request', "locale must be 'en' or 'ar'");
      if (!destroyed) ops.locale(locale);
    },
    tokenize(options) {
      const { send } = ops;
      if (!send) return Promise.reject(new PayframeError('invalid_request', 'a form of the CVV alone has postCvv(), not tokenize()'));
      return once(() => send(options?.signal));
    },
    postCvv(options) {
      const { post } = ops;
      if (!post) return Promise.reject(new PayframeError('invalid_request', 'only a form of the CVV alone has postCvv()'));
      return once(post(options));
    },
    destroy: () => destroy(),
  };

  return {
    form,
    update(name, event, state, next) {
      if (destroyed) return;
      const before = fields.get(name)!;
      const brandMoved = next !== undefined && next?.id !== brand?.id;
      fields.set(name, state);
      if (brandMoved) brand = next ?? undefined;
      paint(name);
      if (event) emit(event === 'input' ? 'change' : event, getState(), name);
      if (before.isValid !== state.isValid || before.isPotentiallyValid !== state.isPotentiallyValid) emit('validityChange', getState(), name);
      if (brandMoved) emit('brandChange', getState(), name);
    },
    ready() {
      if (destroyed || loaded) return;
      loaded = true;
      settle();
      emit('ready', getState());
    },
    fail(error) {
      if (destroyed) return;
      const listeners = [...(handlers.get('error') ?? [])];
      destroy(error);
      call(listeners, [error]);
    },
  };
}
