import { randomBytes, randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { AuthenticateRequestSchema, CaptureRequestSchema, NonceRequestSchema, RefundRequestSchema, VoidRequestSchema } from '../../schemas';
import { validateNumber } from '../../card';
import { authenticate, capture, childView, paymentOfSession, refund, voidPayment } from '../model/actions';
import { brandOf } from '../model/cards';
import { isLoopbackOrigin, LOOPBACK_HOSTS } from '../../shared/url';
import { fail } from '../errors';
import { serveFrame } from './frame-pages';
import { createPayment, findPayment, paymentView, type Ctx } from '../model/payments';
import { redirectPage } from './redirect-page';
import { CHAOS_SHAPE, ChaosSchema, type NotificationChaos } from '../model/notify';
import {
  body,
  jsonText,
  MERCHANT,
  mediaType,
  merchantContext,
  merchantOf,
  param,
  parseJson,
  type Reply,
  type Req,
  type Route,
  type Sandbox,
} from './context';
import { HOSTED_ROUTES } from './hosted/routes';
import { cardListView, payerByEmail, payerById, payerView, vaultCard, vaultCardView } from '../model/vault';
import { paymentRequestOf, VAULT_ROUTES } from './vault-routes';

const reply = (value: unknown): Reply => ({ json: value });

/**
 * CORS for the nonce endpoint; the only endpoint a browser calls. A request from the sandbox's own
 * origin (its card frames, which it serves) is same-origin: taken whatever the merchant's origins.
 */
function cors(sb: Sandbox, req: Req): boolean {
  const origin = req.headers['origin'];
  const merchant = sb.merchants.get(param(req, 0));
  req.replyHeaders['vary'] = 'Origin';
  if (!origin || !merchant) return false;
  // The frames the sandbox serves: its own origins, from the address it is bound to, never from the request's Host.
  const own = ownOrigins(sb).includes(origin);
  const allowed = own || (merchant.origins ? merchant.origins.includes(origin) : isLoopbackOrigin(origin));
  if (allowed) req.replyHeaders['access-control-allow-origin'] = origin;
  return allowed;
}

/** The origins the sandbox serves: each loopback name on its port, over https (and http in the development mode), and each allowed host. */
function ownOrigins(sb: Sandbox): string[] {
  const { port } = new URL(sb.url);
  const schemes = sb.httpUrl ? ['https', 'http'] : ['https'];
  const tunnels = sb.allowedHosts.map((h) => `https://${h}`);
  return [...schemes.flatMap((s) => [...LOOPBACK_HOSTS, ...sb.allowedHosts].map((h) => `${s}://${h}:${port}`)), ...tunnels];
}

const GRANT = 'grant_type=client_credentials';

function clientToken(sb: Sandbox, req: Req): Reply {
  const ctx = merchantContext(sb, req);
  const type = mediaType(req);
  if (type !== 'application/json' && type !== 'application/x-www-form-urlencoded') {
    fail('UNSUPPORTED_MEDIA_TYPE', 'The body must be application/json or form-encoded');
  }
  // The service's own example sends the quoted literal as application/json; accept it, JSON and a form.
  const text = req.body.toString('utf8').trim();
  const literal = text.replace(/^'(.*)'$/, '$1');
  const ok =
    new URLSearchParams(literal).get('grant_type') === 'client_credentials' ||
    literal === GRANT ||
    (type === 'application/json' &&
      text.startsWith('{') &&
      (parseJson(text) as { grant_type?: unknown })?.grant_type === 'client_credentials');
  if (!ok) fail('INVALID_REQUEST', 'grant_type must be client_credentials');
  const now = sb.clock.nowMs();
  sb.store.sweep(now);
  const accessToken = randomBytes(32).toString('base64url');
  sb.store.tokens.set(accessToken, { merchantId: ctx.merchantId, expiresAt: now + sb.tokenTtlMs });
  return reply({ accessToken, tokenType: 'Bearer', expiresOn: sb.clock.iso(now + sb.tokenTtlMs), issuedOn: sb.clock.iso(now) });
}

function nonce(sb: Sandbox, req: Req): Reply {
  const merchant = merchantOf(sb, param(req, 0));
  // A browser page on another origin is refused outright; a request without Origin is not a browser's.
  if (!cors(sb, req) && req.headers['origin'] !== undefined) fail('ORIGIN_NOT_ALLOWED', 'This origin is not allowed for this merchant');
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers['authorization'] ?? '')?.[1];
  const token = bearer === undefined ? undefined : sb.store.token(bearer);
  if (!token || token.merchantId !== merchant.id) fail('INVALID_CLIENT_TOKEN', 'Missing or unknown client token');
  const now = sb.clock.nowMs();
  if (now >= token!.expiresAt) fail('EXPIRED_CLIENT_TOKEN', 'The client token has expired');
  const card = body(req, NonceRequestSchema);
  if (!validateNumber(card.number).isValid)
    fail('INVALID_CARD_NUMBER', 'number is not a valid card number for its brand (length or check digit)');
  sb.store.sweep(now);
  const id = randomUUID();
  const expiresAt = now + sb.nonceTtlMs;
  sb.store.nonces.set(id, {
    merchantId: merchant.id,
    card: { number: card.number, expireMonth: card.expire_month, expireYear: card.expire_year },
    expiresAt,
    used: false,
  });
  const brand = brandOf(card.number);
  return reply({
    data: {
      brand_code: brand.code,
      credit_card_nonce: id,
      last4: card.number.slice(-4),
      type: brand.name,
      expire_month: card.expire_month,
      expire_year: card.expire_year,
      expires_on: sb.clock.iso(expiresAt),
      issued_on: sb.clock.iso(now),
    },
  });
}

