/**
 * The hosted form's iframes: made in their containers, each with its field's address and config, and
 * heard as they load: a load posts the config again, and a window not seen before is the field made anew.
 */
import { frameSrc } from '../../protocol/address';
import type { Config, Out, Tokenize } from '../../protocol/messages';
import type { FieldName } from '../../shared/names';
import type { ClientCore } from '../core/types';
import type { FormControl } from './form';
import { emptyState } from './state';
import type { LoadWatch } from './load-watch';
import { inUse, type Spec } from './mount-options';

/** What making the frames takes from the mount. */
export interface FrameSite {
  base: string;
  core: ClientCore;
  /** The mount's channel id. */
  ch: string;
  specs: Map<FieldName, Spec>;
  cvvOnly: boolean;
  /** Filled here: each field's iframe. */
  iframes: Map<FieldName, HTMLIFrameElement>;
  /** The field each frame window speaks for: the port takes messages from these alone. */
  windows: Map<unknown, FieldName>;
  watch: LoadWatch;
  /** Each field's version in its last state: a field made anew has none. */
  seen: Tokenize['seen'];
  control: FormControl;
  title(name: FieldName): string | undefined;
  /** A frame's config now. */
  config(name: FieldName): Out<Config>;
  post(name: FieldName, m: Out<Config>): void;
}

/** Chrome's policy names for autofill across frames, given only where this browser knows them (an unknown one is a console warning). */
function autofillPolicy(): string {
  const known: string[] = (document as { featurePolicy?: { features(): string[] } }).featurePolicy?.features() ?? [];
  return ['shared-autofill', 'autofill'].filter((f) => known.includes(f)).join('; ');
}

/** Makes each field's iframe in its container. */
export function makeFrames(site: FrameSite): void {
  const { base, core, ch, specs, cvvOnly, windows, watch, iframes } = site;
  const allow = autofillPolicy();
  for (const [name, { container }] of specs) {
    const iframe = document.createElement('iframe');
    iframe.title = site.title(name) ?? '';
    iframe.src = frameSrc(base, {
      merchant: core.config.merchantId,
      gateway: core.config.base.href,
      field: name,
      channel: ch,
      // The page's origin now: the frames talk to it alone, and a CVV-only form posts to it alone.
      origin: location.origin,
      config: { ...site.config(name), ch },
      ...(cvvOnly ? { form: 'cvv' as const } : {}),
    });
    if (allow) iframe.allow = allow;
    // Through the CSSOM: a strict style-src allows it, as it does not allow a style attribute in markup.
    Object.assign(iframe.style, { display: 'block', width: '100%', height: '2.75rem', border: '0' }); // an iframe's background is transparent already
    watch.made(name, iframe.src);
    // The frame starts with the config of its URL. Posted once more when its page has loaded: that brings
    // it what changed since (a locale), and proves the page's origin where the browser cannot (Firefox).
    iframe.addEventListener('load', () => {
      const w = iframe.contentWindow;
      // The iframe moved in the document (a layout drawn again): the browser made a new frame in a new
      // window, empty. The page hears that window now (the one before is gone, its document with it).
      if (!windows.has(w)) {
        windows.set(w, name);
        // The field is empty until its new frame says otherwise.
        delete site.seen[name];
        site.control.update(name, 'input', emptyState(), name === 'number' ? null : undefined);
      }
      site.post(name, site.config(name));
      watch.loaded(name);
    });
    container.append(iframe);
    iframes.set(name, iframe);
    windows.set(iframe.contentWindow, name);
    inUse.add(container);
  }
}
