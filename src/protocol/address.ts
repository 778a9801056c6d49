import type { FieldName } from '../shared/names';
import { isBaseUrl, isExactOrigin, isWebUrl } from '../shared/url';
import { urlOf } from '../shared/url-of';
import type { Config } from './messages';
import { isFieldName } from '../shared/names';

/**
 * What a field frame's URL tells it: `<frame base>[cvv/]?merchant=…&gateway=…&field=…#channel=…&origin=…&config=…`.
 * The path and query are for the frame host: a CVV-only form's page is `cvv/` under the base, so that
 * even a static host gives it its own headers (its `connect-src` also admits the merchant's origins);
 * the sandbox picks `frame-ancestors` by merchant; the field makes each frame's URL its own, so that a
 * browser loads the frames side by side (it loads requests for one URL one after another). Nothing
 * secret or the payer's: the page is cacheable as any. The fragment never leaves the browser: the
 * channel id is in no server log and no Referer, and the mount's config is there, so that the frame
 * starts at once, without asking the page for it.
 */
export interface FrameAddress<C = Config> {
  merchant: string;
  /** The gateway's base URL: the frame sends the card there and nowhere else (its CSP agrees). */
  gateway: string;
  field: FieldName;
  channel: string;
  /** The merchant page's origin: the only window the frame talks to. */
  origin: string;
  /** The mount's config: read from the URL as given, for the frame to read as it reads a posted one (`readConfig`). */
  config: C;
  /**
   * `cvv`: a form of the CVV field alone (a saved card paid again), which may post the CVV to the page's
   * own origin and nowhere else. Fixed in the URL's path, so that no message can turn a full form's CVV
   * field into one, and the page's headers follow it. Absent: a field of a full card form, whose card
   * only ever becomes a nonce.
   */
  form?: 'cvv';
}

function parse(text: string | null): URL | undefined {
  const url = urlOf(text ?? '');
  return url && isWebUrl(url) ? url : undefined;
}

/** 122 random bits (a version 4 UUID's), as 32 hex digits: one per mount. */
export const newChannel = (): string => crypto.randomUUID().replace(/-/g, '');

/** The path of a CVV-only form's page under the frame base. */
export const CVV_PAGE = 'cvv/';

export function frameSrc(base: string, { merchant, gateway, field, channel, origin, form, config }: FrameAddress): string {
  const hash = new URLSearchParams({ channel, origin, config: JSON.stringify(config) });
  return `${base}${form === 'cvv' ? CVV_PAGE : ''}?${new URLSearchParams({ merchant, gateway, field })}#${hash}`;
}

/** The JSON in a frame's URL, or undefined: what it says the frame reads (`readConfig`), nothing here. */
function jsonOf(text: string | null): unknown {
  try {
    return JSON.parse(text ?? '');
  } catch {
    return undefined;
  }
}

/** The address in a frame's URL, or undefined when any part is missing or unsafe. */
export function readFrameAddress(href: string): FrameAddress<unknown> | undefined {
  const url = parse(href);
  if (!url) return undefined;
  const hash = new URLSearchParams(url.hash.slice(1));
  const merchant = url.searchParams.get('merchant') ?? '';
  const gateway = parse(url.searchParams.get('gateway'));
  const field = url.searchParams.get('field');
  const channel = hash.get('channel') ?? '';
  const page = hash.get('origin');
  const origin = isExactOrigin(page) ? parse(page) : undefined;
  const config = jsonOf(hash.get('config'));
  const form = url.pathname.endsWith(`/${CVV_PAGE}`) ? 'cvv' : null;
  const ok =
    merchant !== '' &&
    gateway &&
    isBaseUrl(gateway) &&
    gateway.pathname.endsWith('/') &&
    isFieldName(field) &&
    /^[\da-f]{32}$/.test(channel) &&
    origin &&
    (form === null || (form === 'cvv' && field === 'cvv')) &&
    // The card goes to the gateway, never to the page's own origin: a CVV-only form's frame page admits the
    // merchant's origins in connect-src, and a full form's does not; this holds even on a host that admits both.
    gateway.origin !== origin.origin;
  return ok
    ? { merchant, gateway: gateway.href, field, channel, origin: origin.origin, config, ...(form === 'cvv' ? { form } : {}) }
    : undefined;
}
