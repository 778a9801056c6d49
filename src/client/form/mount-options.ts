/**
 * `mountFields`' options: what the page needs is checked before anything is created (a bad one throws
 * `invalid_config` naming it, and the page is left as it was); what the frames apply, the frames check.
 */
import type { BrandId } from '../../card/brands';
import { CVV_PAGE } from '../../protocol/address';
import type { Config, FieldStyles, FontSource } from '../../protocol/messages';
import type { FieldTexts } from '../../protocol/texts';
import { FIELD_NAMES, type FieldName, isFieldName, isLocale, isLocaleTag, type LocaleTag } from '../../shared/names';
import { isTimeout } from '../../shared/call';
import { configError } from '../../shared/errors';
import { plainCopy } from '../../shared/plain';
import { isBaseUrl, isLoopback, isWebUrl } from '../../shared/url';
import { urlOf } from '../../shared/url-of';
import type { Client, ClientCore } from '../core/types';
import { coreOf } from '../core/core';
import { elementOf } from '../dom';

export interface HostedField {
  /** A selector or an element; the frame goes inside it. */
  container: string | Element;
  placeholder?: string;
  /** The input's accessible name (and its frame's title); default: the text of the page's `<label>` for the container. */
  label?: string;
}

export interface MountOptions {
  client: Client;
  /** The card's fields; or `{ cvv }` alone, for a saved card paid again with its CVV (see `postCvv`). */
  fields: { number: HostedField; expiry: HostedField; cvv: HostedField; name?: HostedField } | { cvv: HostedField };
  /** A CVV-only form: the saved card's brand, which sets the CVV's size (4 for American Express) and default label. */
  brand?: BrandId;
  /**
   * The brands you take: a number of another is `unsupported_brand` in the field, and `tokenize()` sends
   * nothing for it. Default: the four the service documents, `['visa', 'mastercard', 'american-express', 'discover']`.
   */
  brands?: BrandId[];
  styles?: FieldStyles;
  fonts?: FontSource[];
  /** The detected brand's mark in the number field, its name said to screen readers; default true. */
  brandMark?: boolean;
  /** Default 'en'; 'ar' lays the fields out right to left; or a locale of your own, given whole in `texts`. */
  locale?: LocaleTag;
  /**
   * Your texts by locale: some texts of a shipped locale (`{ en: { numberInvalid: '…' } }`), or every
   * text of a locale payframe does not ship, its direction included (`{ fr: { dir: 'ltr', … } }`).
   * The frames check them (`invalid_config`) and show them as text, never as markup.
   */
  texts?: FieldTextsByLocale;
  /** Aborting it destroys the form (while mounting: `ready` rejects `aborted`). */
  signal?: AbortSignal;
  /** How long the frames may take to load; default 30 000 ms. */
  timeoutMs?: number;
  /**
   * Where the card frames are served (`createFrameHost`, `npx payframe frames`): on another origin than
   * this page's. Default `${client.origin}/frame/`, which only the sandbox serves: with a live `baseUrl`
   * it is required.
   */
  frameUrl?: string;
}

/** `texts` of mountFields: the keys of `FieldTexts` are the texts of the frames (docs/hosted-form.md lists them). */
export type FieldTextsByLocale = Record<string, Partial<FieldTexts>>;

/** A field's checked options: its container found in the document. */
export type Spec = HostedField & { container: Element };

/** The checked options of one mount. */
export interface Mount {
  core: ClientCore;
  specs: Map<FieldName, Spec>;
  /** The frame page's URL, ending in a slash; undefined when the gateway does not serve the frames (a live `baseUrl` and no `frameUrl`). */
  base: string | undefined;
  locale: LocaleTag;
  /** A form of the CVV field alone: a saved card paid again. */
  cvvOnly: boolean;
  brand: BrandId | undefined;
  /** The merchant's styles, fonts, brands and texts as plain data, checked in the frames; and whether the number shows the brand's mark. */
  extras: Pick<Config, 'styles' | 'fonts' | 'brands' | 'texts' | 'brandMark'>;
  timeoutMs: number;
  signal: AbortSignal | undefined;
}

/** Containers holding a live form: a second mount into one is refused until the first is destroyed. */
export const inUse = new WeakSet<Element>();

/** Text, or not given: what JSON carries to the frames as it is (they check its length and meaning). */
const isText = (x: unknown) => x === undefined || typeof x === 'string';

