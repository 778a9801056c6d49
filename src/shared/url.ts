/**
 * The one rule for a service base URL, shared by the browser client and the server companion: `https:`,
 * or plain `http:` only on a loopback host (the sandbox's development mode). Nothing else is ever sent
 * card data or credentials.
 */
import { configError } from './errors';
import { urlOf } from './url-of';

/** The loopback hosts, as a URL's `hostname` writes them: the one list every loopback rule of payframe reads. */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

export const isLoopback = (url: URL): boolean => LOOPBACK_HOSTS.includes(url.hostname);

/** Whether a host name or address is loopback, as a URL, a Host header or a bind address writes it (`::1` too). */
export const isLoopbackHost = (host: string): boolean =>
  LOOPBACK_HOSTS.includes(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host.toLowerCase());

/**
 * Whether `text` is exactly an origin, as an Origin header and `location.origin` write it: `scheme://host[:port]`,
 * nothing more (no path, not even `/`; lower case; no default port). The one such check of payframe.
 */
export const isExactOrigin = (text: unknown): text is string => typeof text === 'string' && urlOf(text)?.origin === text;

/** Whether `text` is exactly an origin (`http(s)://host[:port]`, nothing more) on a loopback host. */
export const isLoopbackOrigin = (text: string): boolean => isExactOrigin(text) && isLoopback(new URL(text));

/** `https:`, or `http:` on a loopback host. */
export const isSafeScheme = (url: URL): boolean => url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url));

/** A safe scheme and no credentials: where the page, the frames and a redirect may be. */
export const isWebUrl = (url: URL): boolean => isSafeScheme(url) && !url.username && !url.password;

/** A base URL (the service's, the frames'): a web URL with no query and no fragment, which paths resolve under. */
export const isBaseUrl = (url: URL): boolean => isWebUrl(url) && !url.search && !url.hash;

/**
 * The checked base URL with a trailing slash (so relative paths resolve under it), or `invalid_config`
 * naming the option (`name`) of the call (`who`, as in `configError`).
 */
export function checkBaseUrl(baseUrl: unknown, name = 'baseUrl', who?: string): URL {
  const base = urlOf(String(baseUrl));
  if (!base) throw configError(`${name} is not a valid URL`, who);
  if (!isSafeScheme(base)) throw configError(`${name} must use https (plain http only on localhost, 127.0.0.1 or [::1])`, who);
  if (!isBaseUrl(base)) throw configError(`${name} must not carry credentials, a query or a fragment`, who);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return base;
}

/**
 * An id that goes into a URL path as one segment (a merchant id, a payment id): a string that is not
 * blank, and not `.` or `..`, which URL resolution would turn into another path of the service.
 * Callers still encode it with `encodeURIComponent`.
 */
export const isPathSegment = (value: unknown): value is string =>
  typeof value === 'string' && value.trim() !== '' && value !== '.' && value !== '..';
