// A merchant for the browser tests: its own HTTPS origin (https://localhost:P2) serving a checkout
// under a strict CSP with Trusted Types, the script-tag bundles, and three routes written with
// payframe/server (a client token, a sale paid with a nonce, and a saved card paid again with the CVV
// its frame posts). The sandbox (https://127.0.0.1:P1) is the gateway and serves the card frames; or,
// as a live checkout is set up (`frameHost`), the frames come from a frame host of the merchant's, on a
// third origin (https://127.0.0.2:P3), made with createFrameHost, and the sandbox stands for the live service.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { SandboxHandle, SandboxOptions } from '../../src/sandbox';
import { createFrameHost, createGateway, type Gateway, readPayment, toNodeListener, toPending } from '../../src/server';
import { startSandbox, trustedTls } from './tls';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFile(new URL(path, root));

export interface Merchant {
  sandbox: SandboxHandle;
  gateway: Gateway;
  /** https://localhost:PORT */
  url: string;
  /** CSP reports the browser posted to /csp-report (the Reporting API's, or report-uri's where it has no other). */
  reports: unknown[];
  /** Every request the merchant's server received: method, path and the headers a test may check. */
  requests: { method: string; path: string; headers: IncomingMessage['headers'] }[];
  /** How many client tokens the page asked for; set `refuseTokens` to make the route answer 502. */
  tokenRequests: number;
  refuseTokens: boolean;
  /** Mounts `/saved-card/ticket` and `/saved-card/pay` from a module's code (docs/saved-card-cvv.md's `hosted/saved-card.mjs`). */
  useSavedCardRoutes(code: string): Promise<void>;
  /** What the saved-card route received from the CVV frame. */
  received: { cvv: string; body: Record<string, unknown> }[];
  /**
   * With `payAttempts`: how many of the next `POST /pay` answers are lost after the payment was made (the
   * connection is dropped on the answer's way back), as a broken connection loses them.
   */
  losePayAnswers: number;
  /** Extra files by path (fonts, pages of a test). */
  files: Map<string, { type: string; body: string | Buffer; headers?: Record<string, string> }>;
  /** With `frameHost`: the URL the page passes as `frameUrl` (https://127.0.0.2:P3/), and every request the frame host received. */
  frameHost?: { url: string; requests: { method: string; path: string }[] };
  close(): Promise<void>;
}

export function pageCsp(sandboxUrl: string, frameOrigin = sandboxUrl): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `frame-src ${frameOrigin}`,
    `connect-src 'self' ${sandboxUrl}`,
    "require-trusted-types-for 'script'",
    'report-uri /csp-report',
    'report-to csp',
  ].join('; ');
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export interface MerchantOptions extends SandboxOptions {
  /** The sandbox's merchant allows exactly this page's origin (frame-ancestors and CORS), as a live merchant would configure it. */
  ownOriginOnly?: boolean;
  /** The frames from a frame host of the merchant's (createFrameHost) on a third origin, as in production. */
  frameHost?: boolean;
  /**
   * `/pay` is payframe's own pay route (`gateway.handlers.pay`): `POST { nonce, attempt }` and `GET ?attempt=`,
   * a sale of 25.00 USD, as docs/outcomes.md's pages post it. Without it, `/pay` is the older route that
   * pays `{ nonce, name }` and answers what the payment became.
   */
  payAttempts?: boolean;
}

