/**
 * `mountFields`: the card form whose inputs live in iframes on the frame origin. The page creates the
 * frames, styles their containers, and sees only field states, the brand, and at the end the nonce.
 * It never sees a card number or a CVV: the frames gather the card among themselves and call the
 * nonce endpoint with the client token the page hands the number frame for that one call.
 * A form of the CVV field alone (a saved card paid again) has no nonce to make: its frame posts the CVV
 * to the merchant's own server instead (`postCvv`), and the page gets the server's answer.
 * Every message both ways goes through the mount's port (protocol/port.ts): each message from a frame
 * is taken only from that frame's window, on the frame origin, on this mount's channel; each to a frame
 * names the frame origin exactly. The parts: the iframes (`frames.ts`), the one handler of what they
 * say (`from-frames.ts`), the worker frame's jobs (`jobs.ts`), the form's state and events (`form.ts`).
 */
import { newChannel } from '../../protocol/address';
import { readToPage } from '../../protocol/guards';
import type { Config, Out, ToFrame, ToPage } from '../../protocol/messages';
import type { FieldName } from '../../shared/names';
import { windowPort, type WindowPort } from '../../protocol/port';
import { configError, requestError } from '../../shared/errors';
import { createForm, destroyedError } from './form';
import { makeFrames } from './frames';
import { fromFrames } from './from-frames';
import { pageJobs } from './jobs';
import { labelOf } from './labels';
import { watchLoad, type LoadWatch } from './load-watch';
import { checkMount, checkTexts, inUse, type Mount, type MountOptions, type Spec } from './mount-options';
import type { CardForm } from './types';

/** Each frame's config now, from the mount and what the form's setters changed since. */
function configs(mount: Mount) {
  const { specs, brand } = mount;
  const names = [...specs.keys()];
  /** What a frame's config carries that the form's setters change in place. */
  const now: Partial<Config> = { locale: mount.locale, ...mount.extras };
  const spec = (name: FieldName) => specs.get(name)!;
  const title = (name: FieldName) => spec(name).label ?? labelOf(spec(name).container);
  /** A frame's config now: in its URL when it is made, posted again when its page has loaded and when it says ready. */
  const config = (name: FieldName) =>
    ({
      t: 'config',
      ...now,
      label: title(name),
      placeholder: spec(name).placeholder,
      fields: names,
      // The frame applies the few known schemes and refuses a config with one over 40 characters (custom
      // idents can make it longer): cut, it is one the frame does not apply, not a frame left blank.
      scheme: getComputedStyle(spec(name).container).colorScheme.slice(0, 40),
      ...(brand === undefined ? {} : { brand }),
    }) as Out<Config>;
  return { now, title, config };
}

/**
 * A click on a field's container, or on a `<label>` for it or around it, focuses the field. The frame
 * focuses its own input: the page's iframe.focus() would make that iframe the page's focused element,
 * and Chromium keeps it so when the person then clicks into another field's frame, so that a Tab from
 * that field "moves" to the iframe already focused and the next key is lost (issue 17). Answers the undoing.
 */
function clicksFocus(specs: Map<FieldName, Spec>, focus: (name: FieldName) => void): () => void {
  const onClick = (event: Event) => {
    const target = event.target as Element;
    const label = target.closest?.('label');
    for (const [name, { container }] of specs)
      if ((label && ((!!container.id && label.htmlFor === container.id) || label.contains(container))) || container.contains(target))
        return focus(name);
  };
  const roots = new Set([...specs.values()].map((s) => s.container.getRootNode()));
  roots.forEach((root) => root.addEventListener('click', onClick));
  return () => roots.forEach((root) => root.removeEventListener('click', onClick));
}

/** The live service serves no card frames. */
const noFrameHost = () =>
  configError(
    'frameUrl is required with a live baseUrl: host the frames on an origin of your own with createFrameHost (payframe/server) or `npx payframe frames`',
    'mountFields',
  );

/** Mounts the hosted card fields. Returns at once; `ready` says when the person can type. Bad options throw `invalid_config`. */
export function mountFields(options: MountOptions): CardForm {
  const mount = checkMount(options);
  const { core, specs, base, cvvOnly, signal } = mount;
  const names = [...specs.keys()];
  /** The frame that does the form's work: the number frame tokenises; a CVV-only form's frame posts. */
  const worker: FieldName = cvvOnly ? 'cvv' : 'number';
  /** Each field's version in its last state: the number frame pays no value older than what the page validated. */
  const seen: Partial<Record<FieldName, number>> = {};
  const { now, title, config } = configs(mount);
  const ch = newChannel();
  const windows = new Map<unknown, FieldName>();
  /** Frames that said they take input: before that, a frame's window may not be on the frame origin yet. */
  const ready = new Set<FieldName>();
  const iframes = new Map<FieldName, HTMLIFrameElement>();
  let watch: LoadWatch | undefined;
  let port: WindowPort<ToFrame> | undefined;
  const post = (name: FieldName, m: Out<ToFrame>) => port?.post(iframes.get(name)?.contentWindow, m);
  // A frame not ready yet gets what it needs in its config, on its page's load.
  const send = (name: FieldName, m: Out<ToFrame>) => ready.has(name) && post(name, m);
  /** Every frame gets its config again (the page's labels read again with it): it applies what changed, keeping what was typed. */
  const set = (change: Partial<Config>) => {
    Object.assign(now, change);
    for (const name of names) send(name, config(name));
  };
  const jobs = pageJobs(core, (m) => send(worker, m));
  const unclick = clicksFocus(specs, (name) => send(name, { t: 'focus' }));
  const onAbort = () => control.fail(destroyedError());
  const control = createForm(new Map([...specs].map(([name, s]) => [name, s.container])), {
    command(name, m) {
      if (m.t === 'placeholder') specs.get(name)!.placeholder = m.text;
      send(name, m);
    },
    // The page's labels may have been translated too: the config reads them again.
    locale: (locale, texts) => set({ locale, texts: checkTexts(locale, texts ?? now.texts, requestError) }),
    set,
    ...(cvvOnly ? { post: jobs.post } : { send: (stop, check) => jobs.tokenize(stop, seen, check) }),
    teardown() {
      watch?.stop();
      port?.close();
      jobs.close();
      iframes.forEach((iframe, name) => (iframe.remove(), inUse.delete(specs.get(name)!.container)));
      unclick();
      signal?.removeEventListener('abort', onAbort);
    },
  });
  // Said at once, but after mountFields returns, so that `on('error')` hears it; no iframe made.
  if (base === undefined) queueMicrotask(() => control.fail(noFrameHost()));
  else {
    const w = (watch = watchLoad({ base, fields: names, ready, timeoutMs: mount.timeoutMs, failed: (e) => control.fail(e) }));
    // One account of the mount, for the handler of the frames' messages and the making of the frames.
    const site = { base, core, ch, specs, cvvOnly, windows, iframes, ready, seen, worker, control, jobs, watch: w, title, post, config };
    // A frame that speaks on our channel in words we cannot read before it said ready: another payframe version.
    port = windowPort<ToPage, ToFrame, FieldName>(
      ch,
      new URL(base).origin,
      windows,
      readToPage,
      fromFrames(site),
      (n) => ready.has(n) || w.unreadable(n),
    );
    makeFrames(site);
  }
  signal?.addEventListener('abort', onAbort);
  if (signal?.aborted) onAbort();
  return control.form;
}
