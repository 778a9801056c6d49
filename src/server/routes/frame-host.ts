/**
 * `createFrameHost`: the card frames served from the merchant's own infrastructure, for a live service
 * that does not serve them. A Fetch handler, so it runs on Node (`toNodeListener`), in a worker at the
 * edge, or anywhere else with `Request` and `Response`; the files come from this package, built in.
 */
import { frameScript } from 'payframe/frame-bundle';
import { frameHeaders, framePage, isFresh, pageTag } from '../../protocol/frame-page';
import { CVV_PAGE } from '../../protocol/address';
import { configError } from '../../shared/errors';
import { checkBaseUrl, isExactOrigin, isSafeScheme } from '../../shared/url';
import { urlOf } from '../../shared/url-of';
import { type Handler, PLAIN, type PlainAnswer, type PlainHandler } from './respond';

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
  if (typeof gateway !== 'string' || !urlOf(gateway))
    throw configError("gateway is required: the service's base URL, e.g. https://api.ompay.com", WHO);
  const url = checkBaseUrl(gateway, 'gateway', WHO);
  // The policy names it as it is written: a `*` would widen the page's connect-src, a `,` or `;` split it.
  if (!/^[\w.-]+$/.test(url.hostname))
    throw configError(
      `gateway must name its host by name or IPv4 address (a Content-Security-Policy can name no other), not ${JSON.stringify(url.hostname).slice(0, 80)}`,
      WHO,
    );
  return url;
}

function checkOrigins(origins: unknown): string[] {
  if (!Array.isArray(origins) || origins.length === 0) {
    throw configError("merchantOrigins must list the checkout pages' origins, e.g. ['https://shop.example']", WHO);
  }
  for (const origin of origins) {
    // A host name or an IPv4 address: a Content-Security-Policy cannot name an IPv6 address.
    const exact = isExactOrigin(origin) && /^[\w.-]+$/.test(new URL(origin).hostname) && isSafeScheme(new URL(origin));
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

const encoder = new TextEncoder();

/** An answer made once: its headers in the order a `Headers` lists them (so that every adapter sends them alike). */
function made(status: number, headers: Record<string, string>, body: string | null): PlainAnswer {
  const sorted = Object.fromEntries(Object.entries(headers).sort(([a], [b]) => (a < b ? -1 : 1)));
  return Object.freeze({ status, headers: Object.freeze(sorted), body: body === null ? null : encoder.encode(body) });
}

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  made(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', ...headers }, body);

const NOT_ALLOWED = text(405, 'use GET or HEAD\n', { allow: 'GET, HEAD' });
const NOT_FOUND = text(404, 'not found\n');

/** One page's three answers: the page, its headers alone (HEAD), and the empty 304 of a repeat visit. */
interface Page {
  tag: string;
  full: PlainAnswer;
  head: PlainAnswer;
  notModified: PlainAnswer;
}

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
  // A request's host (in lower case) as the merchant origin's it names, a default port written or not: plainHost's rule, looked up.
  const merchantHost = new Map(origins.flatMap(({ host }) => ['', ':443', ':80'].map((port) => [host + port, host] as const)));
  // A page differs by its form and by which merchant origin, if any, the request reached (never an
  // ancestor of its own frames): at most 2 x (merchant origins + 1) pages, each made at its first
  // request and kept, whatever Host headers clients send.
  const pages = [new Map<string, Page | Promise<Page>>(), new Map<string, Page | Promise<Page>>()];

  async function makePage(cvvOnly: boolean, reached: string): Promise<Page> {
    // The origin this request reached the host on is never one of the page's ancestors: by host, whatever
    // the scheme (behind a proxy that ends TLS, the request reaches the host over http).
    const ancestors = origins.filter((o) => o.host !== reached).map((o) => o.origin);
    const policy = { gateway: gateway.origin, ancestors, cvvOnly, script: frameScript.hash };
    const body = framePage(frameScript, { gateway: gateway.href, policy });
    const sent = frameHeaders(policy);
    const headers = { ...sent, etag: await pageTag(body, sent) };
    return { tag: headers.etag, full: made(200, headers, body), head: made(200, headers, null), notModified: made(304, headers, null) };
  }

  function pageFor(cvvOnly: boolean, host: string): Page | Promise<Page> {
    const reached = merchantHost.get(host.toLowerCase()) ?? '';
    const kept = pages[cvvOnly ? 1 : 0]!;
    let page = kept.get(reached);
    if (page === undefined) {
      const making = makePage(cvvOnly, reached);
      making.then(
        (done) => kept.set(reached, done),
        () => kept.delete(reached),
      );
      kept.set(reached, (page = making));
    }
    return page;
  }

  const answer: PlainHandler = (method, url, header) => {
    if (method !== 'GET' && method !== 'HEAD') return NOT_ALLOWED;
    if (!url.pathname.endsWith('/')) return NOT_FOUND;
    const pick = (page: Page) => {
      const ifNoneMatch = header('if-none-match');
      return ifNoneMatch === page.tag || isFresh(ifNoneMatch, page.tag) ? page.notModified : method === 'HEAD' ? page.head : page.full;
    };
    const page = pageFor(url.pathname.endsWith(`/${CVV_PAGE}`), url.host);
    return page instanceof Promise ? page.then(pick) : pick(page);
  };

  const handler: Handler = async (request) => {
    const { status, headers, body } = await answer(request.method, new URL(request.url), (name) => request.headers.get(name));
    return new Response(body, { status, headers });
  };
  // toNodeListener serves a GET or HEAD from `answer` itself, without a Request or a Response.
  return Object.assign(handler, { [PLAIN]: answer });
}