export async function startMerchant({
  ownOriginOnly,
  frameHost: withFrameHost,
  payAttempts,
  ...options
}: MerchantOptions = {}): Promise<Merchant> {
  // The page's origin, and the frame host's, are known first, so that the merchant can be configured with them.
  const server: Server = createServer(trustedTls(), (req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  const url = `https://localhost:${(server.address() as AddressInfo).port}`;
  const framesServer = withFrameHost ? createServer(trustedTls(), (req, res) => void serveFrames(req, res)) : undefined;
  // Another loopback address (a Content-Security-Policy cannot name an IPv6 one): a host of its own.
  if (framesServer) await new Promise<void>((resolve) => framesServer.listen(0, '127.0.0.2', resolve));
  const framesUrl = framesServer && `https://127.0.0.2:${(framesServer.address() as AddressInfo).port}/`;
  const frameOrigin = framesUrl && new URL(framesUrl).origin;
  // The nonce endpoint answers CORS for the origins the merchant names: the frame host's, when the frames come from it.
  const own = {
    id: 'sandbox-merchant',
    clientId: 'sandbox-client',
    clientSecret: 'sandbox-secret',
    origins: [url, ...(frameOrigin ? [frameOrigin] : [])],
  };
  const sandbox = await startSandbox(ownOriginOnly || framesServer ? { ...options, merchants: [own] } : options);
  const { id, clientId, clientSecret } = sandbox.merchant;
  const gateway = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: sandbox.url });
  const mintToken = toNodeListener(gateway.handlers.clientToken());
  const received: Merchant['received'] = [];
  const frameHostRequests: { method: string; path: string }[] = [];
  const frames = framesUrl ? toNodeListener(createFrameHost({ gateway: sandbox.url, merchantOrigins: [url] })) : undefined;
  const serveFrames = (req: IncomingMessage, res: ServerResponse) => {
    frameHostRequests.push({ method: req.method ?? 'GET', path: req.url ?? '/' });
    frames!(req, res);
  };
  // The CVV-only form's route: CORS for the frames' origin (the sandbox's, or the frame host's) only; a saved card paid again.
  const savedCard = toNodeListener(
    gateway.handlers.cvv({
      ...(frameOrigin ? { frameOrigin } : {}),
      handle: async ({ cvv, body }) => {
        received.push({ cvv, body });
        const card = { savedCardId: String(body['savedCardId']), cvv };
        return gateway.payments.create({
          intent: 'auth',
          amount: { currency: 'USD', total: '25.00' },
          card,
          storedCredential: { kind: 'cardholder' },
        });
      },
    }),
  );
  let savedCardRoutes: Record<string, ReturnType<typeof toNodeListener>> = {};
  const authenticate = toNodeListener(gateway.handlers.authenticate());
  const payRoute = gateway.handlers.pay({ payment: () => ({ intent: 'sale', amount: { currency: 'USD', total: '25.00' } }) });
  const pay = (req: IncomingMessage, res: ServerResponse) =>
    toNodeListener(async (request) => {
      const answer = await payRoute(request);
      // The payment is made and its answer is lost on the way back: the connection breaks mid-answer (after
      // its headers, so that the browser cannot take the request for one an idle connection dropped, and send it again).
      if (request.method === 'POST' && merchant.losePayAnswers > 0) {
        merchant.losePayAnswers--;
        res.writeHead(200, { 'content-type': 'application/json' }).write('{"status":', () => res.destroy());
        throw new Error('the answer was lost'); // toNodeListener ends what was sent
      }
      return answer;
    })(req, res);
  const files: Merchant['files'] = new Map([
    ['/payframe.umd.min.js', { type: 'text/javascript', body: await read('dist/payframe.umd.min.js') }],
    ['/payframe.full.umd.min.js', { type: 'text/javascript', body: await read('dist/payframe.full.umd.min.js') }],
    ['/payframe.pending.umd.min.js', { type: 'text/javascript', body: await read('dist/payframe.pending.umd.min.js') }],
    ['/checkout.js', { type: 'text/javascript', body: await read('e2e/support/checkout.js') }],
    ['/checkout.css', { type: 'text/css', body: await read('e2e/support/checkout.css') }],
    ['/', { type: 'text/html; charset=utf-8', body: await read('e2e/support/checkout.html') }],
    ['/saved-card', { type: 'text/html; charset=utf-8', body: await read('e2e/support/saved-card.html') }],
    ['/saved-card.js', { type: 'text/javascript', body: await read('e2e/support/saved-card.js') }],
  ]);
  const reports: unknown[] = [];
  const requests: Merchant['requests'] = [];
  const merchant: Merchant = {
    sandbox,
    gateway,
    url,
    reports,
    requests,
    tokenRequests: 0,
    refuseTokens: false,
    losePayAnswers: 0,
    received,
    async useSavedCardRoutes(code) {
      savedCardRoutes = await savedCardModule(gateway, code, frameOrigin);
    },
    files,
    ...(framesUrl ? { frameHost: { url: framesUrl, requests: frameHostRequests } } : {}),
    async close() {
      for (const s of [server, framesServer]) {
        s?.closeAllConnections();
        await new Promise((resolve) => (s ? s.close(resolve) : resolve(undefined)));
      }
      await sandbox.close();
    },
  };
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    const path = new URL(req.url ?? '/', 'https://localhost').pathname;
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers });
    try {
      if (path === '/client-token') {
        merchant.tokenRequests++;
        if (!merchant.refuseTokens) return mintToken(req, res);
        return res
          .writeHead(502, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { code: 'server_error', message: 'no token today' } }));
      }
      if (path === '/pay/saved-card') return savedCard(req, res);
      const savedCardRoute = savedCardRoutes[path];
      if (savedCardRoute) return savedCardRoute(req, res);
      if (path === '/authenticate') return authenticate(req, res);
      if (path === '/csp-report') {
        reports.push(JSON.parse((await body(req)) || 'null'));
        return res.writeHead(204).end();
      }
      if (path === '/pay' && payAttempts) return pay(req, res);
      if (path === '/pay') {
        const { nonce, name } = JSON.parse(await body(req));
        const payment = await gateway.payments.create({
          intent: 'sale',
          amount: { currency: 'USD', total: '25.00' },
          card: { nonce, name },
        });
        const { status, state, code } = readPayment(payment);
        const pending = status === 'pending' ? { pending: toPending(payment) } : {};
        return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status, state, code, ...pending }));
      }
      const file = files.get(path);
      if (!file) return res.writeHead(404).end();
      res.writeHead(200, {
        'content-type': file.type,
        'cache-control': 'no-store',
        ...(file.type.startsWith('text/html')
          ? { 'content-security-policy': pageCsp(sandbox.url, frameOrigin), 'reporting-endpoints': 'csp="/csp-report"' }
          : {}),
        ...file.headers,
      });
      res.end(file.body);
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    }
  }
  return merchant;
}