/** A mount's refusal: `invalid_config`, its message naming mountFields. */
function need(ok: unknown, message: string): asserts ok {
  if (!ok) throw configError(message, 'mountFields');
}

/**
 * Checks here what must fail before anything is made, or protects the page: the client, the page and
 * the frames' URL, the containers, the signal and timeout, data that can travel in a URL, the locale (which
 * `setLocale` checks too), that labels, placeholders and `brand` are text. The rest (their length and
 * meaning, `brandMark`, the texts themselves, styles, fonts, brands) the frames check where they apply it:
 * a refusal there rejects `ready` and says `error`.
 */
export function checkMount(options: MountOptions): Mount {
  need(options !== null && typeof options === 'object', 'needs an options object');
  const core = coreOf(options.client);
  need(core, 'client must come from createClient');
  const { timeoutMs = 30_000, signal, locale = 'en', brand, frameUrl, styles, fonts, brands, brandMark } = options;
  need(isTimeout(timeoutMs), 'timeoutMs must be a positive number of milliseconds');
  need(signal === undefined || signal instanceof AbortSignal, 'signal must be an AbortSignal');
  need(isWebUrl(new URL(location.href)), 'the page must be https (http on localhost)');
  const gateway = core.config.base;
  // Only the sandbox (on loopback) serves the frames beside its API; the live service does not.
  let base: string | undefined;
  if (frameUrl !== undefined || isLoopback(gateway)) {
    const url = urlOf(frameUrl ?? `${gateway.origin}/frame/`);
    if (url && !url.pathname.endsWith('/')) url.pathname += '/';
    need(
      url && isBaseUrl(url) && !url.pathname.endsWith(`/${CVV_PAGE}`),
      `frameUrl must be https (http on localhost), with no query or fragment, not ending in ${CVV_PAGE}`,
    );
    // On the page's origin, the frames would isolate nothing: any script of the page could read the card out of them.
    need(url.origin !== location.origin, "frameUrl must be on another origin than this page's");
    base = url.href;
  }
  const given = (options.fields ?? {}) as Record<string, Partial<HostedField> | undefined>;
  const unknown = Object.keys(given).filter((k) => !isFieldName(k));
  need(!unknown.length, `unknown field ${unknown.join(', ')}`);
  const cvvOnly = Object.keys(given).join() === 'cvv';
  need(isText(brand), "brand must be a brand id ('visa')");
  const specs = new Map<FieldName, Spec>();
  for (const name of cvvOnly ? (['cvv'] as const) : FIELD_NAMES) {
    const spec = given[name];
    if (spec === undefined && name === 'name') continue;
    need(spec !== null && typeof spec === 'object', `fields.${name} is required (or cvv alone)`);
    need(isText(spec.placeholder) && isText(spec.label), `fields.${name}: placeholder and label must be text`);
    const container = elementOf(spec.container);
    need(container?.isConnected, `the ${name} container is not in the document`);
    need(
      !inUse.has(container) && ![...specs.values()].some((s) => s.container === container),
      `the ${name} container already holds a card field`,
    );
    specs.set(name, { ...spec, container });
  }
  const extras: Mount['extras'] = plainCopy({ styles, fonts, brands, brandMark }, () =>
    configError('styles, fonts and brands must be plain data', 'mountFields'),
  );
  extras.texts = checkTexts(locale, options.texts, (message) => configError(message, 'mountFields'));
  return { core, specs, base, locale, cvvOnly, brand, extras, timeoutMs, signal };
}

/**
 * The page's cheap check of a locale and its texts, answered as plain data; the frames check the texts
 * whole. They travel in each frame's URL: their JSON is capped (a full locale is under 1 000 characters).
 */
export function checkTexts(locale: unknown, texts: unknown, refused: (message: string) => Error): FieldTextsByLocale | undefined {
  let json: string | undefined;
  try {
    json = JSON.stringify(texts);
  } catch {
    // a circle
  }
  const data = json && JSON.parse(json);
  if (texts !== undefined && !(json && json.length <= 24_000))
    throw refused('texts must be plain data of at most 24 000 characters as JSON');
  if (!isLocaleTag(locale) || !(isLocale(locale) || data?.[locale])) throw refused("locale must be 'en', 'ar', or a locale given in texts");
  return data;
}
