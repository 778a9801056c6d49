/**
 * The frames of one mount, seen from the page: their iframes, the mount's channel, and the messages
 * both ways. Every message from a frame is taken only from that frame's window, on the frame origin,
 * on this mount's channel; every message to a frame names the frame origin exactly.
 */
import type { Config, Post, ToFrame, ToPage, Tokenize } from '../../protocol/messages';
import { frameSrc, newChannel } from '../../protocol/address';
import { readToPage } from '../../protocol/guards';
import type { FieldName } from '../../protocol/names';
import { fromErrorInfo } from '../../protocol/transfer';
import { configError, type PayframeError } from '../../shared/errors';
import { destroyedError } from './form';
import { watchLoad } from './load-watch';
import { inUse, type Mount } from './mount-options';

export type Out = ToFrame extends infer M ? (M extends ToFrame ? Omit<M, 'ch'> : never) : never;
type Answer = Extract<ToPage, { t: 'result' | 'posted' | 'failure' }>;
/** What the worker frame is asked to do; `ask` adds the id. */
export type Job = Omit<Tokenize, 'ch' | 'id'> | Omit<Post, 'ch' | 'id'>;

export interface FrameEvents {
  /** A frame's config now: in its URL when it is made, and posted again when its page has loaded. */
  config(name: FieldName): Omit<Config, 'ch'>;
  /** Every frame can take input. */
  ready(): void;
  state(name: FieldName, m: Extract<ToPage, { t: 'state' }>): void;
  /** The mount failed: a frame refused its config, or could not load (see load-watch.ts). */
  failed(error: PayframeError): void;
}

export interface Frames {
  send(name: FieldName, m: Out): void;
  /** One round trip to the worker frame (a tokenize also asks the others to `share`); `cancel` tells it when the page stops waiting. */
  ask<T>(job: Job, stop: AbortSignal): Promise<T>;
  close(): void;
}

const LIVE =
  'frameUrl is required with a live baseUrl, which serves no card frames: host them on an origin of your own with createFrameHost (payframe/server) or `npx payframe frames`';

/** Chrome's policy names for autofill across frames, given only where this browser knows them (an unknown one is a console warning). */
function autofillPolicy(): string {
  const known: string[] = (document as { featurePolicy?: { features(): string[] } }).featurePolicy?.features() ?? [];
  return ['shared-autofill', 'autofill'].filter((f) => known.includes(f)).join('; ');
}

