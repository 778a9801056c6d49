/**
 * `mountFields`: the card form whose inputs live in iframes on the frame origin. The page creates the
 * frames, styles their containers, and sees only field states, the brand, and at the end the nonce.
 * It never sees a card number or a CVV: the frames gather the card among themselves and call the
 * nonce endpoint with the client token the page hands the number frame for that one call.
 * A form of the CVV field alone (a kept card paid again) has no nonce to make: its frame posts the CVV
 * to the merchant's own server instead (`postCvv`), and the page gets the server's answer.
 */
import type { BrandId } from '../../card';
import { PayframeError } from '../../shared/errors';
import { isTimeout } from '../../shared/call';
import type { FieldName } from '../../fields';
import {
  type Config, type ErrorInfo, type FieldStyles, type FontSource, frameSrc, isWebUrl, type Locale, newChannel, type Post, readToPage, type ToFrame,
  type ToPage, type Tokenize,
} from '../../protocol';
import type { TokenizeResult } from '../../tokenize';
import type { Client } from '../core/client';
import { coreOf } from '../core/core';
import { type CardForm, createForm, destroyedError, type PostCvvOptions } from './form';
import { labelOf } from './labels';
import { loadChunk } from '../load';
import { withToken } from '../core/with-token';

export interface HostedField {
  /** A selector or an element; the frame goes inside it. */
  container: string | Element;
  placeholder?: string;
  /** The input's accessible name (and its frame's title); default: the text of the page's `<label>` for the container. */
  label?: string;
}

export interface MountOptions {
  client: Client;
  /** The card's fields; or `{ cvv }` alone, for a kept card paid again with its CVV (see `postCvv`). */
  fields: { number: HostedField; expiry: HostedField; cvv: HostedField; name?: HostedField } | { cvv: HostedField };
  /** A CVV-only form: the kept card's brand, which sets the CVV's size (4 for American Express) and default label. */
  brand?: BrandId;
  styles?: FieldStyles;
  fonts?: FontSource[];
  /** Default 'en'; 'ar' lays the fields out right to left. */
  locale?: Locale;
  /** Aborting it destroys the form (while mounting: `ready` rejects `aborted`). */
  signal?: AbortSignal;
  /** How long the frames may take to load; default 30 000 ms. */
  timeoutMs?: number;
  /** Where dist/frame/ is served; default `${client.origin}/frame/`. */
  frameUrl?: string;
}

type Out = ToFrame extends infer M ? (M extends ToFrame ? Omit<M, 'ch'> : never) : never;
type Answer = Extract<ToPage, { t: 'result' | 'posted' | 'failure' }>;
/** What the worker frame is asked to do; `ask` adds the id. */
type Job = Omit<Tokenize, 'ch' | 'id'> | Omit<Post, 'ch' | 'id'>;

const FIELDS: FieldName[] = ['number', 'expiry', 'cvv', 'name'];
/** Containers holding a live form: a second mount into one is refused until the first is destroyed. */
const inUse = new WeakSet<Element>();

const refuse = (message: string) => new PayframeError('invalid_config', `mountFields: ${message}`);
/** A frame's failure, as the error it was in the frame. */
const failure = (e: ErrorInfo) => new PayframeError(e.code, e.message, e);
/** What a frame takes as a label or placeholder (it ignores a config with anything longer). */
const isText = (x: unknown) => x === undefined || (typeof x === 'string' && x.length <= 200);

/** Chrome's policy names for autofill across frames, given only where this browser knows them (an unknown one is a console warning). */
function autofillPolicy(): string {
  const known: string[] = (document as { featurePolicy?: { features(): string[] } }).featurePolicy?.features() ?? [];
  return ['shared-autofill', 'autofill'].filter((f) => known.includes(f)).join('; ');
}

function frameBase(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    // refused below
  }
  if (!url || !isWebUrl(url) || url.search || url.hash) throw refuse('frameUrl must be https (plain http only on localhost), with no query or fragment');
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

function containerOf(name: FieldName, given: unknown, taken: Set<Element>): Element {
  let el: Element | null = null;
  try {
    el = typeof given === 'string' ? document.querySelector(given) : given instanceof Element ? given : null;
  } catch {
    // an invalid selector
  }
  if (!el || !el.isConnected) throw refuse(`the ${name} container is not in the document`);
  if (inUse.has(el) || taken.has(el)) throw refuse(`the ${name} container already holds a card field`);
  taken.add(el);
  return el;
}

