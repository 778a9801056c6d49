/**
 * The frames of one mount, seen from the page: their iframes and the watch on their loading. The
 * messages both ways go through the mount's port (protocol/port.ts): each message from a frame is
 * taken only from that frame's window, on the frame origin, on this mount's channel; each to a frame
 * names the frame origin exactly. A job's round trip is protocol/ask.ts's.
 */
import { asker, type Job } from '../../protocol/ask';
import type { Config, Out, ToFrame, ToPage } from '../../protocol/messages';
import { frameSrc, newChannel } from '../../protocol/address';
import { readToPage } from '../../protocol/guards';
import type { FieldName } from '../../protocol/names';
import { windowPort } from '../../protocol/port';
import { fromErrorInfo } from '../../protocol/transfer';
import { configError, type PayframeError } from '../../shared/errors';
import { destroyedError } from './form';
import { watchLoad } from './load-watch';
import { inUse, type Mount } from './mount-options';

export interface FrameEvents {
  /** A frame's config now: in its URL when it is made, and posted again when its page has loaded. */
  config(name: FieldName): Out<Config>;
  /** Every frame can take input. */
  ready(): void;
  state(name: FieldName, m: Extract<ToPage, { t: 'state' }>): void;
  /** The mount failed: a frame refused its config, or could not load (see load-watch.ts). */
  failed(error: PayframeError): void;
}

export interface Frames {
  send(name: FieldName, m: Out<ToFrame>): void;
  /** One round trip to the worker frame; `cancel` tells it when the page stops waiting. */
  ask<T>(job: Job, stop: AbortSignal): Promise<T>;
  close(): void;
}

/** The live service serves no card frames. */
const LIVE =
  'frameUrl is required with a live baseUrl: host the frames on an origin of your own with createFrameHost (payframe/server) or `npx payframe frames`';

/** Chrome's policy names for autofill across frames, given only where this browser knows them (an unknown one is a console warning). */
function autofillPolicy(): string {
  const known: string[] = (document as { featurePolicy?: { features(): string[] } }).featurePolicy?.features() ?? [];
  return ['shared-autofill', 'autofill'].filter((f) => known.includes(f)).join('; ');
}

/** Makes a field's iframe, not yet in the page: its title, its address (with its first config), its look. */
function makeFrame(
  { core, base, cvvOnly }: Mount,
  name: FieldName,
  ch: string,
  config: Out<Config>,
  title: string | undefined,
  allow: string,
): HTMLIFrameElement {
  const iframe = document.createElement('iframe');
  iframe.title = title ?? '';
  iframe.src = frameSrc(base!, {
    merchant: core.config.merchantId,
    gateway: core.config.base.href,
    field: name,
    channel: ch,
    // The page's origin now: the frames talk to it alone, and a CVV-only form posts to it alone.
    origin: location.origin,
    config: { ...config, ch },
    ...(cvvOnly ? { form: 'cvv' as const } : {}),
  });
  if (allow) iframe.allow = allow;
  // Through the CSSOM: a strict style-src allows it, as it does not allow a style attribute in markup.
  Object.assign(iframe.style, { display: 'block', width: '100%', height: '2.75rem', border: '0' }); // an iframe's background is transparent already
  return iframe;
}

/** A live gateway serves no frames: said at once (after mountFields returns, so that `on('error')` hears it), no iframe made. */
function noFrames(events: FrameEvents): Frames {
  queueMicrotask(() => events.failed(configError(LIVE, 'mountFields')));
  return { send: () => undefined, ask: () => Promise.reject(destroyedError()), close: () => undefined };
}

export function openFrames(mount: Mount, titles: (name: FieldName) => string | undefined, events: FrameEvents): Frames {
  const { specs, base, cvvOnly, timeoutMs } = mount;
  if (base === undefined) return noFrames(events);
  const ch = newChannel();
  /** The frame that does the form's work: the number frame tokenises; a CVV-only form's frame posts. */
  const worker: FieldName = cvvOnly ? 'cvv' : 'number';
  const frames = new Map<FieldName, HTMLIFrameElement>();
  const byWindow = new Map<unknown, FieldName>();
  /** Frames that said they take input: before that, a frame's window may not be on the frame origin yet. */
  const loaded = new Set<FieldName>();
  const post = (name: FieldName, m: Out<ToFrame>) => port.post(frames.get(name)?.contentWindow, m);
  // A frame not ready yet gets what it needs in its config, on its page's load.
  const send = (name: FieldName, m: Out<ToFrame>) => loaded.has(name) && post(name, m);
  const jobs = asker((id) => send(worker, { t: 'cancel', id }), destroyedError);
  const watch = watchLoad({ base, fields: [...specs.keys()], ready: loaded, timeoutMs, failed: events.failed });
  /** What the page does with each message its port lets through, from the frame `name`. */
  const receive = (m: ToPage, name: FieldName) => {
    if (m.t === 'ready') {
      // The frame's label (the page's own, or the frame's name for the field in the locale) names the frame.
      frames.get(name)!.title = m.label;
      if (loaded.has(name)) return; // ready again with a new config (a locale)
      loaded.add(name);
      // What changed between its load and now (a setDisabled) was posted to no one: the config of the moment.
      post(name, events.config(name));
      if (loaded.size === specs.size) {
        watch.stop();
        events.ready();
      }
    } else if (m.t === 'state') events.state(name, m);
    else if (m.t === 'resize') frames.get(name)!.style.height = `${Math.ceil(m.height)}px`;
    else if (m.t === 'failure' && m.id === 0) events.failed(fromErrorInfo(m.error));
    else if (name === worker) jobs.answer(m);
  };
  // A frame that speaks on our channel in words we cannot read before it said ready: another payframe version.
  const unreadable = (name: FieldName) => loaded.has(name) || watch.unreadable(name);
  const port = windowPort<ToPage, ToFrame, FieldName>(ch, new URL(base).origin, byWindow, readToPage, receive, unreadable);
  const allow = autofillPolicy();
  for (const [name, { container }] of specs) {
    const iframe = makeFrame(mount, name, ch, events.config(name), titles(name), allow);
    watch.made(name, iframe.src);
    // The frame starts with the config of its URL. Posted once more when its page has loaded: that brings
    // it what changed since (a locale), and proves the page's origin where the browser cannot (Firefox).
    iframe.addEventListener('load', () => {
      post(name, events.config(name));
      watch.loaded(name);
    });
    container.append(iframe);
    frames.set(name, iframe);
    byWindow.set(iframe.contentWindow, name);
    inUse.add(container);
  }

  return {
    send,
    ask: <T>(job: Job, stop: AbortSignal) => jobs.ask<T>((id) => send(worker, { ...job, id }), stop),
    close() {
      watch.stop();
      port.close();
      jobs.close();
      for (const [name, iframe] of frames) {
        iframe.remove();
        inUse.delete(specs.get(name)!.container);
      }
      frames.clear();
    },
  };
}
