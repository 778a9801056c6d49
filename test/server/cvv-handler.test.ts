// handlers.cvv(): the merchant's route a CVV-only hosted form posts to. CORS for the card frames' origin
// only, the CVV's shape checked, a saved card paid again with it on the real sandbox, and an answer
// that is the payment's outcome alone: no rendering of the CVV can reach the page.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createGateway, type Payment, readSavedCard } from '../../src/server';
import { rendersCvv } from '../../src/server/routes/cvv';
import { PayframeError } from '../../src/shared/errors';
import { CVV, EUR, fullCard, testCards, useSandbox } from './helpers';

const ctx = useSandbox();
/** A payment made on the sandbox, what `handle` answers. */
let sale: Payment;
beforeAll(async () => {
  sale = await ctx.gateway.payments.create({ intent: 'sale', amount: EUR('2.00'), card: fullCard(testCards.approved) });
});
const outcomeOf = (p: Payment) => ({ status: 'approved', referenceId: p.reference_id, state: p.state, code: '0000' });
const FRAMES = 'https://frames.example';
const request = (init: { method?: string; origin?: string | null; body?: unknown; headers?: Record<string, string> } = {}) => {
  const { method = 'POST', origin = FRAMES, body = { ticket: 't-1', cvv: CVV }, headers = {} } = init;
  return new Request('https://shop.example/pay/saved-card', {
    method,
    headers: { ...(origin === null ? {} : { origin }), ...(method === 'POST' ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(method === 'POST' ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
};

describe('handlers.cvv', () => {
  it('answers the preflight of the card frames’ origin, and of no other', async () => {
    const handler = ctx.gateway.handlers.cvv({ frameOrigin: FRAMES, handle: () => sale });
    const preflight = (origin: string, headers = 'content-type') =>
      handler(
        request({
          method: 'OPTIONS',
          origin,
          headers: { 'access-control-request-method': 'POST', 'access-control-request-headers': headers },
        }),
      );
    const ok = await preflight(FRAMES);
    expect(ok.status).toBe(204);
    expect(Object.fromEntries(ok.headers)).toMatchObject({
      'access-control-allow-origin': FRAMES,
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': 'content-type',
      vary: 'origin',
    });
    for (const response of [await preflight('https://shop.example'), await preflight(FRAMES, 'content-type, authorization')]) {
      expect(response.status).toBe(403);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('gives `handle` the CVV and the rest of the body, and answers the outcome of its payment to the frames only', async () => {
    const handle = vi.fn(() => sale);
    const handler = ctx.gateway.handlers.cvv({ frameOrigin: FRAMES, handle });
    const response = await handler(request());
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(FRAMES);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual(outcomeOf(sale));
    expect(handle).toHaveBeenCalledWith({ cvv: CVV, body: { ticket: 't-1' }, request: expect.any(Request) });

    // The merchant's own page, another site, or a server without Origin: refused before `handle`.
    for (const origin of ['https://shop.example', 'https://evil.example', null]) {
      const refused = await handler(request({ origin }));
      expect(refused.status, String(origin)).toBe(403);
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    }
    expect(handle).toHaveBeenCalledTimes(1);
  });

  it('refuses a CVV that is not 3 or 4 digits, a body that is not JSON, and answers refusals with CORS so the frame reads them', async () => {
    const handle = vi.fn(() => sale);
    const handler = ctx.gateway.handlers.cvv({ frameOrigin: FRAMES, handle });
    for (const body of [{ ticket: 't' }, { cvv: '12' }, { cvv: 737 }, { cvv: '12345' }, { cvv: '٧٣٧' }, ['737'], 'not json']) {
      const response = await handler(request({ body }));
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.headers.get('access-control-allow-origin')).toBe(FRAMES);
      expect((await response.json()).error.code).toBe('invalid_request');
    }
    const text = await handler(request({ headers: { 'content-type': 'text/plain' } }));
    expect(text.status).toBe(415);
    expect((await handler(request({ method: 'GET' }))).status).toBe(405);
    expect(handle).not.toHaveBeenCalled();
  });

  it('answers what `handle` throws as the other handlers do, never its details when unexpected', async () => {
    const thrown = ctx.gateway.handlers.cvv({
      frameOrigin: FRAMES,
      handle: () => {
        throw new PayframeError('not_found', 'This ticket is used.');
      },
    });
    const refused = await thrown(request());
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ error: { code: 'not_found', message: 'This ticket is used.' } });
    const crashed = ctx.gateway.handlers.cvv({
      frameOrigin: FRAMES,
      handle: () => {
        throw new Error(`oops ${CVV}`);
      },
    });
    const failed = await crashed(request());
    expect(failed.status).toBe(500);
    expect(await failed.text()).not.toContain(CVV);
  });

  it('answers an error the merchant’s own code makes with its own status, and a 5xx with a generic message', async () => {
    const cases = [
      ['forbidden', 403],
      ['unauthorized', 401],
      ['invalid_card', 400],
      ['rate_limited', 429],
      ['invalid_request', 400],
      ['conflict', 409],
    ] as const;
    for (const [code, status] of cases) {
      const handler = ctx.gateway.handlers.cvv({
        frameOrigin: FRAMES,
        handle: () => {
          throw new PayframeError(code, 'This ticket is not yours.');
        },
      });
      const refused = await handler(request());
      expect(refused.status, code).toBe(status);
      expect(await refused.json(), code).toMatchObject({ error: { code, message: 'This ticket is not yours.' } });
    }
    const local = ctx.gateway.handlers.cvv({
      frameOrigin: FRAMES,
      handle: () => {
        throw new PayframeError('server_error', 'db at /srv/shop/app.js failed');
      },
    });
    const failed = await local(request());
    expect(failed.status).toBe(500);
    const text = await failed.text();
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'server_error' } });
    expect(text).not.toContain('/srv/shop');
    // A network error of the merchant's own, worded as payframe words its own: generic all the same.
    const ledger = ctx.gateway.handlers.cvv({
      frameOrigin: FRAMES,
      handle: () => {
        throw new PayframeError('network', 'ledger: the connection to postgres://app:hunter2@db.internal:5432 failed');
      },
    });
    const down = await ledger(request());
    expect(down.status).toBe(502);
    expect(await down.json()).toEqual({ error: { code: 'network', message: 'the payment service failed or refused this server' } });
  });

  it('answers a refusal of the service to the merchant’s credentials as 502, without the service’s text', async () => {
    const { createGateway } = await import('../../src/server');
    const wrong = createGateway({ ...ctx.options, clientSecret: 'wrong-secret-3e4' });
    const handler = ctx.gateway.handlers.cvv({
      frameOrigin: FRAMES,
      handle: ({ cvv }) => wrong.payments.create({ intent: 'sale', amount: EUR('1.00'), card: { ...fullCard(testCards.approved), cvv } }),
    });
    const refused = await handler(request());
    expect(refused.status).toBe(502);
    const { error } = await refused.json();
    expect(error.code).toBe('unauthorized');
    let serviceText = '';
    await wrong.clientToken().catch((e: PayframeError) => (serviceText = e.message));
    expect(serviceText.length).toBeGreaterThan(0);
    expect(error.message).not.toBe(serviceText);
    expect(error.message).not.toMatch(/UNAUTHORIZED|Basic|credential/i);
    expect(error.reason).toBeUndefined();
  });

  it('takes the gateway’s origin by default (the frames’ default home), and refuses a bad configuration', async () => {
    const handler = ctx.gateway.handlers.cvv({ handle: () => sale });
    expect((await handler(request({ origin: new URL(ctx.sandbox.url).origin }))).status).toBe(200);
    expect((await handler(request())).status).toBe(403);
    for (const options of [
      {},
      { handle: 'pay' },
      { handle: () => 1, frameOrigin: 'https://frames.example/' },
      { handle: () => 1, frameOrigin: 'frames.example' },
    ]) {
      expect(() => ctx.gateway.handlers.cvv(options as any), JSON.stringify(options)).toThrow(
        expect.objectContaining({ code: 'invalid_config' }),
      );
    }
  });

  it('asks for frameOrigin with a live gateway, which serves no frames: its origin would refuse every post', () => {
    const live = createGateway({ ...ctx.options, baseUrl: 'https://api.ompay.com' });
    expect(() => live.handlers.cvv({ handle: () => sale })).toThrow(
      expect.objectContaining({
        code: 'invalid_config',
        message: 'cvv: frameOrigin is required with a live gateway: the origin of your frame host (the frameUrl the page mounts)',
      }),
    );
    expect(typeof live.handlers.cvv({ handle: () => sale, frameOrigin: 'https://frames.shop.example' })).toBe('function');
  });

  it('pays a saved card again with the CVV it received: the service gets it as cvv2, and it is required', async () => {
    const email = `cvv-${Date.now()}@example.com`;
    const first = await ctx.gateway.payments.create({
      intent: 'sale',
      amount: EUR('10.00'),
      card: fullCard(testCards.approved),
      storedCredential: { kind: 'first' },
      payer: { email },
    });
    const { savedCardId } = readSavedCard(first);
    const handler = ctx.gateway.handlers.cvv({
      frameOrigin: FRAMES,
      handle: ({ cvv }) =>
        ctx.gateway.payments.create({
          intent: 'auth',
          amount: EUR('4.00'),
          card: { savedCardId: savedCardId!, cvv },
          storedCredential: { kind: 'cardholder' },
        }),
    });
    const response = await handler(request({ body: { cvv: '123' } }));
    expect(await response.json()).toEqual({
      status: 'approved',
      referenceId: expect.stringMatching(/^PAY-/),
      state: 'authorised',
      code: '0000',
    });
    const sent = ctx.sandbox
      .requests()
      .filter((r) => r.method === 'POST' && r.path.endsWith('/payment'))
      .at(-1)!;
    expect((sent.body as any).payer.funding_instrument.credit_card_token).toEqual({ credit_card_id: savedCardId, cvv2: '***' });
  });

  it('answers a pending payment with what handlePending takes, and nothing else of the record', async () => {
    const handler = ctx.gateway.handlers.cvv({
      frameOrigin: FRAMES,
      handle: ({ cvv }) => ctx.gateway.payments.create({ intent: 'sale', amount: EUR('3.00'), card: { ...fullCard(testCards.otp), cvv } }),
    });
    const answer = await (await handler(request({ body: { cvv: testCards.otp.cvv } }))).json();
    expect(answer).toEqual({
      status: 'pending',
      referenceId: expect.stringMatching(/^PAY-/),
      state: 'pending',
      code: '1007',
      pending: {
        referenceId: answer.referenceId,
        sessionId: expect.stringMatching(/^[0-9a-f]{32}$/),
        redirectUrl: expect.stringContaining('/v1/redirect/'),
        otp: true,
      },
    });
  });

  it('refuses a `handle` that answers anything but a payment: 500, and nothing of its value', async () => {
    for (const value of [{ status: 'approved', cvv: CVV }, null, `paid with ${CVV}`]) {
      const handler = ctx.gateway.handlers.cvv({ frameOrigin: FRAMES, handle: () => value as never });
      const response = await handler(request());
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text).error).toEqual({ code: 'server_error', message: 'the server failed' });
      expect(text).not.toContain(CVV);
    }
  });

  // What the review found: the answer and the thrown messages went out as they were, though the handler knows the CVV.
  const cvv = '042';
  const renderings: [string, unknown][] = [
    ['as a string', '042'],
    ['as a number, its leading zero lost', 42],
    ['glued to letters and underscores', 'cvv_042'],
    ['glued to digits', '90421'],
    ['split', '0-4-2'],
    ['spaced out', '0 4 2'],
    ['in hex', '0x2a'],
  ];
  it.each(renderings)('never answers the CVV, %s, from the payment `handle` answers', async (_, rendering) => {
    const handler = ctx.gateway.handlers.cvv({
      frameOrigin: FRAMES,
      handle: () => ({ ...sale, echo: rendering, custom: { cvv: rendering } }) as Payment,
    });
    const response = await handler(request({ body: { cvv } }));
    expect(await response.json()).toEqual(outcomeOf(sale));
  });

  it.each(renderings)('never answers the CVV, %s, in a refusal `handle` throws', async (_, rendering) => {
    const handler = ctx.gateway.handlers.cvv({
      frameOrigin: FRAMES,
      handle: () => {
        throw new PayframeError('invalid_card', `Wrong security code: ${String(rendering)}.`, { reason: 'CVV_MISMATCH' });
      },
    });
    const response = await handler(request({ body: { cvv } }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: 'invalid_card', message: 'the payment was refused', reason: 'CVV_MISMATCH' } });
  });

  it('finds the CVV in any rendering, and leaves prose and other numbers alone', () => {
    for (const [, rendering] of renderings) expect(rendersCvv(`said: ${String(rendering)}`, cvv), String(rendering)).toBe(true);
    for (const text of ['This ticket is used: start again.', 'order 7719 refused', 'amount 13.75'])
      expect(rendersCvv(text, cvv), text).toBe(false);
  });
});