export function openFrames(
  { core, specs, base, cvvOnly, timeoutMs }: Mount,
  titles: (name: FieldName) => string | undefined,
  events: FrameEvents,
): Frames {
  if (base === undefined) {
    // A live gateway serves no frames: said at once (after mountFields returns, so that `on('error')` hears it), no iframe made.
    queueMicrotask(() => events.failed(configError(LIVE, 'mountFields')));
    return { send: () => undefined, ask: () => Promise.reject(destroyedError()), close: () => undefined };
  }
  const ch = newChannel();
  const frameOrigin = new URL(base).origin;
  // The page's origin now: the frames talk to it alone, and a CVV-only form posts to it alone.
  const pageOrigin = location.origin;
  /** The frame that does the form's work: the number frame tokenises; a CVV-only form's frame posts. */
  const worker: FieldName = cvvOnly ? 'cvv' : 'number';
  const frames = new Map<FieldName, HTMLIFrameElement>();
  const byWindow = new Map<unknown, FieldName>();
  /** Frames that said they take input: before that, a frame's window may not be on the frame origin yet. */
  const loaded = new Set<FieldName>();
  const pending = new Map<number, (answer?: Answer) => void>();
  let asked = 0;

  const post = (name: FieldName, m: Out) => frames.get(name)?.contentWindow?.postMessage({ ...m, ch }, frameOrigin);
  // A frame not ready yet gets what it needs in its config, on its page's load.
  const send = (name: FieldName, m: Out) => loaded.has(name) && post(name, m);

  const onMessage = (event: MessageEvent) => {
    const name = byWindow.get(event.source);
    if (event.origin !== frameOrigin || !name) return;
    const m = readToPage(event.data, ch);
    if (!m && !loaded.has(name) && (event.data as { ch?: unknown } | null)?.ch === ch) return watch.unreadable(name);
    if (m?.t === 'ready') {
      // The frame's label (the page's own, or the frame's name for the field in the locale) names the frame.
      frames.get(name)!.title = m.label;
      if (loaded.has(name)) return; // ready again with a new config (a locale)
      loaded.add(name);
      if (loaded.size === specs.size) {
        watch.stop();
        events.ready();
      }
    } else if (m?.t === 'state') events.state(name, m);
    else if (m?.t === 'resize') frames.get(name)!.style.height = `${Math.ceil(m.height)}px`;
    else if (m?.t === 'failure' && m.id === 0) events.failed(fromErrorInfo(m.error));
    else if (m && name === worker && (m.t === 'result' || m.t === 'posted' || m.t === 'failure')) pending.get(m.id)?.(m);
  };

  addEventListener('message', onMessage);
  const watch = watchLoad({ base, fields: [...specs.keys()], ready: loaded, timeoutMs, failed: events.failed });
  const allow = autofillPolicy();
  for (const [name, { container }] of specs) {
    const iframe = document.createElement('iframe');
    iframe.title = titles(name) ?? '';
    iframe.src = frameSrc(base, {
      merchant: core.config.merchantId,
      gateway: core.config.base.href,
      field: name,
      channel: ch,
      origin: pageOrigin,
      config: { ...events.config(name), ch },
      ...(cvvOnly ? { form: 'cvv' as const } : {}),
    });
    watch.made(name, iframe.src);
    // The frame starts with the config of its URL. Posted once more when its page has loaded: that brings
    // it what changed since (a locale), and proves the page's origin where the browser cannot (Firefox).
    iframe.addEventListener('load', () => {
      post(name, events.config(name));
      watch.loaded(name);
    });
    if (allow) iframe.allow = allow;
    // Through the CSSOM: a strict style-src allows it, as it does not allow a style attribute in markup.
    Object.assign(iframe.style, { display: 'block', width: '100%', height: '2.75rem', border: '0' }); // an iframe's background is transparent already
    container.append(iframe);
    frames.set(name, iframe);
    byWindow.set(iframe.contentWindow, name);
    inUse.add(container);
  }

  return {
    send,
    ask: <T>(job: Job, stop: AbortSignal) =>
      new Promise<T>((resolve, reject) => {
        if (frames.size === 0) return reject(destroyedError());
        const id = ++asked;
        const onStop = () => {
          pending.delete(id);
          send(worker, { t: 'cancel', id });
          reject(stop.reason);
        };
        if (stop.aborted) return onStop();
        stop.addEventListener('abort', onStop, { once: true });
        // No answer: the form was destroyed.
        pending.set(id, (answer) => {
          pending.delete(id);
          stop.removeEventListener('abort', onStop);
          if (!answer) reject(destroyedError());
          else if (answer.t === 'failure') reject(fromErrorInfo(answer.error));
          else resolve((answer.t === 'result' ? answer.result : answer.body) as T);
        });
        // The values a tokenize needs leave the other frames at once, for this job, on the frames' own
        // channel, while the number frame gets the token: one message leg per frame, run side by side.
        if (job.t === 'tokenize') for (const name of frames.keys()) if (name !== worker) send(name, { t: 'share', id });
        send(worker, { ...job, id });
      }),
    close() {
      watch.stop();
      removeEventListener('message', onMessage);
      pending.forEach((done) => done());
      for (const [name, iframe] of frames) {
        iframe.remove();
        inUse.delete(specs.get(name)!.container);
      }
      frames.clear();
    },
  };
}
