import { createServer } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { makeCertificate, startSandbox, trustedTls } from '../setup/sandbox';
import { createGateway } from '../../src/server';
import { basicOf, EUR, expectNoSecrets, fullCard, refusal, testCards, useSandbox } from './helpers';

const ctx = useSandbox();
const countOf = (method: string, path: string) => ctx.sandbox.requests().filter((r) => r.method === method && r.path === path).length;

describe('retries', () => {
  it('retries a GET after a dropped connection: it arrives twice and succeeds', async () => {
    const payment = await ctx.gateway.payments.create({ intent: 'auth', amount: EUR('1.00'), card: fullCard(testCards.approved) });
    const path = `/v1/merchants/${ctx.sandbox.merchant.id}/payment/${payment.reference_id}`;
    ctx.sandbox.injectFault({ kind: 'drop', method: 'GET', path });
    const got = await ctx.gateway.payments.get(payment.reference_id);
    expect(got.id).toBe(payment.id);
    expect(countOf('GET', path)).toBe(2);
  });

  it('retries a GET after a 500, up to the limit, then answers server_error', async () => {
    const path = `/v1/merchants/${ctx.sandbox.merchant.id}/payer/PAYER-RETRY`;
    ctx.sandbox.injectFault({ kind: 'error', method: 'GET', path, times: 3 });
    const error = await refusal(ctx.gateway.payers.byId('PAYER-RETRY'), 'server_error');
    expect(error).toMatchObject({ status: 500, reason: 'INTERNAL_ERROR' });
    expect(countOf('GET', path)).toBe(3);

    const once = createGateway({ ...ctx.options, retries: 0 });
    ctx.sandbox.injectFault({ kind: 'error', method: 'GET', path });
    await refusal(once.payers.byId('PAYER-RETRY'), 'server_error');
    expect(countOf('GET', path)).toBe(4);
  });

  it('never retries a POST: a payment whose connection dropped is outcome_unknown (it was sent), sent once', async () => {
    const path = `/v1/merchants/${ctx.sandbox.merchant.id}/payment`;
    const before = countOf('POST', path);
    ctx.sandbox.injectFault({ kind: 'drop', method: 'POST', path });
    await refusal(
      ctx.gateway.payments.create({ intent: 'sale', amount: EUR('1.00'), card: fullCard(testCards.approved) }),
      'outcome_unknown',
    );
    expect(countOf('POST', path)).toBe(before + 1);

    ctx.sandbox.injectFault({ kind: 'error', method: 'POST', path: `/v1/merchants/${ctx.sandbox.merchant.id}/client_token` });
    await refusal(ctx.gateway.clientToken(), 'server_error');
    expect(countOf('POST', `/v1/merchants/${ctx.sandbox.merchant.id}/client_token`)).toBe(1);
  });
});

describe('timeouts', () => {
  it('answers timeout when the service is slower than timeoutMs', async () => {
    const slow = createGateway({ ...ctx.options, timeoutMs: 200 });
    ctx.sandbox.injectFault({ kind: 'delay', ms: 1500, method: 'POST' });
    const error = await refusal(slow.clientToken(), 'timeout');
    expect(error.message).toMatch(/client_token/);
  });

  it('bounds the whole call, retries and their waits included, as the browser client does', async () => {
    // Three failing attempts wait 150 + 300 ms between them: more than the whole call may take.
    const path = `/v1/merchants/${ctx.sandbox.merchant.id}/payer/PAYER-SLOW`;
    ctx.sandbox.injectFault({ kind: 'error', method: 'GET', path, times: 3 });
    const error = await refusal(createGateway({ ...ctx.options, timeoutMs: 250 }).payers.byId('PAYER-SLOW'), 'timeout');
    expect(error.message).toContain('250 ms');
    expect(countOf('GET', path)).toBeLessThan(3); // what is left of the fault matches only this path
  });
});

