/**
 * `mountFields`: the card form whose inputs live in iframes on the frame origin. The page creates the
 * frames, styles their containers, and sees only field states, the brand, and at the end the nonce.
 * It never sees a card number or a CVV: the frames gather the card among themselves and call the
 * nonce endpoint with the client token the page hands the number frame for that one call.
 * A form of the CVV field alone (a saved card paid again) has no nonce to make: its frame posts the CVV
 * to the merchant's own server instead (`postCvv`), and the page gets the server's answer.
 */
import type { Config } from '../../protocol/messages';
import type { FieldName } from '../../protocol/names';
import { requestError } from '../../shared/errors';
import type { TokenizeResult } from '../../nonce/read';
import { withToken } from '../core/with-token';
import { loadChunk } from '../load';
import { createForm, destroyedError } from './form';
import { openFrames } from './frames';
import { labelOf } from './labels';
import { checkMount, checkTexts, type MountOptions } from './mount-options';
import type { CardForm, PostCvvOptions } from './types';

/** Mounts the hosted card fields. Returns at once; `ready` says when the person can type. Bad options throw `invalid_config`. */
export function mountFields(options: MountOptions): CardForm {
  const mount = checkMount(options);
  const { core, specs, cvvOnly, brand, extras, signal } = mount;
  const names = [...specs.keys()];
  /** Each field's version in its last state: the number frame pays no value older than what the page validated. */
  const seen: Partial<Record<FieldName, number>> = {};
  /** What a frame's config carries that the form's setters change in place. */
  const now = { locale: mount.locale, ...extras } as Pick<
    Config,
    'locale' | 'styles' | 'fonts' | 'brands' | 'texts' | 'brandMark' | 'disabled'
  >;
  /** Every frame gets its config again (the page's labels read again with it): it applies what changed, keeping what was typed. */
  const set = (change: Partial<typeof now>) => {
    Object.assign(now, change);
    for (const name of names) send(name, config(name));
  };

  const labelFor = (name: FieldName) => specs.get(name)!.label ?? labelOf(specs.get(name)!.container);
  // The frame focuses its own input. The page's iframe.focus() would make that iframe the page's focused
  // element, and Chromium keeps it so when the person then clicks into another field's frame: a Tab from
  // that field "moves" to the iframe already focused, and the next key is lost (issue 17).
  const focus = (name: FieldName) => send(name, { t: 'focus' });
  /** A click on a field's container, or on a `<label>` for it or around it, focuses the field. */
  const onClick = (event: Event) => {
    const target = event.target as Element;
    const label = target.closest?.('label');
    for (const [name, { container }] of specs) {
      const labels = label && ((!!container.id && label.htmlFor === container.id) || label.contains(container));
      if (labels || container.contains(target)) return focus(name);
    }
  };
  const roots = new Set([...specs.values()].map((s) => s.container.getRootNode()));
  const onAbort = () => control.fail(destroyedError());
  const { timeoutMs, retries } = core.config;

  const config = (name: FieldName) => ({
    t: 'config' as const,
    ...now,
    label: labelFor(name),
    placeholder: specs.get(name)!.placeholder,
    fields: names,
    // The frame applies the few known schemes and refuses a config with one over 40 characters (custom
    // idents can make it longer): cut, it is one the frame does not apply, not a frame left blank.
    scheme: getComputedStyle(specs.get(name)!.container).colorScheme.slice(0, 40),
    ...(brand === undefined ? {} : { brand }),
  });
  const frames = openFrames(mount, labelFor, {
    config,
    ready: () => control.ready(),
    state(name, m) {
      seen[name] = m.n;
      control.update(name, m.event, m.state, name === 'number' ? m.brand : undefined);
      // Enter in a field submits the page's form, as in any input of that form.
      if (m.event === 'submit') specs.get(name)!.container.closest('form')?.requestSubmit?.();
    },
    failed: (error) => control.fail(error),
  });
  const { send, ask } = frames;

  const control = createForm(new Map([...specs].map(([name, s]) => [name, s.container])), {
    focus,
    clear: (name) => send(name, { t: 'clear' }),
    placeholder(name, text) {
      specs.get(name)!.placeholder = text;
      send(name, { t: 'placeholder', text });
    },
    // The page's labels may have been translated too: the config reads them again.
    locale(locale, texts) {
      const checked = checkTexts(locale, texts ?? now.texts, requestError);
      set({ locale, texts: checked });
    },
    set,
    touch: (fields) => fields.forEach((name) => send(name, { t: 'touch' })),
    ...(cvvOnly
      ? {
          // Loaded at the first postCvv(): few checkouts pay a saved card again.
          post: (options: PostCvvOptions) =>
            loadChunk(import('./cvv-post'), 'postCvv').then((m) => m.cvvPost(options, location.origin, timeoutMs, ask)),
        }
      : {
          send: (stop: AbortSignal | undefined) =>
            withToken(core, 'tokenize', stop, (token, d) =>
              ask<TokenizeResult>({ t: 'tokenize', token, timeoutMs, retries, seen }, d.signal),
            ),
        }),
    teardown() {
      frames.close();
      roots.forEach((root) => root.removeEventListener('click', onClick));
      signal?.removeEventListener('abort', onAbort);
    },
  });

  roots.forEach((root) => root.addEventListener('click', onClick));
  signal?.addEventListener('abort', onAbort);
  if (signal?.aborted) onAbort();
  return control.form;
}
