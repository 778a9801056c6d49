// A merchant's checkout for pending payments, as a merchant would write it: a page under a strict CSP
// (no inline script or style, Trusted Types) that loads the script-tag bundle, and a server built with
// payframe/server. The payment is created on the server (with a sandbox test card: the hosted form is
// another piece of work); the page finishes it with handlePending, and the return page with readReturn.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { type SandboxHandle, testCards } from '../../src/sandbox';
import { createGateway, type Gateway, type Handler, type PendingPayment, readPayment, toNodeListener, toPending } from '../../src/server';
import { trustedTls } from './tls';

const BUNDLE = new URL('../../dist/payframe.umd.min.js', import.meta.url);
// The bundle's pending flow, which it loads from beside itself at the first handlePending.
const CHUNK = new URL('../../dist/payframe.pending.umd.min.js', import.meta.url);

const CHECKOUT_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout</title>
<link rel="stylesheet" href="/shop.css">
<script src="/payframe.umd.min.js" defer></script>
<script src="/checkout.js" defer></script>
</head>
<body>
<main>
<h1 id="title">Checkout</h1>
<p id="total">Total: 12.500 OMR</p>
<button id="pay" type="button">Pay</button>
<div id="otp"></div>
<p id="result" role="status"></p>
</main>
</body>
</html>`;

// The page's own code: config from the query, as a server-rendered page would embed it.
const CHECKOUT_JS = `
const query = new URLSearchParams(location.search);
const lang = query.get('lang') === 'ar' ? 'ar' : 'en';
if (lang === 'ar') {
  document.documentElement.lang = 'ar';
  document.documentElement.dir = 'rtl';
  document.title = 'الدفع';
  document.getElementById('title').textContent = 'الدفع';
  document.getElementById('total').textContent = 'المجموع: ١٢٫٥٠٠ ر.ع.';
  document.getElementById('pay').textContent = 'ادفع';
}
const client = Payframe.createClient({
  merchantId: query.get('merchant'),
  baseUrl: query.get('gateway'),
  authorization: () => fetch('/client-token', { method: 'POST' }).then((r) => r.json()),
});
const result = document.getElementById('result');
const post = (path, body, signal) =>
  fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal }).then((r) => r.json());

document.getElementById('pay').addEventListener('click', async (event) => {
  event.currentTarget.disabled = true;
  result.textContent = '';
  try {
    const answer = await post('/pay', { card: query.get('card'), intent: query.get('intent') });
    window.checkoutPending = answer.pending;
    const outcome = await Payframe.handlePending(answer.pending, {
      client,
      mode: query.get('mode') || 'auto',
      container: '#otp',
      locale: lang,
      submitOtp: (body, { signal }) => post('/authenticate', body, signal),
    });
    result.dataset.outcome = outcome.status;
    result.textContent = outcome.status + ': ' + outcome.state + ' ' + outcome.code;
  } catch (error) {
    result.dataset.error = error.code;
    result.textContent = error.code + (error.reason ? ' ' + error.reason : '');
  }
});
`;

const RETURN_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Payment</title>
<link rel="stylesheet" href="/shop.css">
<script src="/payframe.umd.min.js" defer></script>
<script src="/return.js" defer></script>
</head>
<body><main><h1>Thank you</h1><p id="result" role="status">Checking your payment…</p></main></body>
</html>`;

const RETURN_JS = `
const result = document.getElementById('result');
try {
  const { sessionId } = Payframe.readReturn(location.href);
  fetch('/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionId }) })
    .then((r) => r.json())
    .then((payment) => {
      result.dataset.outcome = payment.status;
      result.textContent = 'Payment ' + payment.state + ' (' + payment.code + ')';
    });
} catch (error) {
  result.dataset.error = error.code;
  result.textContent = 'No payment to show (' + error.code + ')';
}
`;

// The merchant's own look for the documented class names of the OTP form.
const SHOP_CSS = `
body { font: 16px/1.5 system-ui, sans-serif; color: #1f2328; margin: 0; background: #f6f8fa; }
main { max-width: 26rem; margin: 2rem auto; padding: 1.5rem; background: #fff; border: 1px solid #d0d7de; border-radius: 8px; }
h1 { font-size: 1.375rem; margin: 0 0 .5rem; }
#pay { font: inherit; padding: .5rem 1.25rem; background: #0b57d0; color: #fff; border: 0; border-radius: 6px; }
#pay:disabled { background: #57606a; }
.payframe-otp { display: grid; grid-template-columns: 1fr auto; gap: .5rem; margin-top: 1rem; }
.payframe-otp__label { grid-column: 1 / -1; font-weight: 600; }
.payframe-otp__input { font: inherit; padding: .5rem; border: 1px solid #57606a; border-radius: 6px; letter-spacing: .2em; }
.payframe-otp__input:focus, .payframe-otp__submit:focus, #pay:focus { outline: 3px solid #0b57d0; outline-offset: 2px; }
.payframe-otp__input[aria-invalid="true"] { border-color: #b3261e; }
.payframe-otp__submit { font: inherit; padding: .5rem 1rem; background: #0b57d0; color: #fff; border: 0; border-radius: 6px; }
.payframe-otp__submit:disabled { background: #57606a; }
.payframe-otp__status { grid-column: 1 / -1; margin: 0; color: #424a53; }
.payframe-otp[data-state="invalid"] .payframe-otp__status,
.payframe-otp[data-state="declined"] .payframe-otp__status,
.payframe-otp[data-state="expired"] .payframe-otp__status,
.payframe-otp[data-state="failed"] .payframe-otp__status { color: #b3261e; }
.payframe-otp[data-state="approved"] .payframe-otp__status { color: #116329; }
`;

