/**
 * `mountFields`: the card form whose inputs live in iframes on the frame origin. The page creates the
 * frames, styles their containers, and sees only field states, the brand, and at the end the nonce.
 * It never sees a card number or a CVV: the frames gather the card among themselves and call the
 * nonce endpoint with the client token the page hands the number frame for that one call.
 * A form of the CVV field alone (a saved card paid again) has no nonce to make: its frame posts the CVV
 * to the merchant's own server instead (`postCvv`), and the page gets the server's answer.
 * Every message both ways goes through the mount's port (protocol/port.ts): each message from a frame
 * is taken only from that frame's window, on the frame origin, on this mount's channel; each to a frame
 * names the frame origin exactly. A job's round trip is protocol/ask.ts's.
 */
import type { Ask, Asker, asker } from '../../protocol/ask';
import { frameSrc, newChannel } from '../../protocol/address';
import { readToPage } from '../../protocol/guards';
import type { Config, Out, ToFrame, ToPage } from '../../protocol/messages';
import type { FieldName } from '../../protocol/names';
import { windowPort } from '../../protocol/port';
import { deadline } from '../../shared/deadline';
import { configError, PayframeError, requestError } from '../../shared/errors';
import { loadChunk } from '../load';
import { createForm, destroyedError, emptyState } from './form';
import { labelOf } from './labels';
import { watchLoad } from './load-watch';
import { checkMount, checkTexts, inUse, type MountOptions } from './mount-options';
import type { CardForm, PostCvvOptions } from './types';

/** Chrome's policy names for autofill across frames, given only where this browser knows them (an unknown one is a console warning). */
function autofillPolicy(): string {
  const known: string[] = (document as { featurePolicy?: { features(): string[] } }).featurePolicy?.features() ?? [];
  return ['shared-autofill', 'autofill'].filter((f) => known.includes(f)).join('; ');
}

/** The hosted form's tokenize job: a chunk of its own, fetched when a full form is ready. */
const tokenizeCode = () => loadChunk(import('./tokenize-job'), 'tokenize');

