// No request that carries card data, a credential or a token follows a redirect (issue 20, finding 3):
// a service that answers 307 to another host gets a typed error back, and the other host gets nothing,
// on every call path of the server companion and of `client.tokenize` outside a browser. (The CVV
// frame's post is tested in test/frame/post.test.ts; the frame's nonce call is the same code as
// client.tokenize's, requestNonce, run in a browser by the e2e tests.)
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src';
import { createGateway, type Gateway } from '../../src/server';

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}
const listen = async (
  handle: (req: IncomingMessage, body: string) => { status: number; headers?: Record<string, string>; body?: string },
) => {
  const seen: Seen[] = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    seen.push({ method: req.method!, path: req.url!, headers: req.headers, body });
    const answer = handle(req, body);
    res.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, seen, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

let service: Awaited<ReturnType<typeof listen>>;
let elsewhere: Awaited<ReturnType<typeof listen>>;
let gateway: Gateway;
const SESSION = 'c0ffeec0ffeec0ffeec0ffeec0ffee11';
const CARD = { number: '4111111111111111', expireMonth: 12, expireYear: 2034, cvv: '737' };

beforeAll(async () => {
  elsewhere = await listen(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{}' }));
  // Every path answers a redirect to the same path on another host, as a hijacked or misconfigured proxy would.
  service = await listen((req) => ({ status: 307, headers: { location: `${elsewhere.url}${req.url}` } }));
  gateway = createGateway({ merchantId: 'm', clientId: 'id', clientSecret: 'secret-5c2', baseUrl: service.url, retries: 2 });
});
afterAll(async () => {
  for (const s of [service, elsewhere]) await new Promise((resolve) => s.server.close(resolve));
});
beforeEach(() => {
  service.seen.length = 0;
  elsewhere.seen.length = 0;
});

const rejection = async (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e) => e,
  );

describe('a redirect is an error, never followed', () => {
  const paths: [string, () => Promise<unknown>][] = [
    ['the client token', () => gateway.clientToken()],
    [
      'a payment with a full card',
      () => gateway.payments.create({ intent: 'sale', amount: { currency: 'EUR', total: '1.00' }, card: CARD }),
    ],
    ['a payment read', () => gateway.payments.get('PAY-1')],
    ['a payment session read', () => gateway.payments.session(SESSION)],
    ['a capture', () => gateway.payments.capture('PAY-1')],
    ['a void', () => gateway.payments.void('PAY-1')],
    ['a refund', () => gateway.payments.refund('PAY-1')],
    [
      'an OTP',
      () => gateway.payments.authenticate({ authenticateUrl: gateway.authenticateUrl(SESSION), referenceId: 'PAY-1', otp: '111111' }),
    ],
    ['a payer by email', () => gateway.payers.byEmail('ada@example.com')],
    ['a payer by id', () => gateway.payers.byId('PAYER-1')],
    ['the cards of a payer', () => gateway.payers.cards('PAYER-1')],
    ['one card of a payer', () => gateway.payers.card('PAYER-1', 'CARD-1')],
    [
      'a nonce, by client.tokenize outside a browser',
      () => createClient({ merchantId: 'm', baseUrl: service.url, authorization: 'client-token-9f1' }).tokenize(CARD),
    ],
  ];

  it.each(paths)('%s: invalid_response naming the redirect, and the other host gets nothing', async (_, call) => {
    const error = await rejection(call());
    expect(error).toMatchObject({ name: 'PayframeError', code: 'invalid_response', status: 307 });
    expect(error.message).toContain(`the service answered a redirect (HTTP 307 to ${elsewhere.url}/`);
    expect(error.message).toContain('it was not followed');
    // Asked once: a redirect is not a failure worth another try (a GET would be tried again after a 5xx).
    expect(service.seen).toHaveLength(1);
    expect(elsewhere.seen).toEqual([]);
  });
});
