/**
 * Where a CVV-only form's frame may post the CVV, checked by the page before it asks and by the frame
 * before it sends. A module of its own so that the page's ESM build loads it with `postCvv()`, not at once.
 */
import { isWebUrl } from '../shared/url';
import { urlOf } from '../shared/url-of';

/** The largest body a page may add to a CVV post, serialised: a ticket and a few ids fit many times over. */
export const MAX_POST_BODY = 16 * 1024;

/**
 * Where a CVV-only form may post: `text` resolved against `base` (the page's address; the frame gives
 * none, so it takes absolute URLs only), https (plain http only on loopback), no credentials, on
 * exactly `origin`, the page's own. The fragment is dropped. Undefined for anything else.
 */
export function postTarget(text: unknown, origin: string, base?: string): URL | undefined {
  const url = typeof text === 'string' && text.length <= 2048 ? urlOf(text, base) : undefined;
  if (url) url.hash = '';
  return url && isWebUrl(url) && url.origin === origin ? url : undefined;
}
