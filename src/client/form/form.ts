/**
 * What `mountFields` and `attachForm` share: the `CardForm` object on the form's state and events
 * (state.ts), validation before any request, one tokenisation at a time, and a `destroy` that is safe
 * to call twice. The two differ only in their `FormOps`.
 */
import type { BrandInfo, Command, Config, FieldState, Out, TokenizeResult } from '../../protocol/messages';
import type { FieldEvent, FieldName, LocaleTag } from '../../shared/names';
import { isText, MAX_TEXT } from '../../protocol/is';
import { PayframeError } from '../../shared/errors';
import { plainCopy } from '../../shared/plain';
import type { CvvAnswer } from '../../protocol/wire';
import { formState } from './state';
import type { CardForm, PostCvvOptions } from './types';

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

/** The error of a call on a destroyed form, or one that was waiting when it was destroyed. */
export const destroyedError = () => new PayframeError('aborted', 'the card form was destroyed');

const refused = (message: string) => new PayframeError('invalid_request', message);

type Setters = Pick<CardForm, 'focus' | 'clear' | 'setPlaceholder' | 'setLocale' | 'setDisabled' | 'setStyles'>;

/** The form's setters: each refuses a bad argument at once, and changes nothing on a destroyed form. */
function setters(ops: FormOps, command: (name: FieldName, m: Out<Command>) => void, destroyed: () => boolean): Setters {
  return {
    focus: (name) => command(name, { t: 'focus' }),
    clear: (name) => command(name, { t: 'clear' }),
    setPlaceholder(name, text) {
      if (!isText(text)) throw refused(`the placeholder must be text of at most ${MAX_TEXT} characters`);
      command(name, { t: 'placeholder', text });
    },
    setLocale(locale, texts) {
      if (!destroyed()) ops.locale(locale, texts);
    },
    setDisabled(disabled) {
      if (typeof disabled !== 'boolean') throw refused('setDisabled takes true or false');
      if (!destroyed()) ops.set({ disabled });
    },
    setStyles(styles) {
      // Wrapped: `undefined` takes the styles away, and must reach the frames as such.
      const plain = plainCopy({ styles }, () => refused('styles must be plain data'));
      if (!destroyed()) ops.set({ styles: plain.styles });
    },
  };
}

/**
 * One call at a time: `prepared` is what sends the call, or a promise of it once the call's options
 * are checked; then every field is validated (an incomplete form sends nothing and changes no value),
 * and only then it is sent. Every call's options are checked, one made while another runs too (a
 * double click): refused, it says so; accepted, it answers the call in flight, which alone sends.
 */
function oneAtATime(ready: Promise<void>, gone: Promise<never>, check: () => void, destroyed: () => boolean) {
  let running: Promise<unknown> | undefined;
  return <T>(prepared: (() => Promise<T>) | Promise<() => Promise<T>>): Promise<T> => {
    const current = running as Promise<T> | undefined;
    // On a form whose mount failed, `ready` holds why (FRAME_BLOCKED_BY_CSP, a live baseUrl without
    // frameUrl, ...): the call says that, not merely that the form is gone.
    if (destroyed() || current) return Promise.resolve(prepared).then(() => current ?? ready.then(() => Promise.reject(destroyedError())));
    running = (async () => {
      const run = await prepared;
      await ready;
      check();
      return Promise.race([run(), gone]);
    })().finally(() => (running = undefined));
    return running as Promise<T>;
  };
}

export function createForm(elements: Map<FieldName, Element>, ops: FormOps): FormControl {
  const state = formState(elements, ops);
  /** `check`: the form's own check before a call sends, every field valid now or the call refused naming those that are not. */
  const { getState, check } = state;
  let destroyed = false;
  let loaded = false;
  let settle!: (error?: PayframeError) => void;
  const ready = new Promise<void>((resolve, reject) => (settle = (error) => (error ? reject(error) : resolve())));
  // Rejects when the form is destroyed: a tokenise that waits (for a token, say) stops waiting then.
  let end!: (error: PayframeError) => void;
  const gone = new Promise<never>((_, reject) => (end = reject));
  // A form nobody awaits (destroyed at once by a StrictMode remount) must not be an unhandled rejection.
  for (const p of [ready, gone]) p.catch(() => undefined);

  /** A command to a field this form has, unless it is destroyed. */
  const command = (name: FieldName, m: Out<Command>) => {
    if (!elements.has(name)) throw refused(`no ${String(name)} field in this form`);
    if (!destroyed) ops.command(name, m);
  };
  const destroy = (error = destroyedError()) => {
    if (destroyed) return;
    destroyed = true;
    settle(error);
    end(destroyedError());
    ops.teardown();
    state.clean();
  };

  const once = oneAtATime(ready, gone, check, () => destroyed);

  const form: CardForm = {
    ready,
    on: (event, handler) => state.on(event, handler, refused),
    off: state.off,
    getState,
    ...setters(ops, command, () => destroyed),
    tokenize(options) {
      const { send } = ops;
      return send
        ? once(() => send(options?.signal, check))
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
    update(name, event, s, brand) {
      if (!destroyed) state.update(name, event, s, brand);
    },
    ready() {
      if (destroyed || loaded) return;
      loaded = true;
      settle();
      state.emit('ready');
    },
    fail(error) {
      if (destroyed) return;
      const tell = state.taken('error');
      destroy(error);
      tell(error);
    },
  };
}
