// handlers.cvv(): the merchant's route a CVV-only hosted form posts to. CORS for the card frames' origin
// only, the CVV's shape checked, and a kept card paid again with it on the real sandbox.
import { describe, expect, it, vi } from 'vitest';
import { PayframeError } from '../../src/shared/errors';
import { readKeptCard, readPayment } from '../../src/server';
import { CVV, EUR, fullCard, testCards, useSandbox } from './helpers';

const ctx = useSandbox();
const FRAMES = 'https://frames.example';
const request = (init: { method?: string; origin?: string | null; body?: unknown; headers?: Record<string, string> } = {}) => {
  const { method = 'POST', origin = FRAMES, body = { ticket: 't-1', cvv: CVV }, headers = {} } = init;
  return new Request('https://shop.example/pay/kept-card', {
    method,
    headers: { ...(origin === null ? {} : { origin }), ...(method === 'POST' ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(method === 'POST' ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
};

describe('handlers.cvv', () => {
  it('answers the preflight of the card frames’ origin, and of no other', async () => {
    const handler = ctx.gateway.handlers.cvv({ frameOrigin: FRAMES, handle: () => ({}) });
    const preflight = (origin: string, headers = 'content-type') =>
      handler(request({ method: 'OPTIONS', origin, headers: { 'access-control-request-method': 'POST', 'access-control-request-headers': headers } }));
    const ok = await preflight(FRAMES);
    expect(ok.status).toBe(204);
    expect(Object.fromEntries(ok.headers)).toMatchObject({
      'access-control-allow-origin': FRAMES, 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'content-type', vary: 'origin',
    });
    for (const response of [await preflight('https://shop.example'), await preflight(FRAMES, 'content-type, authorization')]) {
      expect(response.status).toBe(403);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('gives `handle` the CVV and the rest of the body, and answers its value to the frames only', async () => {
    const handle = vi.fn(() => ({ status: 'approved' }));
    const handler = ctx.gateway.handlers.cvv({ frameOrigin: FRAMES, handle });
    const response = await handler(request());
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(FRAMES);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ status: 'approved' });
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
    const handle = vi.fn(() => ({}));
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
    const thrown = ctx.gateway.handlers.cvv({ frameOrigin: FRAMES, handle: () => { throw new PayframeError('not_found', 'This ticket is used.'); } });
    const refused = await thrown(request());
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ error: { code: 'not_found', message: 'This ticket is used.' } });
    const crashed = ctx.gateway.handlers.cvv({ frameOrigin: FRAMES, handle: () => { throw new Error(`oops ${CVV}`); } });
    const failed = await crashed(request());
    expect(failed.status).toBe(500);
    expect(await failed.text()).not.toContain(CVV);
  });

  it('answers an error the merchant’s own code makes with its own status, and a 5xx with a generic message', async () => {
    const cases = [['forbidden', 403], ['unauthorized', 401], ['invalid_card', 400], ['rate_limited', 429], ['invalid_request', 400], ['conflict', 409]] as const;
    for (const [code, status] of cases) {
      const handler = ctx.gateway.handlers.cvv({ frameOrigin: FRAMES, handle: () => { throw new PayframeError(code, 'This ticket is not yours.'); } });
      const refused = await handler(request());
      expect(refused.status, code).toBe(status);
      expect(await refused.json(), code).toMatchObject({ error: { code, message: 'This ticket is not yours.' } });
    }
    const local = ctx.gateway.handlers.cvv({ frameOrigin: FRAMES, handle: () => { throw new PayframeError('server_error', 'db at /srv/shop/app.js failed'); } });
    const failed = await local(request());
    expect(failed.status).toBe(500);
    const text = await failed.text();
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'server_error' } });
    expect(text).not.toContain('/srv/shop');
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
    const handler = ctx.gateway.handlers.cvv({ handle: () => null });
    expect((await handler(request({ origin: new URL(ctx.sandbox.url).origin }))).status).toBe(200);
    expect((await handler(request())).status).toBe(403);
    for (const options of [{}, { handle: 'pay' }, { handle: () => 1, frameOrigin: 'https://frames.example/' }, { handle: () => 1, frameOrigin: 'frames.example' }]) {
      expect(() => ctx.gateway.handlers.cvv(options as any), JSON.stringify(options)).toThrow(expect.objectContaining({ code: 'invalid_config' }));
    }
  });

  it('pays a kept card again with the CVV it received: the service gets it as cvv2, and it is required', async () => {
    const email = `cvv-${Date.now()}@example.com`;
    const first = await ctx.gateway.payments.create({
      intent: 'sale', amount: EUR('10.00'), card: fullCard(testCards.approved), storedCredential: { kind: 'first' }, payer: { email },
    });
    const { vaultCardId } = readKeptCard(first);
    const handler = ctx.gateway.handlers.cvv({
      frameOrigin: FRAMES,
      handle: async ({ cvv }) => {
        const payment = await ctx.gateway.payments.create({ intent: 'auth', amount: EUR('4.00'), card: { vaultCardId: vaultCardId!, cvv }, storedCredential: { kind: 'cardholder' } });
        const { status, state, code } = readPayment(payment);
        return { status, state, code };
      },
    });
    const response = await handler(request({ body: { cvv: '123' } }));
    expect(await response.json()).toEqual({ status: 'approved', state: 'authorised', code: '0000' });
    const sent = ctx.sandbox.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/payment')).at(-1)!;
    expect((sent.body as any).payer.funding_instrument.credit_card_token).toEqual({ credit_card_id: vaultCardId, cvv2: '***' });
  });
});
