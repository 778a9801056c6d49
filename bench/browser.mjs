// What parts 2 and 3 share: real Chromium, the sandbox (https://127.0.0.1:P1: the gateway and the
// card frames) and a merchant's checkout on another origin (https://localhost:P2), as the e2e tests
// set them up: the hosted form's script-tag bundle, a client token from the merchant's own route
// (payframe/server's handler), the page under a strict CSP. The sandbox's frame folder is a copy of
// dist/frame with one more page, blank.html, so that blank iframes come from the very same server,
// with the same headers, as the card frames.
import { createHash, createPublicKey } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import { quantile } from './lib.mjs';

// PAYFRAME_BENCH_DIST: another build (an older checkout's dist/, with its node_modules), run whole: its
// page bundle, frames, sandbox and frame host, for a before/after. Its frame page and the policy its
// sandbox serves it with belong together (since issue 21 the policy names the page's inline script).
const distRoot = process.env.PAYFRAME_BENCH_DIST
  ? pathToFileURL(`${process.env.PAYFRAME_BENCH_DIST.replace(/\/?$/, '/')}`)
  : new URL('../dist/', import.meta.url);
const dist = (file) => new URL(file, distRoot);
const { makeCertificate, startSandbox } = await import(dist('sandbox.mjs'));
const { createFrameHost, createGateway, toNodeListener } = await import(dist('server.mjs'));

// The merchant's server speaks TLS to the sandbox, whose certificate is self-signed and made at
// start (as in the e2e tests and part 5); Node says so once per process: not a figure.
process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
process.removeAllListeners('warning');

export const CARD = { number: '4111 1111 1111 1111', expiry: '12 / 34', cvv: '123' };
const LABELS = { number: 'Card number', expiry: 'Expiry date', cvv: 'Security code' };

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Checkout</title>
<script src="/payframe.umd.min.js" defer></script><script src="/bench.js" defer></script></head>
<body><form id="pay">
${Object.entries(LABELS)
  .map(([name, label]) => `<label for="card-${name}">${label}</label><div id="card-${name}"></div>`)
  .join('\n')}
