// The gateway's `onEvent` (issue 22): an event for every call to the service and for every 5xx a
// handler answers, on the real sandbox over HTTPS and real closed ports. Every event of the file is
// recorded and searched, when the file ends, for every secret the tests used.
import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox';
import { createGateway, readSavedCard, readPayment, type GatewayEvent, type GatewayOptions } from '../../src/server';
import { CVV, EUR, fullCard, nonceFor, refusal, testCards, useSandbox, basicOf } from './helpers';

const ctx = useSandbox();
const recorded: GatewayEvent[] = [];
/** Values that must never be in an event: filled in as the tests make them (tokens, nonces). */
const secrets = new Set<string>([CVV, testCards.otp.otp, ...Object.values(testCards).map((c) => c.number)]);

/** A gateway on the sandbox whose events are recorded; `events()` are the ones since it was made. */
function recording(options: Partial<GatewayOptions> = {}) {
  const from = recorded.length;
  const gateway = createGateway({ ...ctx.options, onEvent: (event) => void recorded.push(event), ...options });
  return { gateway, events: () => recorded.slice(from) };
}

const merchantPath = () => `/v1/merchants/${ctx.sandbox.merchant.id}`;
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** A port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function pendingPayment(gateway = ctx.gateway) {
  const payment = await gateway.payments.create({ intent: 'sale', amount: EUR('20.00'), card: fullCard(testCards.otp) });
  const outcome = readPayment(payment);
  if (outcome.status !== 'pending') throw new Error('expected a pending payment');
  return { referenceId: payment.reference_id, sessionId: outcome.sessionId! };
}

const call = (method: string, path: string, status: number, extra: Record<string, unknown> = {}) => ({
  type: 'call',
  method,
  path,
  status,
  durationMs: expect.any(Number),
  attempts: 1,
  message: expect.stringMatching(new RegExp(`^${method} ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ${status} in \\d+ ms`)),
  ...extra,
});

afterAll(() => {
  const { clientSecret } = ctx.sandbox.merchant;
  const all = [...secrets, clientSecret, basicOf(ctx.options), `Basic ${basicOf(ctx.options)}`];
  expect(recorded.length).toBeGreaterThan(0); // the search below is not vacuous
  for (const event of recorded) {
    // An event id is a UUID, whose groups of four hex digits may read as a 4-digit CVV: they are the service's ids, not ours.
    const text = [JSON.stringify(event), inspect(event, { depth: 8 }), event.message]
      .join('\n')
      .replace(/\b[\da-f]{8}(?:-[\da-f]{4}){3}-[\da-f]{12}\b/g, 'UUID');
    for (const secret of all) {
      const escaped = secret.replace(/[.*+?^${}()|[\]\\/=-]/g, '\\$&');
      expect(new RegExp(`(?<!\\w)${escaped}(?!\\w)`).test(text), `${secret} in ${text}`).toBe(false);
    }
  }
});