describe('signal', () => {
  it('aborts a call in flight with aborted', async () => {
    ctx.sandbox.injectFault({ kind: 'delay', ms: 3000, method: 'GET', path: `/v1/merchants/${ctx.sandbox.merchant.id}/payer/PAYER-ABORT` });
    const controller = new AbortController();
    const call = ctx.gateway.payers.byId('PAYER-ABORT', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = await refusal(call, 'aborted');
    expect(error.message).toContain('aborted by the caller');
  });

  it('sends nothing when the signal has already aborted, on a GET and on a POST', async () => {
    const before = ctx.sandbox.requests().length;
    await refusal(ctx.gateway.payments.get('PAY-1', { signal: AbortSignal.abort() }), 'aborted');
    await refusal(
      ctx.gateway.payments.create(
        { intent: 'sale', amount: EUR('1.00'), card: fullCard(testCards.approved) },
        { signal: AbortSignal.abort() },
      ),
      'aborted',
    );
    await refusal(ctx.gateway.payments.refund('PAY-1', { amount: EUR('1.00'), signal: AbortSignal.abort() }), 'aborted');
    expect(ctx.sandbox.requests().length).toBe(before);
  });

  it('refuses a signal that is not an AbortSignal', async () => {
    await refusal(ctx.gateway.payments.get('PAY-1', { signal: { aborted: false } as never }), 'invalid_request');
  });
});

describe('a certificate the runtime does not trust', () => {
  it('is said plainly, with what to do, when TLS verification is on', async () => {
    // A sandbox serving a certificate of its own, which this run does not trust.
    const strict = await startSandbox({ tls: makeCertificate() });
    try {
      const gateway = createGateway({ ...ctx.options, baseUrl: strict.url });
      const error = await refusal(gateway.clientToken(), 'network');
      expect(error.message).toMatch(/TLS certificate is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\)/);
      expect(error.message).toContain('sandbox.httpUrl');
      expect(error.message).toContain('NODE_EXTRA_CA_CERTS');
      expect(strict.requests()).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});

describe('authenticate URLs', () => {
  it('sends nothing to a foreign host, nor to a look-alike URL on ours: no request leaves, the credentials stay', async () => {
    let hits = 0;
    const foreign = createServer((req, res) => {
      hits++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
    const port = (foreign.address() as AddressInfo).port;
    const before = ctx.sandbox.requests().length;
    const sandboxUrl = new URL(ctx.sandbox.url);
    // Every request the gateway would make goes through this fetch: not one may start.
    const tried: string[] = [];
    const spied = createGateway({ ...ctx.options, fetch: (input, init) => (tried.push(String(input)), fetch(input, init)) });
    try {
      for (const authenticateUrl of [
        `https://127.0.0.1:${port}/v1/authenticate/abc`,
        `http://127.0.0.1:${port}/v1/authenticate/abc`,
        `https://localhost:${sandboxUrl.port}/v1/authenticate/abc`,
        `http://${sandboxUrl.host}/v1/authenticate/abc`,
        `${ctx.sandbox.url}/v1/payment/abc`,
        `${ctx.sandbox.url}/v1/authenticate/abc/extra`,
        `${ctx.sandbox.url}/v1/authenticate/abc?next=https://evil.example`,
        `${ctx.sandbox.url.replace('https://', 'https://user:pw@')}/v1/authenticate/abc`,
        `${ctx.sandbox.url}/v1/authenticate/`,
        `https://127.0.0.1.evil.test:${sandboxUrl.port}/v1/authenticate/abc`,
        `https://xn--127-0-0-1-3bb.test:${sandboxUrl.port}/v1/authenticate/abc`,
        `https://lоcalhost:${sandboxUrl.port}/v1/authenticate/abc`,
        `https://${sandboxUrl.host}@127.0.0.1:${port}/v1/authenticate/abc`,
        `${ctx.sandbox.url}/v1/authenticate/abc#frag`,
        `${ctx.sandbox.url}/v1/authenticate/a%2Fb`,
        `${ctx.sandbox.url}/v1/authenticate/../payment/abc`,
        `${ctx.sandbox.url}/v1/authenticate/%2e%2e`,
        `data:text/plain,${ctx.sandbox.url}/v1/authenticate/abc`,
        `JAVASCRIPT:fetch('${ctx.sandbox.url}/v1/authenticate/abc')`,
        'javascript:alert(1)',
        'not a url',
      ]) {
        const error = await refusal(spied.payments.authenticate({ authenticateUrl, referenceId: 'PAY-1', otp: '111111' }), 'unsafe_url');
        expect(error.message).not.toContain(ctx.options.clientSecret);
      }
    } finally {
      await new Promise((resolve) => foreign.close(resolve));
    }
    expect(tried).toEqual([]);
    expect(hits).toBe(0);
    expect(ctx.sandbox.requests().length).toBe(before);
  });
});

describe('errors hold no secrets', () => {
  it('keeps the Authorization header out of network and HTTP errors even when inspected deeply', async () => {
    ctx.sandbox.injectFault({ kind: 'drop', method: 'POST' });
    const network = await refusal(ctx.gateway.payments.capture('PAY-1'), 'outcome_unknown');
    expect(network.cause).toBeDefined();
    // The service answers what it received; the number never comes back in the error.
    await refusal(
      ctx.gateway.payments.create({ intent: 'auth', amount: EUR('1.00'), card: { ...fullCard(testCards.approved), expireMonth: '13' } }),
      'invalid_request',
    );
  });

  it('has a secrets check that finds a leak', () => {
    const leaky = new Error(`card ${testCards.approved.number} with Basic ${basicOf(ctx.options)}`);
    expect(() => expectNoSecrets([leaky], [])).toThrow();
    expect(() => expectNoSecrets([{ cause: { header: basicOf(ctx.options) } }], [basicOf(ctx.options)])).toThrow();
  });
});

describe('answers that do not match their schema', () => {
  it('answers invalid_response and keeps the raw body', async () => {
    const odd = createHttps(trustedTls(), (req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(req.url?.includes('/payer/') ? 'not json' : JSON.stringify({ id: 'PAY-1', state: 'teleported' }));
    });
    await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
    try {
      const gateway = createGateway({ ...ctx.options, baseUrl: `https://127.0.0.1:${(odd.address() as AddressInfo).port}` });
      const error = await refusal(gateway.payments.get('PAY-1'), 'invalid_response');
      expect(error.body).toEqual({ id: 'PAY-1', state: 'teleported' });
      expect(error.status).toBe(200);
      expect((await refusal(gateway.payers.byId('P'), 'invalid_response')).body).toBe('not json');
    } finally {
      await new Promise((resolve) => odd.close(resolve));
    }
  });
});
