/**
 * What `mountFields` and `attachForm` share: the form's state and events, the classes on the
 * merchant's elements, validation before any request, one tokenisation at a time, and a `destroy`
 * that is safe to call twice. The two differ only in their `FormOps`.
 */
// Straight to the file: the fields/ index would bring the card core to a page that only mounts fields.
import { showsInvalid } from '../../fields/state';
import type { BrandInfo, Command, Config, FieldState, Out } from '../../protocol/messages';
import { FORM_EVENTS, type FieldEvent, type FieldName, type LocaleTag } from '../../protocol/names';
import { PayframeError } from '../../shared/errors';
import { plainCopy } from '../../shared/plain';
import type { CvvAnswer } from '../../protocol/wire';
import type { TokenizeResult } from '../../nonce/read';
import type { CardForm, FormEvents, FormState, PostCvvOptions } from './types';

export interface FormOps {
  /** `focus`, `clear`, `touch` (the field was refused by `tokenize()`: it now shows as invalid), or a new `placeholder`. */
  command(field: FieldName, m: Out<Command>): void;
  /** Another locale, and the merchant's texts when given (unchecked: each form checks what it shows). */
  locale(locale: LocaleTag, texts: unknown): void;
  /** Applies `setDisabled`'s or `setStyles`' change to the fields in place. */
  set(change: Pick<Config, 'disabled' | 'styles'>): void;
  /** After the classes: whether the field shows as invalid (undefined when the form lets go of it). */
  painted?(field: FieldName, invalid: boolean | undefined): void;
  /** Tokenises; absent on a CVV-only form. `check` refuses the call as an incomplete form would, when a field is not valid now. */
  send?(signal: AbortSignal | undefined, check: () => void): Promise<TokenizeResult>;
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

/** The error of a call on a destroyed form, or one that was waiting when it was destroyed. */
export const destroyedError = () => new PayframeError('aborted', 'the card form was destroyed');

/** A field's state before anything is typed, and again when its frame is made anew. */
export const emptyState = (): FieldState => ({
  isEmpty: true,
  isValid: false,
  isPotentiallyValid: true,
  isFocused: false,
  reason: 'empty',
});

const refused = (message: string) => new PayframeError('invalid_request', message);

type Handler = (...args: any[]) => void;

export function createForm(elements: Map<FieldName, Element>, ops: FormOps): FormControl {
  const names = [...elements.keys()];
  const fields = new Map<FieldName, FieldState>(names.map((n) => [n, emptyState()]));
  const touched = new Set<FieldName>();
  const handlers = new Map<keyof FormEvents, Set<Handler>>();
  /**
   * The handlers of `event` now, as one function that calls each: a handler that throws surfaces as the
   * merchant's own bug, and the others still run.
   */
  const taken = (event: keyof FormEvents) => {
    const list = [...(handlers.get(event) ?? [])];
    return (...args: unknown[]) => {
      for (const handler of list)
        try {
          handler(...args);
        } catch (error) {
          queueMicrotask(() => {
            throw error;
          });
        }
    };
  };
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
  const emit = (event: keyof FormEvents, name?: FieldName) => taken(event)(getState(), name);
  const paint = (name: FieldName, clean = false) => {
    const s = fields.get(name)!;
    const invalid = !clean && showsInvalid(s, touched.has(name));
    const on = { '': true, focused: s.isFocused, valid: s.isValid, invalid, empty: s.isEmpty };
    for (const [key, value] of Object.entries(on)) elements.get(name)!.classList.toggle(key ? `${CLASS}--${key}` : CLASS, !clean && value);
    ops.painted?.(name, clean ? undefined : invalid);
  };
  /** A command to a field this form has, unless it is destroyed. */
  const command = (name: FieldName, m: Out<Command>) => {
    if (!fields.has(name)) throw refused(`no ${String(name)} field in this form`);
    if (!destroyed) ops.command(name, m);
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

  /** The fields that are not valid now show as invalid, and the call is refused naming them and why (the frames' reasons). */
  const refuseIncomplete = () => {
    const bad = names.filter((n) => !fields.get(n)!.isValid);
    if (bad.length === 0) return;
    const reasons: Partial<Record<FieldName, FieldState['reason']>> = {};
    for (const n of bad) {
      touched.add(n);
      paint(n);
      reasons[n] = fields.get(n)!.reason;
      ops.command(n, { t: 'touch' });
    }
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
      if (!FORM_EVENTS.includes(event) || typeof handler !== 'function')
        throw refused(`on() takes one of ${FORM_EVENTS.join(', ')} and a function`);
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event)!.add(handler);
      return () => form.off(event, handler);
    },
    off: (event, handler) => void handlers.get(event)?.delete(handler),
    getState,
    focus: (name) => command(name, { t: 'focus' }),
    clear: (name) => command(name, { t: 'clear' }),
    setPlaceholder(name, text) {
      if (typeof text !== 'string' || text.length > 200) throw refused('the placeholder must be text of at most 200 characters');
      command(name, { t: 'placeholder', text });
    },
    setLocale(locale, texts) {
      if (!destroyed) ops.locale(locale, texts);
    },
    setDisabled(disabled) {
      if (typeof disabled !== 'boolean') throw refused('setDisabled takes true or false');
      if (!destroyed) ops.set({ disabled });
    },
    setStyles(styles) {
      // Wrapped: `undefined` takes the styles away, and must reach the frames as such.
      const plain = plainCopy({ styles }, () => refused('styles must be plain data'));
      if (!destroyed) ops.set({ styles: plain.styles });
    },
    tokenize(options) {
      const { send } = ops;
      return send
        ? once(() => send(options?.signal, refuseIncomplete))
        : Promise.reject(refused('a form of the CVV alone has postCvv(), not tokenize()'));
    },
    postCvv(options) {
      const { post } = ops;
      return post ? once(post(options)) : Promise.reject(refused('only a form of the CVV alone has postCvv()'));
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
      if (event) emit(event === 'input' ? 'change' : event, name);
      if (before.isValid !== state.isValid || before.isPotentiallyValid !== state.isPotentiallyValid) emit('validityChange', name);
      if (brandMoved) emit('brandChange', name);
    },
    ready() {
      if (destroyed || loaded) return;
      loaded = true;
      settle();
      emit('ready');
    },
    fail(error) {
      if (destroyed) return;
      const tell = taken('error');
      destroy(error);
      tell(error);
    },
  };
}