describe('onEvent: a call that succeeds', () => {
  it('is one event: method, path as sent, status, duration, attempts, and a line for the console', async () => {
    const { gateway, events } = recording();
    const token = await gateway.clientToken();
    secrets.add(token.accessToken);
    expect(events()).toEqual([call('POST', `${merchantPath()}/client_token`, 200)]);
    const [event] = events();
    // Built from an allow-list: nothing else is in it.
    expect(Object.keys(event!)).toEqual(['type', 'method', 'path', 'status', 'durationMs', 'attempts', 'message']);
    expect(event!.type === 'call' && event!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('covers every payment call: by card, nonce, saved card and stored credential; get, session, capture, void, refund, authenticate', async () => {
    const { gateway, events } = recording();
    const email = `events-${Date.now()}@example.com`;
    secrets.add(email);
    const first = await gateway.payments.create({
      intent: 'auth',
      amount: EUR('30.00'),
      card: fullCard(testCards.approved),
      storedCredential: { kind: 'first' },
      payer: { email, name: 'Event Payer' },
    });
    const { previousPaymentId, savedCardId } = readSavedCard(first);
    const nonce = await nonceFor(ctx, { ...testCards.approved, cvv: CVV });
    secrets.add(nonce);
    const byNonce = await gateway.payments.create({ intent: 'sale', amount: EUR('1.00'), card: { nonce } });
    await gateway.payments.create({ intent: 'sale', amount: EUR('2.00'), card: { savedCardId: savedCardId!, cvv: CVV } });
    const { cvv: _, ...noCvv } = fullCard(testCards.approved);
    await gateway.payments.create({
      intent: 'sale',
      amount: EUR('3.00'),
      card: noCvv,
      storedCredential: { kind: 'unscheduled', previousPaymentId },
    });
    await gateway.payments.get(first.reference_id);
    await gateway.payments.capture(first.reference_id, { amount: EUR('10.00') }); // reads the currency first
    await gateway.payments.refund(first.reference_id); // what remains
    const other = await gateway.payments.create({ intent: 'auth', amount: EUR('4.00'), card: fullCard(testCards.approved) });
    await gateway.payments.void(other.reference_id);
    await gateway.payments.refund(byNonce.reference_id, { amount: EUR('0.50') });
    const pending = await pendingPayment(gateway);
    await gateway.payments.session(pending.sessionId);
    await gateway.payments.authenticate({
      authenticateUrl: gateway.authenticateUrl(pending.sessionId),
      referenceId: pending.referenceId,
      otp: testCards.otp.otp,
    });

    const m = merchantPath();
    expect(events()).toEqual([
      call('POST', `${m}/payment`, 200),
      call('POST', `${m}/payment`, 200),
      call('POST', `${m}/payment`, 200),
      call('POST', `${m}/payment`, 200),
      call('GET', `${m}/payment/${first.reference_id}`, 200),
      call('GET', `${m}/payment/${first.reference_id}`, 200),
      call('POST', `${m}/payment/${first.reference_id}/capture`, 200),
      call('POST', `${m}/payment/${first.reference_id}/refund`, 200),
      call('POST', `${m}/payment`, 200),
      call('POST', `${m}/payment/${other.reference_id}/void`, 200),
      call('GET', `${m}/payment/${byNonce.reference_id}`, 200),
      call('POST', `${m}/payment/${byNonce.reference_id}/refund`, 200),
      call('POST', `${m}/payment`, 200),
      call('GET', `${m}/payment/session/${pending.sessionId}`, 200),
      call('POST', `/v1/authenticate/${pending.sessionId}`, 200),
    ]);
  });

  it('covers the payer lookups; the email of a lookup by email is personal data, and the event has no query', async () => {
    const email = `lookup-${Date.now()}@example.com`;
    secrets.add(email);
    await ctx.gateway.payments.create({
      intent: 'auth',
      amount: EUR('5.00'),
      card: fullCard(testCards.approved),
      storedCredential: { kind: 'first' },
      payer: { email, name: 'Look Up' },
    });
    const { gateway, events } = recording();
    const payer = await gateway.payers.byEmail(email);
    const payerId = payer.payer_info.id!;
    const cardId = payer.funding_instrument.credit_cards[0]!.id;
    await gateway.payers.byId(payerId);
    await gateway.payers.cards(payerId);
    await gateway.payers.card(payerId, cardId);
    const m = merchantPath();
    expect(events()).toEqual([
      call('GET', `${m}/payer`, 200),
      call('GET', `${m}/payer/${payerId}`, 200),
      call('GET', `${m}/payer/${payerId}/card`, 200),
      call('GET', `${m}/payer/${payerId}/card/${cardId}`, 200),
    ]);
  });

  it('names the ids as sent: one encoded segment each', async () => {
    const { gateway, events } = recording();
    await refusal(gateway.payments.get('PAY 1/x'), 'not_found');
    expect(events()[0]).toMatchObject({ path: `${merchantPath()}/payment/PAY%201%2Fx`, status: 404 });
  });
});

describe('onEvent: a call that fails', () => {
  it("a refusal: the service's status, code, name, result code and event id", async () => {
    const { gateway, events } = recording();
    const payment = await gateway.payments.create({ intent: 'auth', amount: EUR('6.00'), card: fullCard(testCards.approved) });
    await gateway.payments.void(payment.reference_id);
    await refusal(gateway.payments.capture(payment.reference_id), 'conflict');
    const failed = events().at(-1)!;
    expect(failed).toEqual({
      ...call('POST', `${merchantPath()}/payment/${payment.reference_id}/capture`, 409),
      error: {
        code: 'conflict',
        status: 409,
        reason: expect.stringMatching(/^[A-Z_]+$/),
        resultCode: expect.stringMatching(/^\d{4}$/),
        eventId: expect.stringMatching(/^[\da-f-]{36}$/),
        message: expect.stringContaining(`POST ${merchantPath()}/payment/${payment.reference_id}/capture: `),
      },
      message: expect.stringMatching(/: 409 in \d+ ms: conflict: [A-Z_]+ \(service event [\da-f-]{36}\)$/),
    });
  });

  it('a service whose refusals quote the request: its text stays out (a CVV, a nonce, an OTP, an email), its name, code and id only in their shapes', async () => {
    const sent = { cvv: '737', otp: '482913', email: 'jane.doe@example.com', nonce: '0f8e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b' };
    // As the payment service's fetch: every refusal quotes what it was sent, in its message and its other fields.
    const echoing = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const quoted = `${String(input)} ${typeof init?.body === 'string' ? init.body : ''}`;
      const body = { code: `4000 ${quoted}`, name: 'INVALID_REQUEST', message: `cannot process ${quoted}`, eventId: `ev ${quoted}` };
      return new Response(JSON.stringify(body), { status: 400, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const { gateway, events } = recording({ fetch: echoing });
    const amount = EUR('1.00');
    await refusal(
      gateway.payments.create({ intent: 'sale', amount, card: { savedCardId: 'CARD-1', cvv: sent.cvv } } as never),
      'invalid_request',
    );
    await refusal(gateway.payments.create({ intent: 'sale', amount, card: { nonce: sent.nonce } } as never), 'invalid_request');
    await refusal(
      gateway.payments.authenticate({
        authenticateUrl: gateway.authenticateUrl('0123456789abcdef0123456789abcdef'),
        referenceId: 'PAY-1',
        otp: sent.otp,
      }),
      'invalid_request',
    );
    await refusal(gateway.payers.byEmail(sent.email), 'invalid_request');
    expect(events()).toHaveLength(4);
    for (const event of events()) {
      expect(event.type === 'call' && event.error).toMatchObject({ code: 'invalid_request', status: 400, reason: 'INVALID_REQUEST' });
      expect(event.type === 'call' && event.error).not.toHaveProperty('resultCode');
      expect(event.type === 'call' && event.error).not.toHaveProperty('eventId');
      expect(event.message).toMatch(/: 400 in \d+ ms: invalid_request: INVALID_REQUEST$/);
      for (const value of Object.values(sent)) expect(JSON.stringify(event)).not.toContain(value);
    }
  });

  it('wrong credentials: 401 unauthorized, with the secret nowhere', async () => {
    const wrong = 'wrong-secret-4e1f';
    secrets.add(wrong);
    secrets.add(btoa(`${ctx.options.clientId}:${wrong}`));
    const { gateway, events } = recording({ clientSecret: wrong });
    await refusal(gateway.clientToken(), 'unauthorized');
    expect(events()).toEqual([
      { ...call('POST', `${merchantPath()}/client_token`, 401), error: expect.objectContaining({ code: 'unauthorized', status: 401 }) },
    ]);
  });

  it('an unreachable service: no status, the connection error the runtime gives, each retry of a GET counted', async () => {
    const port = await closedPort();
    const { gateway, events } = recording({ baseUrl: `https://127.0.0.1:${port}` });
    await refusal(gateway.clientToken(), 'network');
    await refusal(gateway.payments.get('PAY-1'), 'network');
    const [post, get] = events();
    expect(post).toEqual({
      type: 'call',
      method: 'POST',
      path: `${merchantPath()}/client_token`,
      durationMs: expect.any(Number),
      attempts: 1,
      error: { code: 'network', message: `POST ${merchantPath()}/client_token: the connection failed`, causeCode: 'ECONNREFUSED' },
      message: `POST ${merchantPath()}/client_token: no answer in ${post!.type === 'call' && post!.durationMs} ms: network: the connection failed (ECONNREFUSED)`,
    });
    expect(get).toMatchObject({
      method: 'GET',
      attempts: 3,
      error: { code: 'network', causeCode: 'ECONNREFUSED' },
      message: expect.stringContaining('(3 attempts)'),
    });
    expect(get).not.toHaveProperty('status');
  });

  it('a certificate the runtime does not trust: its code, said once', async () => {
    // src/sandbox's own startSandbox: a certificate made at its start, which this run does not trust.
    const strict = await startSandbox();
    try {
      const { gateway, events } = recording({ baseUrl: strict.url });
      await refusal(gateway.clientToken(), 'network');
      expect(events()).toEqual([
        expect.objectContaining({ error: expect.objectContaining({ code: 'network', causeCode: 'DEPTH_ZERO_SELF_SIGNED_CERT' }) }),
      ]);
      expect(events()[0]!.message.split('DEPTH_ZERO_SELF_SIGNED_CERT')).toHaveLength(2);
      expect(events()[0]!.message).toContain('NODE_EXTRA_CA_CERTS');
    } finally {
      await strict.close();
    }
  });

  it('a GET retried after 500s: the last status, and the attempts', async () => {
    const { gateway, events } = recording();
    const path = `${merchantPath()}/payer/PAYER-EVENTS`;
    ctx.sandbox.injectFault({ kind: 'error', method: 'GET', path, times: 2 });
    await refusal(gateway.payers.byId('PAYER-EVENTS'), 'not_found');
    expect(events()).toEqual([
      {
        ...call('GET', path, 404),
        attempts: 3,
        message: expect.stringContaining(': 404 in '),
        error: expect.objectContaining({ code: 'not_found' }),
      },
    ]);
  });

  it('a timeout, an abort before sending (no request: 0 attempts), an answer that is not JSON', async () => {
    const { gateway, events } = recording({ timeoutMs: 300 });
    ctx.sandbox.injectFault({ kind: 'delay', ms: 1500, method: 'POST', path: `${merchantPath()}/client_token` });
    await refusal(gateway.clientToken(), 'timeout');
    await refusal(gateway.payments.get('PAY-1', { signal: AbortSignal.abort() }), 'aborted');
    ctx.sandbox.injectFault({
      kind: 'reply',
      method: 'GET',
      path: `${merchantPath()}/payment/PAY-2`,
      status: 200,
      body: '<html>hello</html>',
      type: 'text/html',
    });
    await refusal(gateway.payments.get('PAY-2'), 'invalid_response');
    const [timeout, aborted, html] = events();
    expect(timeout).toMatchObject({ attempts: 1, error: { code: 'timeout', message: expect.stringContaining('no answer in 300 ms') } });
    expect(timeout).not.toHaveProperty('status');
    expect(aborted).toMatchObject({ method: 'GET', attempts: 0, error: { code: 'aborted' } });
    expect(html).toMatchObject({ status: 200, error: { code: 'invalid_response', status: 200 } });
    // The raw answer a PayframeError keeps in `body` is not the event's.
    expect(JSON.stringify(html)).not.toContain('hello');
  });

  it('sends no event for what is refused before any call (bad ids, amounts): nothing was called', async () => {
    const { gateway, events } = recording();
    await refusal(gateway.payments.get('..'), 'invalid_request');
    await refusal(gateway.payments.capture('PAY-1', { amount: { currency: 'EUR', total: '1.001' } }), 'invalid_request');
    expect(events()).toEqual([]);
  });

  it('a listener that throws or rejects changes nothing; a listener that is not a function is invalid_config', async () => {
    const throwing = createGateway({
      ...ctx.options,
      onEvent: () => {
        throw new Error('broken logger');
      },
    });
    expect((await throwing.clientToken()).tokenType).toBe('Bearer');
    const rejecting = createGateway({
      ...ctx.options,
      onEvent: (async () => {
        throw new Error('broken logger');
      }) as () => void,
    });
    expect((await rejecting.clientToken()).tokenType).toBe('Bearer');
    expect(() => createGateway({ ...ctx.options, onEvent: 'console' as never })).toThrow(
      expect.objectContaining({ code: 'invalid_config', message: 'onEvent must be a function (event) => void' }),
    );
  });
});

describe("onEvent: a handler's 5xx says its cause to the server, and only to it", () => {
  it('handlers.clientToken(), credentials refused: the page reads a generic 502, the server the 401 behind it', async () => {
    const { gateway, events } = recording({ clientSecret: 'wrong-secret-4e1f' });
    const response = await gateway.handlers.clientToken()(new Request('https://shop.example/client-token', { method: 'POST' }));
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({
      error: { code: 'unauthorized', message: 'the payment service failed or refused this server' },
    });
    const [callEvent, handlerEvent] = events();
    expect(callEvent).toMatchObject({ type: 'call', status: 401 });
    expect(handlerEvent).toEqual({
      type: 'handler',
      handler: 'clientToken',
      status: 502,
      error: {
        code: 'unauthorized',
        status: 401,
        reason: expect.any(String),
        resultCode: expect.any(String),
        eventId: expect.any(String),
        message: expect.stringContaining(`POST ${merchantPath()}/client_token: `),
      },
      message: expect.stringMatching(
        new RegExp(
          `^handlers\\.clientToken\\(\\) answered 502: unauthorized: POST ${merchantPath()}/client_token: .+ \\(service event [\\da-f-]{36}\\)$`,
        ),
      ),
    });
  });

  it('handlers.clientToken(), the service unreachable on a closed port: the connection error', async () => {
    const { gateway, events } = recording({ baseUrl: `https://127.0.0.1:${await closedPort()}` });
    const response = await gateway.handlers.clientToken()(new Request('https://shop.example/client-token', { method: 'POST' }));
    expect(await response.json()).toEqual({ error: { code: 'network', message: 'the connection failed' } });
    expect(events().at(-1)).toEqual({
      type: 'handler',
      handler: 'clientToken',
      status: 502,
      error: { code: 'network', message: `POST ${merchantPath()}/client_token: the connection failed`, causeCode: 'ECONNREFUSED' },
      message: `handlers.clientToken() answered 502: network: POST ${merchantPath()}/client_token: the connection failed (ECONNREFUSED)`,
    });
  });

  it('handlers.authenticate(): paid, then a replay read from the session (no handler event); a timeout answered 504 (one)', async () => {
    const { gateway, events } = recording({ timeoutMs: 800 });
    const pending = await pendingPayment(gateway);
    const otp = { ...pending, otp: testCards.otp.otp };
    const authenticate = gateway.handlers.authenticate({ authorize: () => true });
    expect((await authenticate(post('https://shop.example/otp', otp))).status).toBe(200);
    expect((await authenticate(post('https://shop.example/otp', otp))).status).toBe(200);
    const slow = await pendingPayment(gateway);
    ctx.sandbox.injectFault({ kind: 'delay', ms: 3_000, method: 'POST', path: `/v1/authenticate/${slow.sessionId}` });
    expect((await authenticate(post('https://shop.example/otp', { ...slow, otp: testCards.otp.otp }))).status).toBe(504);
    const authPath = `/v1/authenticate/${pending.sessionId}`;
    expect(
      events().map((e) =>
        e.type === 'call'
          ? `${e.method} ${e.path} ${e.status ?? e.error?.code}`
          : e.type === 'handler'
            ? `${e.handler} ${e.status} ${e.error.code}`
            : e.message,
      ),
    ).toEqual([
      `POST ${merchantPath()}/payment 200`,
      `POST ${authPath} 200`,
      `POST ${authPath} 409`,
      `GET ${merchantPath()}/payment/session/${pending.sessionId} 200`,
      `POST ${merchantPath()}/payment 200`,
      `POST /v1/authenticate/${slow.sessionId} outcome_unknown`,
      `GET ${merchantPath()}/payment/session/${slow.sessionId} 200`,
      'authenticate 504 outcome_unknown',
    ]);
  });

  it('handlers.cvv(): a saved card paid with its CVV; the payment refused behind it (502); `handle` throwing its own error (500, the error as thrown)', async () => {
    const first = await ctx.gateway.payments.create({
      intent: 'auth',
      amount: EUR('7.00'),
      card: fullCard(testCards.approved),
      storedCredential: { kind: 'first' },
    });
    const { savedCardId } = readSavedCard(first);
    const { gateway, events } = recording();
    const frames = 'https://frames.example';
    const request = () => post('https://shop.example/saved-card', { cvv: CVV, ticket: 't-1' }, { origin: frames });
    const pay = gateway.handlers.cvv({
      frameOrigin: frames,
      handle: ({ cvv }) => gateway.payments.create({ intent: 'sale', amount: EUR('7.00'), card: { savedCardId: savedCardId!, cvv } }),
    });
    expect(await (await pay(request())).json()).toMatchObject({ status: 'approved' });
    ctx.sandbox.injectFault({ kind: 'error', method: 'POST', path: `${merchantPath()}/payment` });
    expect((await pay(request())).status).toBe(502);
    const bug = new TypeError("Cannot read properties of undefined (reading 'ticket')");
    const buggy = gateway.handlers.cvv({
      frameOrigin: frames,
      handle: () => {
        throw bug;
      },
    });
    const answer = await buggy(request());
    expect(answer.status).toBe(500);
    expect(await answer.json()).toEqual({ error: { code: 'server_error', message: 'internal error' } });

    const [paid, failedCall, failed, thrown] = events();
    expect(paid).toMatchObject({ type: 'call', status: 200 });
    expect(failedCall).toMatchObject({ type: 'call', status: 500, error: { code: 'server_error', reason: 'INTERNAL_ERROR' } });
    expect(failed).toMatchObject({
      type: 'handler',
      handler: 'cvv',
      status: 502,
      error: { code: 'server_error', status: 500, reason: 'INTERNAL_ERROR' },
    });
    expect(thrown).toMatchObject({
      type: 'handler',
      handler: 'cvv',
      status: 500,
      thrown: bug,
      error: { code: 'server_error', message: expect.stringContaining('not a PayframeError') },
      message: expect.stringMatching(/^handlers\.cvv\(\) answered 500: server_error: /),
    });
  });

  it('sends no handler event for a refusal the page is told (4xx): its message already says why', async () => {
    const { gateway, events } = recording();
    const response = await gateway.handlers.authenticate()(
      post('https://shop.example/otp', { referenceId: 'PAY-1', sessionId: 'abc', otp: 'one' }),
    );
    expect(response.status).toBe(400);
    expect(events()).toEqual([]);
  });
});