export interface Shop {
  url: string;
  /** Every payment this shop created, by reference id. */
  payments: Map<string, { sessionId: string | undefined; owner: string }>;
  /** Makes the next `/pay` answer carry another redirectUrl: a compromised or buggy merchant server. */
  forgeRedirectUrl(forge: (pending: PendingPayment) => string): void;
  /** Makes the next `/pay` answer carry no `otp`: a server on an older payframe. */
  answerAsOlderServer(): void;
  /** Every GET the shop answered, path and query, in order. */
  gets: string[];
  /** What the shop answers for payframe.pending.umd.min.js: the built file, another text (a tampered file), or `null` (a 503). */
  chunk: Buffer | string | null;
  close(): Promise<void>;
}

const CARDS = { otp: testCards.otp, redirectOnly: testCards.redirectOnly } as const;

export async function startShop(sandbox: SandboxHandle): Promise<Shop> {
  const { id, clientId, clientSecret } = sandbox.merchant;
  const gateway: Gateway = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: sandbox.url });
  const payments: Shop['payments'] = new Map();
  let forge: ((pending: PendingPayment) => string) | undefined;
  let older = false;
  let url = '';

  const ownerOf = (request: Request) => /(?:^|;\s*)checkout=([\w-]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

  const pay: Handler = async (request) => {
    const { card, intent } = (await request.json()) as { card: keyof typeof CARDS; intent: 'auth' | 'sale' };
    const owner = ownerOf(request) ?? randomUUID();
    const c = CARDS[card];
    const payment = await gateway.payments.create({
      intent,
      amount: { currency: 'OMR', total: '12.500' },
      card: { number: c.number, expireMonth: c.expireMonth, expireYear: c.expireYear, cvv: c.cvv },
      returnUrl: `${url}/return`,
    });
    const pending = toPending(payment);
    payments.set(pending.referenceId, { sessionId: pending.sessionId, owner });
    if (forge) pending.redirectUrl = forge(pending);
    forge = undefined;
    if (older) delete pending.otp;
    older = false;
    return json(200, { pending }, { 'set-cookie': `checkout=${owner}; Path=/; Secure; HttpOnly; SameSite=Lax` });
  };

  // A payer may finish, and read, only the payments of their own checkout.
  const mine = (request: Request, referenceId: string) => payments.get(referenceId)?.owner === ownerOf(request);

  const session: Handler = async (request) => {
    const { sessionId } = (await request.json()) as { sessionId: string };
    const payment = await gateway.payments.session(sessionId);
    if (!mine(request, payment.reference_id)) return json(403, { error: { code: 'forbidden' } });
    const { status, state, code } = readPayment(payment);
    return json(200, { status, state, code });
  };

  const bundle = await readFile(BUNDLE);
  const shop: Shop = {
    url,
    payments,
    forgeRedirectUrl: (next) => (forge = next),
    answerAsOlderServer: () => (older = true),
    gets: [],
    chunk: await readFile(CHUNK),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `connect-src 'self' ${sandbox.url}`,
    "require-trusted-types-for 'script'",
  ].join('; ');
  const files: Record<string, [string, string | Buffer]> = {
    '/': ['text/html; charset=utf-8', CHECKOUT_HTML],
    '/return': ['text/html; charset=utf-8', RETURN_HTML],
    '/checkout.js': ['text/javascript', CHECKOUT_JS],
    '/return.js': ['text/javascript', RETURN_JS],
    '/shop.css': ['text/css', SHOP_CSS],
    '/payframe.umd.min.js': ['text/javascript', bundle],
  };
  const routes: Record<string, (req: never, res: never) => void> = {
    '/client-token': toNodeListener(gateway.handlers.clientToken()),
    '/pay': toNodeListener(pay),
    '/authenticate': toNodeListener(
      gateway.handlers.authenticate({ authorize: async (request, referenceId) => mine(request, referenceId) }),
    ),
    '/session': toNodeListener(session),
  };

  const server: Server = createServer(trustedTls(), (req, res) => {
    const path = new URL(req.url ?? '/', 'https://localhost').pathname;
    const route = req.method === 'POST' ? routes[path] : undefined;
    if (route) return route(req as never, res as never);
    if (req.method !== 'GET') return res.writeHead(404).end();
    shop.gets.push(req.url ?? '/');
    if (path === '/payframe.pending.umd.min.js' && shop.chunk === null) return res.writeHead(503).end();
    const file: [string, string | Buffer] | undefined =
      path === '/payframe.pending.umd.min.js' ? ['text/javascript', shop.chunk!] : files[path];
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file[0], 'content-security-policy': csp, 'cache-control': 'no-store' }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  url = `https://localhost:${(server.address() as AddressInfo).port}`;
  shop.url = url;

  return shop;
}
