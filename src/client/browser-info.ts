import type { BrowserInfo } from '../schemas';

/** What a browser sends for a page load; navigators do not expose their real Accept header to scripts. */
const ACCEPT_HEADER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/**
 * `payer.browser_info` for a payment request, read at call time (never at import, so it is safe
 * under server-side rendering). `ip` is left to the merchant's server, which sees it.
 */
export function collectBrowserInfo(): BrowserInfo {
  const nav = typeof navigator === 'undefined' ? undefined : navigator;
  const scr = typeof screen === 'undefined' ? undefined : screen;
  const info: BrowserInfo = {
    accept_header: ACCEPT_HEADER,
    java_enabled: false,
    javascript_enabled: true,
    timezone_offset: new Date().getTimezoneOffset(),
    channel: 'Web',
  };
  if (nav?.language) info.language = nav.language;
  if (nav?.userAgent) info.user_agent = nav.userAgent;
  if (scr) {
    if (Number.isFinite(scr.colorDepth)) info.color_depth = scr.colorDepth;
    if (Number.isFinite(scr.height)) info.screen_height = String(scr.height);
    if (Number.isFinite(scr.width)) info.screen_width = String(scr.width);
  }
  return info;
}