/** Mounts the hosted card fields. Returns at once; `ready` says when the person can type. Bad options throw `invalid_config`. */
export function mountFields(options: MountOptions): CardForm {
  const mount = checkMount(options);
  const { core, specs, base, cvvOnly, brand, signal } = mount;
  const names = [...specs.keys()];
  /** The frame that does the form's work: the number frame tokenises; a CVV-only form's frame posts. */
  const worker: FieldName = cvvOnly ? 'cvv' : 'number';
  /** Each field's version in its last state: the number frame pays no value older than what the page validated. */
  const seen: Partial<Record<FieldName, number>> = {};
  /** What a frame's config carries that the form's setters change in place. */
  const now: Partial<Config> = { locale: mount.locale, ...mount.extras };
  const spec = (name: FieldName) => specs.get(name)!;
  const labelFor = (name: FieldName) => spec(name).label ?? labelOf(spec(name).container);
  /** A frame's config now: in its URL when it is made, posted again when its page has loaded and when it says ready. */
  const config = (name: FieldName) =>
    ({
      t: 'config',
      ...now,
      label: labelFor(name),
      placeholder: spec(name).placeholder,
      fields: names,
      // The frame applies the few known schemes and refuses a config with one over 40 characters (custom
      // idents can make it longer): cut, it is one the frame does not apply, not a frame left blank.
      scheme: getComputedStyle(spec(name).container).colorScheme.slice(0, 40),
      ...(brand === undefined ? {} : { brand }),
    }) as Out<Config>;

  const ch = newChannel();
  const iframes = new Map<FieldName, HTMLIFrameElement>();
  const windows = new Map<unknown, FieldName>();
  /** Frames that said they take input: before that, a frame's window may not be on the frame origin yet. */
  const ready = new Set<FieldName>();
  const post = (name: FieldName, m: Out<ToFrame>) => port?.post(iframes.get(name)?.contentWindow, m);
  // A frame not ready yet gets what it needs in its config, on its page's load.
  const send = (name: FieldName, m: Out<ToFrame>) => ready.has(name) && post(name, m);
  /** Every frame gets its config again (the page's labels read again with it): it applies what changed, keeping what was typed. */
  const set = (change: Partial<Config>) => {
    Object.assign(now, change);
    for (const name of names) send(name, config(name));
  };
  let jobs: Asker | undefined;
  /** The form was torn down: a job's code that arrives later starts nothing. */
  let torn = false;
  /** The page's half of the worker frame's jobs, made with the first job's code (it loads with it). */
  const ask =
    (code: { asker: typeof asker }): Ask =>
    (job, stop) =>
      torn
        ? Promise.reject(destroyedError())
        : (jobs ??= code.asker((id) => send(worker, { t: 'cancel', id }), destroyedError)).ask((id) => send(worker, { ...job, id }), stop);
  const watch =
    base === undefined ? undefined : watchLoad({ base, fields: names, ready, timeoutMs: mount.timeoutMs, failed: (e) => control.fail(e) });
  /** What the page does with each message the port lets through, from the frame `name`. */
  const receive = (m: ToPage, name: FieldName) => {
    if (m.t === 'ready') {
      // The frame's label (the page's own, or the frame's name for the field in the locale) names the frame.
      iframes.get(name)!.title = m.label;
      if (ready.has(name)) return; // ready again with a new config (a locale)
      ready.add(name);
      // What changed between its load and now (a setDisabled) was posted to no one: the config of the moment.
      post(name, config(name));
      if (ready.size === specs.size) {
        watch!.stop();
        control.ready();
        // The tokenize job's code, off the mount's path and before the payer's first Pay.
        if (!cvvOnly) tokenizeCode().catch(() => undefined);
      }
    } else if (m.t === 'state') {
      seen[name] = m.n;
      control.update(name, m.event, m.state, name === 'number' ? m.brand : undefined);
      // Enter in a field submits the page's form, as in any input of that form.
      if (m.event === 'submit') spec(name).container.closest('form')?.requestSubmit?.();
    } else if (m.t === 'resize') iframes.get(name)!.style.height = `${Math.ceil(m.height)}px`;
    else if (m.t === 'failure' && m.id === 0) control.fail(new PayframeError('invalid_config', m.error.message));
    else if (name === worker) jobs?.answer(m);
  };
  // A frame that speaks on our channel in words we cannot read before it said ready: another payframe version.
  const port =
    base === undefined
      ? undefined
      : windowPort<ToPage, ToFrame, FieldName>(
          ch,
          new URL(base).origin,
          windows,
          readToPage,
          receive,
          (name) => ready.has(name) || watch!.unreadable(name),
        );

  // The frame focuses its own input. The page's iframe.focus() would make that iframe the page's focused
  // element, and Chromium keeps it so when the person then clicks into another field's frame: a Tab from
  // that field "moves" to the iframe already focused, and the next key is lost (issue 17).
  const focus = (name: FieldName) => send(name, { t: 'focus' });
  /** A click on a field's container, or on a `<label>` for it or around it, focuses the field. */
  const onClick = (event: Event) => {
    const target = event.target as Element;
    const label = target.closest?.('label');
    for (const [name, { container }] of specs)
      if ((label && ((!!container.id && label.htmlFor === container.id) || label.contains(container))) || container.contains(target))
        return focus(name);
  };
  const roots = new Set([...specs.values()].map((s) => s.container.getRootNode()));
  const onAbort = () => control.fail(destroyedError());

  const control = createForm(new Map([...specs].map(([name, s]) => [name, s.container])), {
    command(name, m) {
      if (m.t === 'placeholder') spec(name).placeholder = m.text;
      send(name, m);
    },
    // The page's labels may have been translated too: the config reads them again.
    locale: (locale, texts) => set({ locale, texts: checkTexts(locale, texts ?? now.texts, requestError) }),
    set,
    ...(cvvOnly
      ? {
          // Loaded at the first postCvv(): few checkouts pay a saved card again.
          post: (options: PostCvvOptions) =>
            loadChunk(import('./cvv-post'), 'postCvv').then((m) => m.cvvPost(options, location.origin, core.config.timeoutMs, ask(m))),
        }
      : {
          send(stop: AbortSignal | undefined, check: () => void) {
            // The call's one deadline, from the call on: a job's code slow to arrive is inside it, and `stop` ends the wait.
            const d = deadline(core.config.timeoutMs, 'tokenize', stop);
            return d
              .race(tokenizeCode())
              .then((m) => {
                if (torn) throw destroyedError(); // no client token for a form that is gone
                return m.tokenizeJob(core, d, ask(m), seen, check);
              })
              .finally(d.done);
          },
        }),
    teardown() {
      torn = true;
      watch?.stop();
      port?.close();
      jobs?.close();
      for (const [name, iframe] of iframes) {
        iframe.remove();
        inUse.delete(spec(name).container);
      }
      roots.forEach((root) => root.removeEventListener('click', onClick));
      signal?.removeEventListener('abort', onAbort);
    },
  });

  if (base === undefined) {
    // The live service serves no card frames: said at once (after mountFields returns, so that `on('error')` hears it), no iframe made.
    queueMicrotask(() =>
      control.fail(
        configError(
          'frameUrl is required with a live baseUrl: host the frames on an origin of your own with createFrameHost (payframe/server) or `npx payframe frames`',
          'mountFields',
        ),
      ),
    );
  } else {
    const allow = autofillPolicy();
    for (const [name, { container }] of specs) {
      const iframe = document.createElement('iframe');
      iframe.title = labelFor(name) ?? '';
      iframe.src = frameSrc(base, {
        merchant: core.config.merchantId,
        gateway: core.config.base.href,
        field: name,
        channel: ch,
        // The page's origin now: the frames talk to it alone, and a CVV-only form posts to it alone.
        origin: location.origin,
        config: { ...config(name), ch },
        ...(cvvOnly ? { form: 'cvv' as const } : {}),
      });
      if (allow) iframe.allow = allow;
      // Through the CSSOM: a strict style-src allows it, as it does not allow a style attribute in markup.
      Object.assign(iframe.style, { display: 'block', width: '100%', height: '2.75rem', border: '0' }); // an iframe's background is transparent already
      watch!.made(name, iframe.src);
      // The frame starts with the config of its URL. Posted once more when its page has loaded: that brings
      // it what changed since (a locale), and proves the page's origin where the browser cannot (Firefox).
      iframe.addEventListener('load', () => {
        const w = iframe.contentWindow;
        if (!windows.has(w)) {
          // The iframe moved in the document (a layout drawn again): the browser made a new frame in a new
          // window, empty. The page hears that window now (the one before is gone, its document with it),
          // and the field is empty until it says otherwise.
          windows.set(w, name);
          delete seen[name];
          control.update(name, 'input', emptyState(), name === 'number' ? null : undefined);
        }
        post(name, config(name));
        watch!.loaded(name);
      });
      container.append(iframe);
      iframes.set(name, iframe);
      windows.set(iframe.contentWindow, name);
      inUse.add(container);
    }
  }
  roots.forEach((root) => root.addEventListener('click', onClick));
  signal?.addEventListener('abort', onAbort);
  if (signal?.aborted) onAbort();
  return control.form;
}
