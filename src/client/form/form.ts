/**
 * What `mountFields` and `attachForm` share: the form's state and events, the classes on the
 * merchant's elements, validation before any request, one tokenisation at a time, and a `destroy`
 * that is safe to call twice. The two differ only in their `FormOps`.
 */
// Straight to the file: the fields/ index would bring the card core to a page that only mounts fields.
import { showsInvalid } from '../../fields/state';
import type { BrandInfo, Config, FieldState } from '../../protocol/messages';
import type { FieldEvent, FieldName, LocaleTag } from '../../protocol/names';
import { PayframeError } from '../../shared/errors';
import { plainCopy } from '../../shared/plain';
import type { CvvAnswer } from '../../protocol/wire';
import type { TokenizeResult } from '../../nonce/read';
import { createEvents } from './events';
import type { CardForm, FormState, PostCvvOptions } from './types';

export interface FormOps {
  focus(field: FieldName): void;
  clear(field: FieldName): void;
  placeholder(field: FieldName, text: string): void;
  /** Another locale, and the merchant's texts when given (unchecked: each form checks what it shows). */
  locale(locale: LocaleTag, texts: unknown): void;
  /** Applies `setDisabled`'s or `setStyles`' change to the fields in place. */
  set(change: Pick<Config, 'disabled' | 'styles'>): void;
  /** The fields refused by `tokenize()` now show as invalid. */
  touch(fields: FieldName[]): void;
  /** After the classes: whether the field shows as invalid (undefined when the form lets go of it). */
  painted?(field: FieldName, invalid: boolean | undefined): void;
  /** Tokenises; absent on a CVV-only form. */
  send?(signal: AbortSignal | undefined): Promise<TokenizeResult>;
  /** A CVV-only form's post: checks the options (rejecting with a PayframeError), then answers what sends it. */
  post?(options: PostCvvOptions): Promise<() => Promise<CvvAnswer>>;
  teardown(): void;
}

export interface FormControl {
  form: CardForm;
  /** A field reported its state; `event` names what happened, if anything the merchant hears. */
  update(field: FieldName, event: FieldEvent | undefined, state: FieldState, brand?: BrandInfo | null): void;
  ready(): void;
  /** The mount failed: tear down, reject `ready`, tell `error` handlers. */
  fail(error: PayframeError): void;
}

/** The classes on each field's element (the container, or the merchant's own input): `payframe-field`, and `payframe-field--<state>`. */
const CLASS = 'payframe-field';
const SHOWN = ['focused', 'valid', 'invalid', 'empty'] as const;

/** The error of a call on a destroyed form, or one that was waiting when it was destroyed. */
export const destroyedError = () => new PayframeError('aborted', 'the card form was destroyed');

export function createForm(elements: Map<FieldName, Element>, ops: FormOps): FormControl {
  const names = [...elements.keys()];
  const fields = new Map<FieldName, FieldState>(
    names.map((n) => [n, { isEmpty: true, isValid: false, isPotentiallyValid: true, isFocused: false, reason: 'empty' }]),
  );
  const touched = new Set<FieldName>();
  const events = createEvents();
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
    events.clear();
  };
  names.forEach((name) => paint(name));

  /** The fields that are not valid now show as invalid, and the call is refused naming them and why (the frames' reasons). */
  const refuseIncomplete = () => {
    const bad = names.filter((n) => !fields.get(n)!.isValid);
    if (bad.length === 0) return;
    const reasons: Partial<Record<FieldName, FieldState['reason']>> = {};
    for (const n of bad) {
      touched.add(n);
      paint(n);
      reasons[n] = fields.get(n)!.reason;
    }
    ops.touch(bad);
    throw new PayframeError('invalid_card', `incomplete card details: ${bad.join(', ')}`, { fields: bad, reasons });
  };

  /**
   * One call at a time: `prepared` is what sends the call, or a promise of it once the call's options
   * are checked; then every field is validated (an incomplete form sends nothing and changes no value),
   * and only then it is sent. Every call's options are checked, one made while another runs too (a
   * double click): refused, it says so; accepted, it answers the call in flight, which alone sends.
   */
  const once = <T>(prepared: (() => Promise<T>) | Promise<() => Promise<T>>): Promise<T> => {
    const current = running as Promise<T> | undefined;
    // On a form whose mount failed, `ready` holds why (FRAME_BLOCKED_BY_CSP, a live baseUrl without
    // frameUrl, ...): the call says that, not merely that the form is gone.
    if (destroyed || current) return Promise.resolve(prepared).then(() => current ?? ready.then(() => Promise.reject(destroyedError())));
    running = (async () => {
      const run = await prepared;
      await ready;
      refuseIncomplete();
      return Promise.race([run(), gone]);
    })().finally(() => (running = undefined));
    return running as Promise<T>;
  };

  const form: CardForm = {
    ready,
    on(event, handler) {
      events.on(event, handler);
      return () => form.off(event, handler);
    },
    off: events.off,
    getState,
    focus: (name) => void (checkName(name) && ops.focus(name)),
    clear: (name) => void (checkName(name) && ops.clear(name)),
    setPlaceholder(name, text) {
      if (typeof text !== 'string' || text.length > 200)
        throw new PayframeError('invalid_request', 'the placeholder must be text of at most 200 characters');
      if (checkName(name)) ops.placeholder(name, text);
    },
    setLocale(locale, texts) {
      if (!destroyed) ops.locale(locale, texts);
    },
    setDisabled(disabled) {
      if (typeof disabled !== 'boolean') throw new PayframeError('invalid_request', 'setDisabled takes true or false');
      if (!destroyed) ops.set({ disabled });
    },
    setStyles(styles) {
      // Wrapped: `undefined` takes the styles away, and must reach the frames as such.
      const plain = plainCopy({ styles }, () => new PayframeError('invalid_request', 'styles must be plain data'));
      if (!destroyed) ops.set({ styles: plain.styles });
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
      if (event) events.emit(event === 'input' ? 'change' : event, getState(), name);
      if (before.isValid !== state.isValid || before.isPotentiallyValid !== state.isPotentiallyValid)
        events.emit('validityChange', getState(), name);
      if (brandMoved) events.emit('brandChange', getState(), name);
    },
    ready() {
      if (destroyed || loaded) return;
      loaded = true;
      settle();
      events.emit('ready', getState());
    },
    fail(error) {
      if (destroyed) return;
      const tell = events.taken('error');
      destroy(error);
      tell(error);
    },
  };
}