function preflight(sb: Sandbox, req: Req): Reply {
  merchantOf(sb, param(req, 0));
  if (!cors(sb, req)) {
    delete req.replyHeaders['vary'];
    fail('ORIGIN_NOT_ALLOWED', 'This origin is not allowed for this merchant');
  }
  return {
    status: 204,
    json: undefined,
    headers: {
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': 'authorization, content-type',
      'access-control-max-age': '7200',
    },
  };
}

function authenticateRoute(sb: Sandbox, req: Req): Reply {
  const p = paymentOfSession(sb, param(req, 0));
  const ctx = { ...merchantContext(sb, { ...req, params: [p.merchantId] }), merchantId: p.merchantId };
  const input = body(req, AuthenticateRequestSchema);
  return reply(authenticate(ctx, p, input));
}

function findAny(ctx: Ctx, id: string) {
  const child = ctx.store.children.get(id);
  if (child && child.merchantId === ctx.merchantId) return childView(ctx, child);
  return paymentView(ctx, findPayment(ctx, id), 'retrieval');
}

const ClockSchema = v.strictObject({ advanceMs: v.pipe(v.number(), v.minValue(0)) });

export const ROUTES: Route[] = [
  { method: 'GET', pattern: /^\/$/, handle: () => reply({ service: 'payframe sandbox' }) },
  { method: 'POST', pattern: new RegExp(`${MERCHANT}/client_token$`), handle: clientToken },
  { method: 'POST', pattern: new RegExp(`${MERCHANT}/credit-card-nonce$`), handle: nonce },
  { method: 'OPTIONS', pattern: new RegExp(`${MERCHANT}/credit-card-nonce$`), handle: preflight },
  {
    method: 'POST',
    pattern: new RegExp(`${MERCHANT}/payment$`),
    handle: (sb, req) => reply(createPayment(merchantContext(sb, req), paymentRequestOf(req))),
  },
  {
    method: 'GET',
    pattern: new RegExp(`${MERCHANT}/payment/session/([^/]+)$`),
    handle: (sb, req) => {
      const ctx = merchantContext(sb, req);
      const p = paymentOfSession(sb, param(req, 1));
      if (p.merchantId !== ctx.merchantId) fail('NOT_FOUND', 'No payment session with this id');
      return reply(paymentView(ctx, p, 'retrieval'));
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`${MERCHANT}/payment/([^/]+)$`),
    handle: (sb, req) => reply(findAny(merchantContext(sb, req), param(req, 1))),
  },
  {
    method: 'POST',
    pattern: new RegExp(`${MERCHANT}/payment/([^/]+)/capture$`),
    handle: (sb, req) => reply(capture(merchantContext(sb, req), param(req, 1), body(req, CaptureRequestSchema, {}))),
  },
  {
    method: 'POST',
    pattern: new RegExp(`${MERCHANT}/payment/([^/]+)/void$`),
    handle: (sb, req) => reply(voidPayment(merchantContext(sb, req), param(req, 1), body(req, VoidRequestSchema, {}))),
  },
  {
    method: 'POST',
    pattern: new RegExp(`${MERCHANT}/payment/([^/]+)/refund$`),
    handle: (sb, req) => reply(refund(merchantContext(sb, req), param(req, 1), body(req, RefundRequestSchema, {}))),
  },
  { method: 'POST', pattern: /^\/v1\/authenticate\/([^/]+)$/, handle: authenticateRoute },
  {
    method: 'GET',
    pattern: new RegExp(`${MERCHANT}/payer$`),
    handle: (sb, req) => {
      const ctx = merchantContext(sb, req);
      const email = req.query.get('email');
      if (!email) fail('INVALID_REQUEST', 'email is required');
      return reply(payerView(sb.store, payerByEmail(sb.store, ctx.merchantId, email!)));
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`${MERCHANT}/payer/([^/]+)$`),
    handle: (sb, req) => reply(payerView(sb.store, payerById(sb.store, merchantContext(sb, req).merchantId, param(req, 1)))),
  },
  {
    method: 'GET',
    pattern: new RegExp(`${MERCHANT}/payer/([^/]+)/card$`),
    handle: (sb, req) => reply(cardListView(sb.store, payerById(sb.store, merchantContext(sb, req).merchantId, param(req, 1)))),
  },
  {
    method: 'GET',
    pattern: new RegExp(`${MERCHANT}/payer/([^/]+)/card/([^/]+)$`),
    handle: (sb, req) => {
      const payer = payerById(sb.store, merchantContext(sb, req).merchantId, param(req, 1));
      const card = vaultCard(sb.store, payer.merchantId, param(req, 2));
      if (card.payerId !== payer.id) fail('NOT_FOUND', 'No card with this id for this payer');
      return reply(vaultCardView(card));
    },
  },
  ...VAULT_ROUTES,
  ...HOSTED_ROUTES,
  { method: 'GET', pattern: /^\/v1\/redirect\/([^/]+)$/, handle: redirectPage },
  { method: 'POST', pattern: /^\/v1\/redirect\/([^/]+)$/, handle: redirectPage },
  { method: 'GET', pattern: /^\/frame\/(.*)$/, handle: serveFrame },
  {
    method: 'POST',
    pattern: /^\/__sandbox\/clock$/,
    testOnly: true,
    handle: (sb, req) => {
      const { advanceMs } = body(req, ClockSchema);
      if (!sb.clock.canAdvance(advanceMs)) fail('INVALID_REQUEST', 'advanceMs would move the clock past the last valid date');
      sb.clock.advance(advanceMs);
      return reply({ now: sb.clock.iso() });
    },
  },
  {
    method: 'POST',
    pattern: /^\/__sandbox\/fault$/,
    testOnly: true,
    handle: (sb, req) => {
      const text = jsonText(req);
      sb.addFault(text === undefined ? undefined : parseJson(text));
      return reply({ ok: true });
    },
  },
  { method: 'GET', pattern: /^\/__sandbox\/notifications$/, testOnly: true, handle: (sb) => reply({ notifications: sb.notifier.list() }) },
  {
    method: 'POST',
    pattern: /^\/__sandbox\/notifications\/idle$/,
    testOnly: true,
    handle: async (sb) => {
      // Bounded, so that a receiver that keeps timing out cannot hold the request for long.
      let timer: NodeJS.Timeout | undefined;
      const idle = await Promise.race([
        sb.notifier.idle().then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(resolve, IDLE_WAIT_MS, false))),
      ]);
      clearTimeout(timer);
      return reply({ idle, notifications: sb.notifier.list() });
    },
  },
  {
    method: 'POST',
    pattern: /^\/__sandbox\/notifications\/chaos$/,
    testOnly: true,
    handle: (sb, req) => {
      const text = jsonText(req);
      const input = text === undefined ? {} : parseJson(text);
      if (!v.is(ChaosSchema, input)) fail('INVALID_REQUEST', CHAOS_SHAPE);
      return reply(sb.notifier.setChaos(input as NotificationChaos));
    },
  },
];

/** The longest POST /__sandbox/notifications/idle waits before answering `idle: false`. */
const IDLE_WAIT_MS = 30_000;
