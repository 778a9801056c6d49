import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, readPayment, toNodeListener, toPending, type Handler } from '../../src/server';
import { EUR, fullCard, refusal, testCards, useSandbox } from './helpers';

const ctx = useSandbox();
const post = (body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  new Request('https://shop.example/pay/authenticate', {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

async function pendingPayment() {
  const payment = await ctx.gateway.payments.create({ intent: 'sale', amount: EUR('20.00'), card: fullCard(testCards.otp) });
  const outcome = readPayment(payment);
  if (outcome.status !== 'pending') throw new Error('expected a pending payment');
  return { referenceId: payment.reference_id, sessionId: outcome.sessionId! };
}

describe('handlers.clientToken', () => {
  it('answers { clientToken, expiresAt }, never cached, on POST only', async () => {
    const handler = ctx.gateway.handlers.clientToken();
    const response = await handler(new Request('https://shop.example/client-token', { method: 'POST' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(['clientToken', 'expiresAt']);
    expect(body.clientToken!.length).toBeGreaterThan(10);

    const get = await handler(new Request('https://shop.example/client-token'));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    // The sandbox's reason for the same refusal: one name for it, whoever answers.
    expect(await get.json()).toEqual({ error: { code: 'invalid_request', reason: 'METHOD_NOT_ALLOWED', message: 'use POST' } });
  });

  it('answers 502 without the merchant secret when the credentials are wrong', async () => {
    const wrong = createGateway({ ...ctx.options, clientSecret: 'wrong-secret-7c1' });
    const response = await wrong.handlers.clientToken()(new Request('https://shop.example/t', { method: 'POST' }));
    expect(response.status).toBe(502);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'unauthorized' } });
    expect(text).not.toContain('wrong-secret-7c1');
  });
});

describe('a 5xx answer of a handler', () => {
  it("keeps payframe's own words about a failed connection, without the request line", async () => {
    const unreachable = createGateway({ ...ctx.options, baseUrl: 'https://127.0.0.1:1', timeoutMs: 3000 });
    const response = await unreachable.handlers.clientToken()(new Request('https://shop.example/t', { method: 'POST' }));
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: { code: 'network', message: 'the connection failed' } });
  });
});

describe('handlers.authenticate', () => {
  const handler = () => ctx.gateway.handlers.authenticate();

  it('completes the OTP and answers the outcome only; a second call answers the same outcome, and pays nothing more', async () => {
    const { referenceId, sessionId } = await pendingPayment();
    const response = await handler()(post({ referenceId, sessionId, otp: testCards.otp.otp }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'approved', referenceId, state: 'captured', code: '0000', text: 'Approved' });
    const sent = ctx.sandbox.requests().at(-1)!;
    expect(sent).toMatchObject({
      method: 'POST',
      path: `/v1/authenticate/${sessionId}`,
      body: { reference_id: referenceId, otp: '111111' },
    });

    // A second tab, a replay, a retry whose first answer was lost: the session is used up (409 SESSION_EXPIRED
    // from the service), and the payment's outcome is what the payer needs to hear.
    const again = await handler()(post({ referenceId, sessionId, otp: '111111' }));
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ status: 'approved', referenceId, state: 'captured', code: '0000', text: 'Approved' });
    expect((await ctx.gateway.payments.get(referenceId)).state).toBe('captured');
  });

  it('a service slower than the deadline: a typed timeout while the payment is pending, then its outcome once it has one', async () => {
    const slow = createGateway({ ...ctx.options, timeoutMs: 800 });
    const { referenceId, sessionId } = await pendingPayment();
    ctx.sandbox.injectFault({ kind: 'delay', ms: 1_500, method: 'POST', path: `/v1/authenticate/${sessionId}` });
    const first = await slow.handlers.authenticate()(post({ referenceId, sessionId, otp: testCards.otp.otp }));
    expect(first.status).toBe(504);
    expect(await first.json()).toMatchObject({ error: { code: 'outcome_unknown' } });
    await new Promise((resolve) => setTimeout(resolve, 1_200)); // the service takes the OTP meanwhile
    // The payer tries again, as the OTP form offers after a timeout: told it is paid, not that the code expired.
    const again = await slow.handlers.authenticate()(post({ referenceId, sessionId, otp: testCards.otp.otp }));
    expect(await again.json()).toEqual({ status: 'approved', referenceId, state: 'captured', code: '0000', text: 'Approved' });
    expect(ctx.sandbox.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/capture'))).toHaveLength(0);
  });

  it("answers a used session of another payment as the service refused it, never that payment's outcome", async () => {
    const mine = await pendingPayment();
    const theirs = await pendingPayment();
    await handler()(post({ ...theirs, otp: '111111' }));
    const response = await handler()(post({ referenceId: mine.referenceId, sessionId: theirs.sessionId, otp: '111111' }));
    expect(response.status).not.toBe(200);
    expect(JSON.stringify(await response.json())).not.toContain('captured');
  });

  it('answers a wrong OTP as a declined outcome', async () => {
    const { referenceId, sessionId } = await pendingPayment();
    const response = await handler()(post({ referenceId, sessionId, otp: '000000' }));
    expect(await response.json()).toMatchObject({ status: 'declined', state: 'declined', code: '1202' });
  });

  it('refuses bad input before any request: 400, 415, 413, 405', async () => {
    const before = ctx.sandbox.requests().length;
    const cases: [Request, number][] = [
      [post({ referenceId: 'PAY-1', sessionId: 'abc', otp: 'one' }), 400],
      [post({ referenceId: 'PAY-1', sessionId: '../../payment', otp: '111111' }), 400],
      [post({ referenceId: 'PAY-1', sessionId: 'abc', otp: '111111', authenticateUrl: 'https://evil.example' }), 400],
      [post('{not json'), 400],
      [post({ referenceId: 'PAY-1', sessionId: 'abc', otp: '111111' }, { 'content-type': 'text/plain' }), 415],
      [post({ referenceId: 'PAY-1', sessionId: 'abc', otp: '111111', pad: 'x'.repeat(70_000) }), 413],
      [new Request('https://shop.example/pay/authenticate'), 405],
    ];
    for (const [request, status] of cases) {
      const response = await handler()(request);
      expect(response.status).toBe(status);
      expect(await response.json()).toMatchObject({ error: { code: 'invalid_request', message: expect.any(String) } });
    }
    expect(ctx.sandbox.requests().length).toBe(before);
  });

  it('stops reading a streamed body without a length once it passes 64 KiB', async () => {
    // A fetch-standard runtime (Deno, Bun, workers) hands the handler the raw stream: a huge body must
    // not be buffered whole before the 413.
    let pulled = 0;
    const chunk = new Uint8Array(8192).fill(0x20);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= 8 * 1024 * 1024) return controller.close();
        pulled += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const request = new Request('https://shop.example/pay/authenticate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    const response = await handler()(request);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_request' } });
    expect(pulled).toBeLessThan(256 * 1024);
  });

  it('passes the service reason through, so the page can tell a used session from a redirect-only card', async () => {
    const { referenceId, sessionId } = await pendingPayment();
    // A used session whose payment has ended answers that payment's outcome (above); one of another payment
    // keeps the service's refusal, its reason included.
    await handler()(post({ referenceId, sessionId, otp: '111111' }));
    const other = await pendingPayment();
    const used = await handler()(post({ referenceId: other.referenceId, sessionId, otp: '111111' }));
    expect(used.status).toBeGreaterThanOrEqual(400);
    expect(await used.json()).toMatchObject({ error: { reason: expect.any(String) } });
    const redirectOnly = await ctx.gateway.payments.create({
      intent: 'sale',
      amount: EUR('20.00'),
      card: fullCard(testCards.redirectOnly),
    });
    const pending = toPending(redirectOnly);
    const refused = await handler()(post({ referenceId: pending.referenceId, sessionId: pending.sessionId, otp: '111111' }));
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: { code: 'conflict', reason: 'AUTHENTICATE_NOT_SUPPORTED', resultCode: '4099' } });
    // The session is still usable on the redirect page.
    expect((await ctx.gateway.payments.session(pending.sessionId)).state).toBe('pending');
  });

  it('keeps the service reason of a failure between the merchant and the service to the server', async () => {
    const wrong = createGateway({ ...ctx.options, clientSecret: 'wrong-secret-9d2' });
    const { referenceId, sessionId } = await pendingPayment();
    const response = await wrong.handlers.authenticate()(post({ referenceId, sessionId, otp: '111111' }));
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
  });

  it('asks the authorize hook before any call to the service, and answers 403 unless it says true', async () => {
    const { referenceId, sessionId } = await pendingPayment();
    const seen: [string | null, string][] = [];
    const answers: unknown[] = [false, 'yes', 1, true];
    const guarded = ctx.gateway.handlers.authenticate({
      authorize: async (request, id) => {
        seen.push([request.headers.get('cookie'), id]);
        return answers.shift() as boolean;
      },
    });
    const before = ctx.sandbox.requests().length;
    for (let i = 0; i < 3; i++) {
      const refused = await guarded(
        post({ referenceId, sessionId, otp: '111111' }, { 'content-type': 'application/json', cookie: 'checkout=other' }),
      );
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: { code: 'forbidden', message: expect.any(String) } });
    }
    expect(ctx.sandbox.requests().length).toBe(before);
    const allowed = await guarded(
      post({ referenceId, sessionId, otp: '111111' }, { 'content-type': 'application/json', cookie: 'checkout=mine' }),
    );
    expect(await allowed.json()).toMatchObject({ status: 'approved', referenceId });
    expect(seen).toEqual([...Array(3).fill(['checkout=other', referenceId]), ['checkout=mine', referenceId]]);
  });

  it('answers 500 without details when the authorize hook throws, and refuses a hook that is not a function', async () => {
    const { referenceId, sessionId } = await pendingPayment();
    const throwing = ctx.gateway.handlers.authenticate({
      authorize: () => {
        throw new Error('db down at 10.0.0.7');
      },
    });
    const response = await throwing(post({ referenceId, sessionId, otp: '111111' }));
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('10.0.0.7');
    expect((await ctx.gateway.payments.session(sessionId)).state).toBe('pending');
    await refusal(() => ctx.gateway.handlers.authenticate({ authorize: true as never }), 'invalid_config');
  });

  it('answers 404 for an unknown session', async () => {
    const response = await handler()(post({ referenceId: 'PAY-1', sessionId: '0'.repeat(32), otp: '111111' }));
    expect(response.status).toBe(404);
  });
});