/** The checkout's address: the gateway and merchant come in the query, as a server-rendered page would embed them. */
export function checkoutUrl(merchant: Merchant, query: Record<string, string> = {}): string {
  const frames: Record<string, string> = merchant.frameHost ? { frameUrl: merchant.frameHost.url } : {};
  return `${merchant.url}/?${new URLSearchParams({ merchant: merchant.sandbox.merchant.id, gateway: merchant.sandbox.url, ...frames, ...query })}`;
}

/**
 * Saved-card routes from a module's code (docs/saved-card-cvv.md's), run as written: the module is written where
 * `payframe/server` resolves to this package, and mounted with toNodeListener. A ticket is for 25.00 USD.
 * `frameOrigin`: the frame host's, when the frames come from one (undefined: the sandbox serves them).
 */
async function savedCardModule(gateway: Gateway, code: string, frameOrigin: string | undefined) {
  const dir = new URL('../../test-results/readme/', import.meta.url);
  await mkdir(dir, { recursive: true });
  const file = new URL(`saved-card-${process.pid}-${Date.now()}.mjs`, dir);
  await writeFile(file, code);
  const { issueTicket, paySavedCard } = await import(file.href);
  return {
    '/saved-card/ticket': toNodeListener(async (request) => {
      const { cardId } = await request.json();
      return Response.json(issueTicket(cardId, { currency: 'USD', total: '25.00' }));
    }),
    '/saved-card/pay': toNodeListener(paySavedCard(gateway, frameOrigin)),
  };
}
