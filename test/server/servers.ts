// What every server's tests share (test/server/express.test.ts, other-servers.test.ts): a real sandbox
// that posts its notifications to a front server whose app a test swaps, payframe's routes made once,
// and the requests a merchant's page and the service send, with what node:http answers to each.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import { startSandbox, testCards, type SandboxHandle } from '../setup/sandbox';
import { createGateway, readPayment, toNodeListener, type Gateway, type GatewayEvent, type Handler, type Payment } from '../../src/server';
import { EUR, fullCard } from './helpers';

export const AUTH = 'Bearer servers-notify-5c1e';
export const FRAMES = 'https://frames.shop.example';
type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export interface Stack {
  sandbox: SandboxHandle;
  gateway: Gateway;
  events: GatewayEvent[];
  /** The payments onPayment was given, by reference id. */
  paid: Map<string, Payment>;
  routes: Record<'clientToken' | 'authenticate' | 'savedCards' | 'cvv' | 'notification', Handler>;
  /** The front server's address: it serves whichever app `serve` was given last. */
  base: string;
  serve(app: Listener): void;
}

/** The paths each framework's app mounts payframe's routes on. */
export const PATHS = {
  clientToken: '/client-token',
  authenticate: '/otp',
  savedCards: '/cards',
  cvv: '/cvv',
  notification: '/ipn',
} as const;

/** The sandbox, a gateway listening to its events, the routes, and a front server on 127.0.0.1. */
export function useStack(): Stack {
  const stack = { events: [] as GatewayEvent[], paid: new Map<string, Payment>() } as Stack;
  let front: Server;
  let app: Listener = (_req, res) => void res.writeHead(503).end();
  beforeAll(async () => {
    front = createServer((req, res) => app(req, res));
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    stack.base = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
    stack.serve = (next) => void (app = next);
    stack.sandbox = await startSandbox({ notifyUrl: `${stack.base}${PATHS.notification}`, notifyAuthorization: AUTH });
    const { id, clientId, clientSecret } = stack.sandbox.merchant;
    stack.gateway = createGateway({
      merchantId: id,
      clientId,
      clientSecret,
      baseUrl: stack.sandbox.url,
      timeoutMs: 5000,
      onEvent: (e) => stack.events.push(e),
    });
    const { handlers } = stack.gateway;
    stack.routes = {
      clientToken: handlers.clientToken(),
      authenticate: handlers.authenticate(),
      savedCards: handlers.savedCards({ payerOf: (request) => request.headers.get('x-payer') ?? undefined }),
      cvv: handlers.cvv({
        frameOrigin: FRAMES,
        handle: ({ cvv, body }) =>
          stack.gateway.payments.create({ intent: 'sale', amount: EUR(String(body.total)), card: fullCard(testCards.approved, cvv) }),
      }),
      notification: handlers.notification({
        authorization: AUTH,
        onPayment: (payment) => void stack.paid.set(payment.reference_id, payment),
      }),
    };
  });
  afterAll(async () => {
    await stack.sandbox?.close();
    await new Promise((resolve) => front?.close(resolve));
  });
  return stack;
}

/** payframe's routes on plain node:http, each by its path: what every framework must answer alike. */
export function nodeApp(stack: Stack): Listener {
  const listeners = Object.fromEntries(
    Object.entries(PATHS).map(([name, path]) => [path, toNodeListener(stack.routes[name as keyof Stack['routes']])]),
  );
  const missing: Listener = (_req, res) => void res.writeHead(404).end();
  return (req, res) => (listeners[new URL(req.url ?? '/', 'http://x').pathname] ?? missing)(req, res);
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** What a route answered: its status and its JSON (or nothing). */
async function answer(base: string, path: string, init: RequestInit = { method: 'POST' }) {
  const response = await fetch(`${base}${path}`, init);
  const text = await response.text();

  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, any>) : undefined };
}

