// The development mode: plain HTTP on a loopback sandbox, so a person's browser and a merchant's Node
// server reach it with no certificate to trust (and no TLS check turned off). The HTTPS default and
// the HTTPS-only refusal stay everywhere else.
import { request as httpsRequest } from 'node:https';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src';
import { createGateway, readPayment } from '../../src/server';
import { startSandbox, testCards } from '../setup/sandbox';
import { basic, cardOf, m, paymentBody, useSandbox } from './helpers';

const box = useSandbox({ plainHttp: true });

describe('plainHttp development mode', () => {
  it('serves the same port over http and https, and says where', async () => {
    expect(box.sb.httpUrl).toBe(`http://127.0.0.1:${box.sb.port}`);
    expect(box.sb.url).toBe(`https://127.0.0.1:${box.sb.port}`);
    const plain = await fetch(`${box.sb.httpUrl}/`);
    expect(await plain.json()).toEqual({ service: 'payframe sandbox' });
    expect((await fetch(`${box.sb.url}/`)).status).toBe(200);
  });

  it('takes a payment end to end from payframe/server and the browser client over plain loopback http', async () => {
    const { id, clientId, clientSecret } = box.sb.merchant;
    const gateway = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: box.sb.httpUrl! });
    const client = createClient({
      merchantId: id,
      baseUrl: box.sb.httpUrl!,
      authorization: async () => (await gateway.clientToken()).accessToken,
    });
    const c = testCards.otp;
    const { nonce } = await client.tokenize({ number: c.number, expireMonth: c.expireMonth, expireYear: c.expireYear, cvv: c.cvv });
    const pending = readPayment(
      await gateway.payments.create({ intent: 'sale', amount: { currency: 'OMR', total: '1.500' }, card: { nonce } }),
    );
    expect(pending.status).toBe('pending');
    if (pending.status !== 'pending') return;
    // The URLs handed out follow the scheme the request came in on: a browser in development opens
    // the redirect page over http, with no certificate warning.
    expect(pending.redirectUrl).toBe(`${box.sb.httpUrl}/v1/redirect/${pending.sessionId}`);
    expect(pending.authenticateUrl).toBe(`${box.sb.httpUrl}/v1/authenticate/${pending.sessionId}`);
    const done = await gateway.payments.authenticate({
      authenticateUrl: pending.authenticateUrl!,
      referenceId: pending.referenceId,
      otp: c.otp!,
    });
    expect(done.state).toBe('captured');
  });

  it('hands out https URLs to a request that came over https', async () => {
    const { id, clientId, clientSecret } = box.sb.merchant;
    const gateway = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: box.sb.url });
    const c = testCards.otp;
    const card = { number: c.number, expireMonth: c.expireMonth, expireYear: c.expireYear, cvv: c.cvv };
    const outcome = readPayment(await gateway.payments.create({ intent: 'auth', amount: { currency: 'USD', total: '2.00' }, card }));
    expect(outcome.status === 'pending' && outcome.redirectUrl?.startsWith(`${box.sb.url}/v1/redirect/`)).toBe(true);
  });

  it('refuses to serve plain HTTP on a host that is not loopback', async () => {
    await expect(startSandbox({ host: '0.0.0.0', plainHttp: true })).rejects.toThrow(/only for a loopback host/);
  });

  it('is off by default: plain HTTP is refused and there is no httpUrl', async () => {
    const strict = await startSandbox();
    try {
      expect(strict.httpUrl).toBeUndefined();
      expect((await fetch(`http://127.0.0.1:${strict.port}/`)).status).toBe(403);
    } finally {
      await strict.close();
    }
  });

  it('never lets the server companion send credentials over plain http to a host that is not loopback', () => {
    const base = { merchantId: 'm', clientId: 'c', clientSecret: 's' };
    for (const baseUrl of ['http://api.example.com', 'http://10.0.0.1:8443', 'http://localhost.example.com']) {
      expect(() => createGateway({ ...base, baseUrl }), baseUrl).toThrow(expect.objectContaining({ code: 'invalid_config' }));
    }
    expect(() => createGateway({ ...base, baseUrl: 'http://localhost:8443' })).not.toThrow();
  });
});

describe('the URLs handed out follow a loopback Host', () => {
  const otpCard = testCards.otp;
  const card = { number: otpCard.number, expireMonth: otpCard.expireMonth, expireYear: otpCard.expireYear, cvv: otpCard.cvv };

  for (const scheme of ['http', 'https'] as const) {
    for (const host of ['localhost', '127.0.0.1']) {
      it(`a payment made through ${scheme}://${host} authenticates on the URL it was handed`, async () => {
        const { id, clientId, clientSecret } = box.sb.merchant;
        const baseUrl = `${scheme}://${host}:${box.sb.port}`;
        const gateway = createGateway({ merchantId: id, clientId, clientSecret, baseUrl });
        const pending = readPayment(await gateway.payments.create({ intent: 'sale', amount: { currency: 'USD', total: '1.00' }, card }));
        if (pending.status !== 'pending') throw new Error(`expected pending, got ${pending.status}`);
        expect(pending.authenticateUrl).toBe(`${baseUrl}/v1/authenticate/${pending.sessionId}`);
        expect(pending.redirectUrl).toBe(`${baseUrl}/v1/redirect/${pending.sessionId}`);
        const done = await gateway.payments.authenticate({
          authenticateUrl: pending.authenticateUrl!,
          referenceId: pending.referenceId,
          otp: otpCard.otp,
        });
        expect(done.state).toBe('captured');
      });
    }
  }

  /** A payment created with a Host header of the caller's choosing, over https with node's own client. */
  function createWithHost(
    hostHeader: string,
  ): Promise<{ status?: number; name?: string; redirect_url?: string; authenticate_url?: string }> {
    const sb = box.sb;
    const payload = JSON.stringify(paymentBody({ credit_card: cardOf(otpCard) }));
    return new Promise((resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port: sb.port,
          method: 'POST',
          path: `${m(sb)}/payment`,
          rejectUnauthorized: false,
          headers: {
            host: hostHeader,
            authorization: basic(sb),
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
          },
        },
        (res) => {
          let text = '';
          res
            .setEncoding('utf8')
            .on('data', (c) => (text += c))
            .on('end', () => resolve({ status: res.statusCode, ...(JSON.parse(text).result ?? {}), name: JSON.parse(text).name }));
        },
      );
      req.on('error', reject).end(payload);
    });
  }

  it('keeps its bound address for a loopback name on another port, or without one', async () => {
    const own = `https://127.0.0.1:${box.sb.port}`;
    for (const host of [`localhost:${box.sb.port + 1}`, 'localhost']) {
      const result = await createWithHost(host);
      expect(result.authenticate_url?.startsWith(`${own}/v1/authenticate/`), host).toBe(true);
      expect(result.redirect_url?.startsWith(`${own}/v1/redirect/`), host).toBe(true);
    }
    const ipv6 = await createWithHost(`[::1]:${box.sb.port}`);
    expect(ipv6.redirect_url?.startsWith(`https://[::1]:${box.sb.port}/v1/redirect/`)).toBe(true);
  });

  it('answers no other Host at all (421): a web page cannot drive it by DNS rebinding', async () => {
    for (const host of [`evil.example:${box.sb.port}`, `localhost.evil.example:${box.sb.port}`, 'rebind.evil.example']) {
      expect(await createWithHost(host), host).toMatchObject({ status: 421, name: 'MISDIRECTED_REQUEST' });
    }
  });
});