describe('toNodeListener', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const routes: Record<string, Handler> = {
      '/client-token': ctx.gateway.handlers.clientToken(),
      '/authenticate': ctx.gateway.handlers.authenticate(),
    };
    const listeners = Object.fromEntries(Object.entries(routes).map(([path, h]) => [path, toNodeListener(h)]));
    server = createServer((req, res) => {
      const listener = listeners[new URL(req.url ?? '/', 'http://x').pathname];
      if (listener) listener(req, res);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('serves the client token over real HTTP', async () => {
    const response = await fetch(`${base}/client-token`, { method: 'POST' });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toMatchObject({ clientToken: expect.any(String), expiresAt: expect.any(String) });
  });

  it('streams the JSON body to the authenticate handler', async () => {
    const { referenceId, sessionId } = await pendingPayment();
    const response = await fetch(`${base}/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ referenceId, sessionId, otp: '111111' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'approved', referenceId, state: 'captured' });
  });

  it('refuses a body over 64 KiB with 413, announced or streamed', async () => {
    const big = JSON.stringify({ pad: 'x'.repeat(70_000) });
    const announced = await fetch(`${base}/authenticate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
    expect(announced.status).toBe(413);
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 8192) controller.enqueue(bytes.slice(i, i + 8192));
        controller.close();
      },
    });
    const streamed = await fetch(`${base}/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toMatchObject({ error: { code: 'invalid_request' } });
  });

  /** What the listener answers to a request written byte for byte (fetch refuses to send these). */
  function raw(head: string): Promise<{ status: number; headers: string; body: string }> {
    return new Promise((resolve, reject) => {
      const socket = connect(Number(new URL(base).port), '127.0.0.1', () => socket.write(head));
      let text = '';
      socket.on('data', (chunk) => (text += String(chunk)));
      socket.on('error', reject);
      socket.on('close', () => {
        const [headers = '', body = ''] = text.split('\r\n\r\n');
        resolve({ status: Number(headers.split(' ')[1]), headers: headers.toLowerCase(), body });
      });
    });
  }

  it('answers TRACE, which a Fetch Request cannot carry, with a JSON 405, never an empty 500', async () => {
    const answer = await raw('TRACE /client-token HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(answer.status).toBe(405);
    expect(answer.headers).toMatch(/\r\nallow: [a-z, ]*post/);
    expect(answer.headers).toContain('content-type: application/json');
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: 'invalid_request', reason: 'METHOD_NOT_ALLOWED', message: 'TRACE is not served here' },
    });
  });

  it.each(['shop test', '[bad', 'a:b:c', 'exa mple.com:443'])(
    'answers a Host header %j that is not a host with a JSON 400',
    async (host) => {
      const answer = await raw(`POST /client-token HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      expect(answer.status).toBe(400);
      expect(answer.headers).toContain('content-type: application/json');
      expect(JSON.parse(answer.body)).toEqual({ error: { code: 'invalid_request', message: expect.stringMatching(/host/i) } });
    },
  );

  it('a handler that throws a non-payframe error still answers JSON', async () => {
    const failing = createServer(
      toNodeListener(async () => {
        throw new TypeError('boom');
      }),
    );
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(failing.address() as AddressInfo).port}/x`, { method: 'POST' });
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ error: { code: 'server_error', message: 'internal error' } });
    } finally {
      await new Promise((resolve) => failing.close(resolve));
    }
  });

  it('takes a body already parsed by an Express-style json() middleware', async () => {
    const listener = toNodeListener(ctx.gateway.handlers.authenticate());
    const parsing = createServer(async (req, res) => {
      let text = '';
      for await (const chunk of req) text += String(chunk);
      Object.assign(req, { body: JSON.parse(text) });
      listener(req, res);
    });
    await new Promise<void>((resolve) => parsing.listen(0, '127.0.0.1', resolve));
    try {
      const { referenceId, sessionId } = await pendingPayment();
      const response = await fetch(`http://127.0.0.1:${(parsing.address() as AddressInfo).port}/authenticate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ referenceId, sessionId, otp: '111111' }),
      });
      expect(await response.json()).toMatchObject({ status: 'approved', referenceId });
    } finally {
      await new Promise((resolve) => parsing.close(resolve));
    }
  });
});
