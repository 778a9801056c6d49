/**
 * `createFrameHost`: the card frames served from the merchant's own infrastructure, for a live service
 * that does not serve them. A Fetch handler, so it runs on Node (`toNodeListener`), in a worker at the
 * edge, or anywhere else with `Request` and `Response`; the files come from this package, built in.
 */
import { frameScript } from 'payframe/frame-bundle';
import { frameHeaders, framePage, isFresh, pageTag } from '../frame/page';
import { CVV_PAGE } from '../protocol/address';
import { configError } from '../shared/errors';
import { isLoopback, isSafeScheme } from '../shared/url';
import { urlOf } from '../shared/url-of';
import type { Handler } from './respond';

export interface FrameHostOptions {
  /** The service the frames send the card to, e.g. `https://api.ompay.com`: https (plain http only on a loopback host). */
  gateway: string;
  /**
   * The exact origins of the merchant's checkout pages, e.g. `['https://shop.example']`: they alone may
   * frame the fields, and receive the CVV a CVV-only form posts.
   */
  merchantOrigins: string[];
}

const WHO = 'createFrameHost';

function checkGateway(gateway: unknown): URL {
  const url = urlOf(gateway);
  if (typeof gateway !== 'string' || !url)
    throw configError("gateway is required: the service's base URL, e.g. https://api.ompay.com", WHO);
  if (!isSafeScheme(url)) throw configError('gateway must use https (plain http only on localhost, 127.0.0.1 or [::1])', WHO);
  if (url.username || url.password || url.search || url.hash)
    throw configError('gateway must not carry credentials, a query or a fragment', WHO);
  // The policy names it as it is written: a `*` would widen the page's connect-src, a `,` or `;` split it.
  if (!/^[\w.-]+$/.test(url.hostname))
    throw configError(
      `gateway must name its host by name or IPv4 address (a Content-Security-Policy can name no other), not ${JSON.stringify(url.hostname).slice(0, 80)}`,
      WHO,
    );
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

function checkOrigins(origins: unknown): string[] {
  if (!Array.isArray(origins) || origins.length === 0) {
    throw configError("merchantOrigins must list the checkout pages' origins, e.g. ['https://shop.example']", WHO);
  }
  for (const origin of origins) {
    const url = urlOf(origin);
    // A host name or an IPv4 address: a Content-Security-Policy cannot name an IPv6 address.
    const exact =
      typeof origin === 'string' &&
      url?.origin === origin &&
      /^[\w.-]+$/.test(url.hostname) &&
      (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url)));
    if (!exact) {
      throw configError(
        `merchantOrigins must be exact origins (https://host[:port], no path, no *, no IPv6 address; plain http only on loopback), not ${JSON.stringify(String(origin)).slice(0, 80)}`,
        WHO,
      );
    }
  }
  return [...new Set(origins as string[])];
}

/** A host without a default port (`shop.example:443` as a proxy may write it is `shop.example`): one host, one name. */
const plainHost = (host: string) => host.toLowerCase().replace(/:(443|80)$/, '');

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', ...headers } });

/**
 * Serves the frame page at the root of wherever it is mounted (any path that ends in `/`: pass that URL
 * as `mountFields({ frameUrl })`) and a CVV-only form's page at `cvv/` under it, each in one response
 * (the script is inline), with an `ETag` that a repeat visit revalidates to an empty 304; `HEAD` as
 * `GET`, 405 for other methods, 404 for any other path. Bad options throw `invalid_config` naming the
 * option.
 */
export function createFrameHost(options: FrameHostOptions): Handler {
  // Checked now, not at the first request.
  const gateway = checkGateway(options?.gateway);
  const origins = checkOrigins(options?.merchantOrigins).map((origin) => ({ origin, host: plainHost(new URL(origin).host) }));
  return async (request) => {
    const url = new URL(request.url);
    if (request.method !== 'GET' && request.method !== 'HEAD') return text(405, 'use GET or HEAD\n', { allow: 'GET, HEAD' });
    if (!url.pathname.endsWith('/')) return text(404, 'not found\n');
    // The origin this request reached the host on is never one of the page's ancestors: by host, whatever
    // the scheme (behind a proxy that ends TLS, the request reaches the host over http).
    const ancestors = origins.filter((o) => o.host !== plainHost(url.host)).map((o) => o.origin);
    const policy = { gateway: gateway.origin, ancestors, cvvOnly: url.pathname.endsWith(`/${CVV_PAGE}`), script: frameScript.hash };
    const body = framePage(frameScript, { gateway: gateway.href, policy });
    const sent = frameHeaders(policy);
    const headers = { ...sent, etag: await pageTag(body, sent) };
    if (isFresh(request.headers.get('if-none-match'), headers.etag)) return new Response(null, { status: 304, headers });
    return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers });
  };
}