<div id="blank-1"></div><div id="blank-2"></div><div id="blank-3"></div>
<button>Pay</button></form></body></html>`;

// The page's script (no inline script under its CSP): what a merchant's checkout does, timed.
const SCRIPT = `(() => {
  const q = new URLSearchParams(location.search);
  const client = Payframe.createClient({
    merchantId: q.get('merchant'),
    baseUrl: q.get('gateway'),
    authorization: () => fetch('/client-token', { method: 'POST' }).then((r) => r.json()),
  });
  const fields = { number: { container: '#card-number' }, expiry: { container: '#card-expiry' }, cvv: { container: '#card-cvv' } };
  let form;
  let blanks = [];
  window.bench = {
    async mount() {
      const start = performance.now();
      form = Payframe.mountFields({ client, fields, ...(q.get('frames') ? { frameUrl: q.get('frames') } : {}) });
      await form.ready;
      return performance.now() - start;
    },
    unmount: () => form.destroy(),
    /**
     * \`count\` iframes of an empty page from the frames' server, in as many containers, sized as the card
     * frames are; each URL its own (a browser loads one URL's requests one after another).
     */
    async blank(src, count = 3) {
      const start = performance.now();
      await Promise.all([1, 2, 3].slice(0, count).map((n) => new Promise((resolve, reject) => {
        const frame = document.createElement('iframe');
        frame.onload = resolve;
        frame.onerror = reject;
        frame.src = src + '&i=' + n;
        Object.assign(frame.style, { display: 'block', width: '100%', height: '2.75rem', border: '0' });
        document.getElementById('blank-' + n).append(frame);
        blanks.push(frame);
      })));
      return performance.now() - start;
    },
    unblank() {
      blanks.forEach((frame) => frame.remove());
      blanks = [];
    },
    async tokenize() {
      const start = performance.now();
      const { nonce } = await form.tokenize();
      return { ms: performance.now() - start, nonce };
    },
  };
})();`;

const csp = (gateway) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `frame-src ${gateway}`,
    "connect-src 'self'",
    "require-trusted-types-for 'script'",
  ].join('; ');

/**
 * The sandbox and the merchant's server, in this process, on one certificate; `counts.token` counts
 * client-token requests. `spki` is the certificate's key hash, which Chromium is told to trust: with
 * a certificate error it would cache nothing, and the frame script is meant to be cached.
 */
export async function startShop({ frameHost = false } = {}) {
  const frameDir = mkdtempSync(join(tmpdir(), 'payframe-bench-frame-'));
  cpSync(dist('frame'), frameDir, { recursive: true });
  writeFileSync(
    join(frameDir, 'blank.html'),
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>blank</title></head><body></body></html>\n',
  );
  const tls = makeCertificate();
  const spki = createHash('sha256')
    .update(createPublicKey(tls.cert).export({ type: 'spki', format: 'der' }))
    .digest('base64');
  const bundle = readFileSync(dist('payframe.umd.min.js'));
  const counts = { token: 0, other: 0 };
  // The shop's server listens first (its origin configures the merchant), and answers once the sandbox runs.
  let sandbox;
  let mintToken;
  const server = createServer(tls, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://localhost').pathname;
    if (path === '/client-token') {
      counts.token++;
      return mintToken(req, res);
    }
    counts.other++;
    const file = {
      '/': ['text/html; charset=utf-8', PAGE],
      '/payframe.umd.min.js': ['text/javascript', bundle],
      '/bench.js': ['text/javascript', SCRIPT],
    }[path];
    if (!file) return res.writeHead(404).end();
    // The page's frame-src names where its frames come from: the gateway it is given (part 6 puts a
    // delaying proxy in front of the sandbox), or the merchant's frame host.
    const query = new URL(req.url ?? '/', 'https://localhost').searchParams;
    const framesOrigin = new URL(query.get('frames') ?? query.get('gateway') ?? sandbox.url).origin;
    res.writeHead(200, {
      'content-type': file[0],
      'cache-control': 'no-store',
      ...(path === '/' ? { 'content-security-policy': csp(framesOrigin) } : {}),
    });
    res.end(file[1]);
  });
  await new Promise((resolve) => server.listen(0, 'localhost', resolve));
  const shopOrigin = `https://localhost:${server.address().port}`;
  // The production topology (issue 16): the frames on a third origin, the merchant's frame host
  // (createFrameHost on 127.0.0.2), calling the gateway cross-origin; the merchant names both origins.
  let host;
  const frames = frameHost ? createServer(tls, (req, res) => host(req, res)) : undefined;
  if (frames) await new Promise((resolve) => frames.listen(0, '127.0.0.2', resolve));
  const framesUrl = frames && `https://127.0.0.2:${frames.address().port}/`;
  const merchants = frames && [
    { id: 'bench-merchant', clientId: 'bench-client', clientSecret: 'bench-secret', origins: [shopOrigin, new URL(framesUrl).origin] },
  ];
  sandbox = await startSandbox({ frameDir, tls, ...(merchants ? { merchants } : {}) });
  const { id, clientId, clientSecret } = sandbox.merchant;
  const gateway = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: sandbox.url });
  mintToken = toNodeListener(gateway.handlers.clientToken());
  if (frames) host = toNodeListener(createFrameHost({ gateway: sandbox.url, merchantOrigins: [shopOrigin] }));
  const url = `${shopOrigin}/?${new URLSearchParams({ merchant: id, gateway: sandbox.url, ...(framesUrl ? { frames: framesUrl } : {}) })}`;
  return {
    sandbox,
    gateway,
    url,
    counts,
    spki,
    tls,
    origin: shopOrigin,
    blankUrl: `${sandbox.url}/frame/blank.html?${new URLSearchParams({ merchant: id })}`,
    async close() {
      for (const s of [server, frames].filter(Boolean)) {
        s.closeAllConnections();
        await new Promise((resolve) => s.close(resolve));
      }
      await sandbox.close();
      rmSync(frameDir, { recursive: true, force: true });
    },
  };
}

/**
 * Debian's Chromium, the whole browser a payer runs (the suite runs most tests in its headless shell),
 * trusting the shop's certificate when a shop over HTTPS is given.
 */
export function launch(shop) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(shop ? [`--ignore-certificate-errors-spki-list=${shop.spki}`] : []),
    ],
  });
}

/** A fresh context (no cache, no connection) with the checkout open and its scripts run. */
export async function openCheckout(browser, shop) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(shop.url);
  await page.waitForFunction(() => typeof window.bench === 'object');
  return { context, page };
}

/** Types the card as a person does: each field found by its label inside its frame, key by key. */
export async function typeCard(page) {
  for (const [name, text] of Object.entries(CARD)) {
    await page.frameLocator(`#card-${name} iframe`).getByLabel(LABELS[name]).click();
    await page.keyboard.type(text);
  }
}

/**
 * Milestones of the frames whose URL contains `part`, in ms after `start` (the page's clock), the
 * median over the frames: navigation start, its request sent (the connection made), HTML received, script received (when there is one),
 * scripts run (DOMContentLoaded).
 */
export async function milestones(page, part, start) {
  const frames = page.frames().filter((f) => f.url().includes(part));
  const each = await Promise.all(
    frames.map((f) =>
      f.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0];
        const script = performance.getEntriesByType('resource').find((r) => r.initiatorType === 'script');
        const at = (t) => performance.timeOrigin + t;
        return {
          navigation: at(0),
          request: at(nav.requestStart),
          html: at(nav.responseEnd),
          script: script ? at(script.responseEnd) : undefined,
          ran: at(nav.domContentLoadedEventEnd),
        };
      }),
    ),
  );
  const median = (key) =>
    each[0]?.[key] === undefined
      ? undefined
      : quantile(
          each.map((e) => e[key] - start),
          0.5,
        );
  return {
    navigation: median('navigation'),
    request: median('request'),
    html: median('html'),
    script: median('script'),
    ran: median('ran'),
  };
}
