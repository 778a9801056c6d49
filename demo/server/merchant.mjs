// The demo shop's server: payframe/server on node:http, nothing else. JSON routes under /api/, and
// the pages with their scripts, served under a strict Content Security Policy.
import { readFile } from 'node:fs/promises';
import { toNodeListener } from 'payframe/server';
import { createAccounts } from './account.mjs';
import { backOfficeRoutes } from './back-office.mjs';
import { checkoutRoutes } from './checkout.mjs';
import { errorAnswer, json, ownerOf, router } from './http.mjs';
import { createLedger } from './ledger.mjs';
import { DEFAULT_ORDER } from './order.mjs';
import { createStaff } from './staff.mjs';

const demo = new URL('../', import.meta.url);
const file = (/** @type {string} */ path) => new URL(path, demo);

/** URL path -> file and type. A fixed table: no path from a request ever reaches the file system. */
const FILES = /** @type {Record<string, [URL, string]>} */ ({
  '/checkout': [file('public/checkout.html'), 'text/html'],
  '/spa/': [file('public/spa.html'), 'text/html'],
  '/back-office': [file('public/back-office.html'), 'text/html'],
  '/return': [file('public/return.html'), 'text/html'],
  '/account': [file('public/account.html'), 'text/html'],
  '/assets/styles.css': [file('public/styles.css'), 'text/css'],
  '/assets/favicon.svg': [file('public/favicon.svg'), 'image/svg+xml'],
  '/payframe.umd.min.js': [new URL('../dist/payframe.umd.min.js', demo), 'text/javascript'],
  '/payframe.umd.min.js.map': [new URL('../dist/payframe.umd.min.js.map', demo), 'application/json'],
  '/payframe.pending.umd.min.js': [new URL('../dist/payframe.pending.umd.min.js', demo), 'text/javascript'],
});
for (const name of ['checkout', 'spa', 'back-office', 'return', 'account']) {
  FILES[`/assets/${name}.js`] = [file(`build/${name}.js`), 'text/javascript'];
  FILES[`/assets/${name}.js.map`] = [file(`build/${name}.js.map`), 'application/json'];
}
const REDIRECTS = /** @type {Record<string, string>} */ ({ '/': '/checkout', '/spa': '/spa/' });

/**
 * The pages' policy. `frame-src` admits the card frames' origin only; scripts, styles and requests
 * stay on this origin; Trusted Types keeps every HTML sink closed.
 * @param {string} frameOrigin
 */
export const contentSecurityPolicy = (frameOrigin) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `frame-src ${frameOrigin}`,
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "require-trusted-types-for 'script'",
  ].join('; ');

/**
 * @param {{
 *   gateway: import('payframe/server').Gateway, merchantId: string,
 *   gatewayUrl: string, frameOrigin: string, publicOrigin: string, staffKey: string, order?: import('./order.mjs').Order,
 *   notifyAuthorization: string, db: import('./db.mjs').Database,
 * }} options `gatewayUrl`: what the page's client talks to; `frameOrigin`: where the card frames come from;
 * `publicOrigin`: this server as the browser reaches it (the redirect flow's return URL is built on it);
 * `staffKey`: the key of the printed back office address (32 hex digits), without which no back-office route answers;
 * `notifyAuthorization`: the Authorization value the service adds to its notifications (`POST /api/notifications`);
 * `db`: the shop's database, where its ledger is kept.
 */
export async function createMerchantServer(options) {
  const { staffKey, db, ...rest } = options;
  const shop = { ...rest, order: options.order ?? DEFAULT_ORDER, ledger: await createLedger(db) };
  const staff = createStaff(staffKey);
  const accounts = createAccounts(shop);
  const api = router([...checkoutRoutes(shop, accounts), ...accounts.routes, staff.sessionRoute, ...staff.only(backOfficeRoutes(shop))]);
  const csp = contentSecurityPolicy(options.frameOrigin);

  /** @param {Request} request @param {import('./http.mjs').Context} ctx */
  const handle = async (request, ctx) => {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith('/api/')) {
      try {
        return (await api(request, ctx)) ?? json(404, { error: { code: 'not_found', message: 'No such route.' } });
      } catch (error) {
        return errorAnswer(error);
      }
    }
    const headers = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' };
    if (REDIRECTS[pathname]) return new Response(null, { status: 302, headers: { ...headers, location: REDIRECTS[pathname] } });
    const found = FILES[pathname];
    if (!found) return new Response('Not found', { status: 404, headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' } });
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return new Response(null, { status: 405, headers: { ...headers, allow: 'GET, HEAD' } });
    const [path, type] = found;
    const body = await readFile(path).catch(() => undefined);
    if (!body)
      return new Response('Not built: run npm start', {
        status: 503,
        headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' },
      });
    const html = type === 'text/html';
    return new Response(request.method === 'HEAD' ? null : body, {
      headers: {
        ...headers,
        'content-type': `${type}${type.startsWith('text/') ? '; charset=utf-8' : ''}`,
        ...(html ? { 'content-security-policy': csp, 'referrer-policy': 'same-origin' } : {}),
      },
    });
  };

  // Only the names this server was started under: a page of another site whose name is made to
  // point at 127.0.0.1 (DNS rebinding) is refused instead of being treated as this shop.
  const { host, port } = new URL(options.publicOrigin);
  const hosts = new Set([host, `127.0.0.1:${port}`]);

  /** The node:http listener: each request as a Fetch Request, with the caller's address and cookie. */
  return (/** @type {import('node:http').IncomingMessage} */ req, /** @type {import('node:http').ServerResponse} */ res) => {
    if (!hosts.has(req.headers.host ?? '')) {
      req.resume();
      res.writeHead(421, { 'content-type': 'text/plain; charset=utf-8' }).end(`This server answers at ${options.publicOrigin} only.`);
      return;
    }
    const ip = req.socket.remoteAddress?.replace(/^::ffff:/, '');
    toNodeListener((request) => handle(request, { ip, owner: ownerOf(request) }))(req, res);
  };
}