/**
 * Every route, as the page and the service use it, through the app the front server serves now, with
 * what node:http answers: a client token; the payer's cards (listed, a change refused); an OTP that
 * finishes a pending payment; a saved card's CVV that pays; the sandbox's own notifications of those
 * payments reaching onPayment; and refusals (a form to a JSON route, a notification without its fields).
 */
export async function expectRoutesAnswerAsOnNode(stack: Stack, label: string, { events = true } = {}): Promise<void> {
  const { base } = stack;
  const token = await answer(base, PATHS.clientToken);
  expect(token.status, label).toBe(200);
  expect(token.body?.clientToken, label).toEqual(expect.any(String));

  expect(await answer(base, PATHS.savedCards, { method: 'GET' }), label).toEqual({ status: 200, body: { cards: [] } });
  const change = await answer(base, PATHS.savedCards, json({ action: 'remove', cardId: 'CARD-1' }, { 'x-payer': 'PAYER-1' }));
  expect([change.status, change.body?.error.code], label).toEqual([404, 'not_found']);
  const form = await answer(base, PATHS.savedCards, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-payer': 'PAYER-1' },
    body: 'action=remove&cardId=CARD-1',
  });
  expect([form.status, form.body?.error.code], label).toEqual([415, 'invalid_request']);

  const pending = await stack.gateway.payments.create({ intent: 'sale', amount: EUR('21.00'), card: fullCard(testCards.otp) });
  const outcome = readPayment(pending);
  if (outcome.status !== 'pending') throw new Error(`${label}: the OTP card's payment is not pending`);
  const otp = await answer(
    base,
    PATHS.authenticate,
    json({ referenceId: pending.reference_id, sessionId: outcome.sessionId, otp: testCards.otp.otp }),
  );
  expect([otp.status, otp.body?.status, otp.body?.referenceId], label).toEqual([200, 'approved', pending.reference_id]);

  const cvv = await answer(base, PATHS.cvv, json({ cvv: '123', total: '7.00' }, { origin: FRAMES }));
  expect([cvv.status, cvv.body?.status], label).toEqual([200, 'approved']);

  // The service's own notifications of both payments, as it posts them, reach onPayment.
  await stack.sandbox.notificationsIdle();
  for (const referenceId of [pending.reference_id, cvv.body!.referenceId as string]) {
    expect(stack.paid.get(referenceId)?.state, `${label}: ${referenceId}`).toBe('captured');
  }

  const before = stack.events.length;
  const bad = await answer(base, PATHS.notification, {
    method: 'POST',
    headers: { authorization: AUTH, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'pg_signature=f00d',
  });
  expect([bad.status, bad.body?.error.code], label).toEqual([400, 'invalid_request']);
  if (!events) return;
  // A refusal of the notification route reaches onEvent, with why.
  expect(stack.events.slice(before), label).toEqual([
    expect.objectContaining({
      type: 'notification',
      outcome: 'refused',
      status: 400,
      error: expect.objectContaining({ code: 'invalid_request' }),
    }),
  ]);
}

/**
 * A notification whose body drips without its Authorization header: the 401 arrives at once (within
 * `withinMs`), before the body is done, on a raw socket as an attacker would send it.
 */
export async function expectDripRefusedAtOnce(base: string, path = PATHS.notification, withinMs = 5000): Promise<string> {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  const started = Date.now();
  const head = `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5000\r\n\r\n`;
  socket.write(`${head}pg_signature=`);
  const drip = setInterval(() => socket.write('a'), 50);
  try {
    const first = await new Promise<string>((resolve, reject) => {
      socket.once('data', (chunk) => resolve(chunk.toString('latin1')));
      socket.once('error', reject);
      setTimeout(() => reject(new Error(`no answer within ${withinMs} ms`)), withinMs);
    });
    expect(first.split('\r\n')[0]).toBe('HTTP/1.1 401 Unauthorized');
    expect(Date.now() - started).toBeLessThan(withinMs);
    return first;
  } finally {
    clearInterval(drip);
    socket.destroy();
  }
}