/** Mounts the hosted card fields. Returns at once; `ready` says when the person can type. Bad options throw `invalid_config`. */
export function mountFields(options: MountOptions): CardForm {
  if (options === null || typeof options !== 'object') throw refuse('needs an options object');
  const core = coreOf(options.client);
  if (!core) throw refuse('client must come from createClient');
  const { timeoutMs = 30_000, signal } = options;
  let { locale = 'en' } = options;
  if (locale !== 'en' && locale !== 'ar') throw refuse("locale must be 'en' or 'ar'");
  if (!isTimeout(timeoutMs)) throw refuse('timeoutMs must be a positive number of milliseconds');
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw refuse('signal must be an AbortSignal');
  if (!isWebUrl(new URL(location.href))) throw refuse('the page must be https (plain http only on localhost)');
  const base = frameBase(options.frameUrl ?? `${core.config.base.origin}/frame/`);
  const given = (options.fields ?? {}) as Record<string, Partial<HostedField> | undefined>;
  const unknown = Object.keys(given).filter((k) => !FIELDS.includes(k as FieldName));
  if (unknown.length > 0) throw refuse(`unknown field ${unknown.join(', ')}`);
  const cvvOnly = Object.keys(given).join() === 'cvv';
  const { brand } = options;
  if (brand !== undefined && !(cvvOnly && typeof brand === 'string' && /^[a-z][a-z-]{0,31}$/.test(brand))) {
    throw refuse("brand is a brand id ('visa') for a form of the CVV alone");
  }
  const specs = new Map<FieldName, HostedField & { container: Element }>();
  const taken = new Set<Element>();
  for (const name of cvvOnly ? (['cvv'] as const) : FIELDS) {
    const spec = given[name];
    if (spec === undefined && name === 'name') continue;
    if (spec === null || typeof spec !== 'object') throw refuse(`fields.${name} is required (or cvv alone)`);
    const { placeholder, label } = spec;
    if (!isText(placeholder) || !isText(label)) throw refuse(`fields.${name}: placeholder and label must be text of at most 200 characters`);
    specs.set(name, { container: containerOf(name, spec.container, taken), placeholder, label });
  }
  let extras: Pick<Config, 'styles' | 'fonts'>;
  try {
    extras = JSON.parse(JSON.stringify({ styles: options.styles, fonts: options.fonts }));
  } catch {
    throw refuse('styles and fonts must be plain data');
  }

  const ch = newChannel();
  const frameOrigin = new URL(base).origin;
  // The page's origin now: the frames talk to it alone, and a CVV-only form posts to it alone.
  const pageOrigin = location.origin;
  const names = [...specs.keys()];
  /** The frame that does the form's work: the number frame tokenises; a CVV-only form's frame posts. */
  const worker: FieldName = cvvOnly ? 'cvv' : 'number';
  const frames = new Map<FieldName, HTMLIFrameElement>();
  const byWindow = new Map<unknown, FieldName>();
  /** Frames whose page has loaded (they said hello): before that, a frame's window is not on the frame origin yet. */
  const greeted = new Set<FieldName>();
  const loaded = new Set<FieldName>();
  const pending = new Map<number, (answer?: Answer) => void>();
  let asked = 0;

  // A frame not loaded yet gets everything it needs in its config, when it says hello.
  const send = (name: FieldName, m: Out) => greeted.has(name) && frames.get(name)?.contentWindow?.postMessage({ ...m, ch }, frameOrigin);
  const focus = (name: FieldName) => {
    frames.get(name)?.focus();
    send(name, { t: 'focus' });
  };
  const labelFor = (name: FieldName) => specs.get(name)!.label ?? labelOf(specs.get(name)!.container);
  const config = (name: FieldName): Out => ({
    t: 'config',
    locale,
    label: labelFor(name),
    placeholder: specs.get(name)!.placeholder,
    fields: names,
    ...extras,
    scheme: getComputedStyle(specs.get(name)!.container).colorScheme,
    ...(brand === undefined ? {} : { brand }),
  });

  /** One round trip to the worker frame; `cancel` tells it when the page stops waiting. */
  const ask = <T>(job: Job, stop: AbortSignal) =>
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
        else if (answer.t === 'failure') reject(failure(answer.error));
        else resolve((answer.t === 'result' ? answer.result : answer.body) as T);
      });
      send(worker, { ...job, id });
    });

  const onMessage = (event: MessageEvent) => {
    const name = byWindow.get(event.source);
    if (event.origin !== frameOrigin || !name) return;
    const m = readToPage(event.data, ch);
    if (m?.t === 'hello') {
      greeted.add(name);
      send(name, config(name));
    }
    else if (m?.t === 'ready') {
      // The frame's label (the page's own, or the frame's name for the field in the locale) names the frame.
      frames.get(name)!.title = m.label;
      loaded.add(name);
      if (loaded.size === specs.size) {
        clearTimeout(timer);
        control.ready();
      }
    } else if (m?.t === 'state') {
      control.update(name, m.event, m.state, name === 'number' ? m.brand : undefined);
      // Enter in a field submits the page's form, as in any input of that form.
      if (m.event === 'submit') specs.get(name)!.container.closest('form')?.requestSubmit?.();
    } else if (m?.t === 'resize') frames.get(name)!.style.height = `${Math.ceil(m.height)}px`;
    else if (m?.t === 'failure' && m.id === 0) control.fail(failure(m.error));
    else if (m && name === worker && (m.t === 'result' || m.t === 'posted' || m.t === 'failure')) pending.get(m.id)?.(m);
  };

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

  const control = createForm(new Map([...specs].map(([name, s]) => [name, s.container])), {
    focus,
    clear: (name) => send(name, { t: 'clear' }),
    placeholder(name, text) {
      specs.get(name)!.placeholder = text;
      send(name, { t: 'placeholder', text });
    },
    // The page's labels may have been translated too: the config is read again from them.
    locale(next) {
      locale = next;
      for (const name of names) send(name, config(name));
    },
    touch: (fields) => fields.forEach((name) => send(name, { t: 'touch' })),
    ...(cvvOnly
      ? {
          // Loaded at the first postCvv(): few checkouts pay a kept card again.
          post: (options: PostCvvOptions) => loadChunk(import('./cvv-post'), 'postCvv').then((m) => m.cvvPost(options, pageOrigin, core.config.timeoutMs, ask)),
        }
      : {
          send: (stopSignal: AbortSignal | undefined) =>
            withToken(core, 'tokenize', stopSignal, (token, d) =>
              ask<TokenizeResult>({ t: 'tokenize', token, timeoutMs: core.config.timeoutMs, retries: core.config.retries }, d.signal)),
        }),
    teardown() {
      clearTimeout(timer);
      removeEventListener('message', onMessage);
      roots.forEach((root) => root.removeEventListener('click', onClick));
      signal?.removeEventListener('abort', onAbort);
      pending.forEach((done) => done());
      for (const [name, iframe] of frames) {
        iframe.remove();
        inUse.delete(specs.get(name)!.container);
      }
      frames.clear();
    },
  });

  addEventListener('message', onMessage);
  roots.forEach((root) => root.addEventListener('click', onClick));
  signal?.addEventListener('abort', onAbort);
  const timer = setTimeout(() => {
    const missing = names.filter((n) => !loaded.has(n));
    // The usual cause: this page's origin is not one of the merchant's, and the frame page's frame-ancestors refuses it.
    control.fail(new PayframeError('timeout', `the ${missing.join(', ')} field did not load in ${timeoutMs} ms: check frameUrl, frame-src and the merchant's origins`, { fields: missing }));
  }, timeoutMs);

  const allow = autofillPolicy();
  for (const [name, { container }] of specs) {
    const iframe = document.createElement('iframe');
    iframe.title = labelFor(name) ?? '';
    iframe.src = frameSrc(base, {
      merchant: core.config.merchantId, gateway: core.config.base.href, field: name, channel: ch, origin: pageOrigin, ...(cvvOnly ? { form: 'cvv' as const } : {}),
    });
    if (allow) iframe.allow = allow;
    // Through the CSSOM: a strict style-src allows it, as it does not allow a style attribute in markup.
    Object.assign(iframe.style, { display: 'block', width: '100%', height: '2.75rem', border: '0' }); // an iframe's background is transparent already
    container.append(iframe);
    frames.set(name, iframe);
    byWindow.set(iframe.contentWindow, name);
    inUse.add(container);
  }
  if (signal?.aborted) onAbort();
  return control.form;
}
