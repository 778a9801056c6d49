import { describe, expect, it } from 'vitest';
import { startSandbox, testCards } from '../setup/sandbox';
import { call, clientToken, expectRefusal, m, paymentBody, useSandbox } from './helpers';

const origins = ['https://shop.example'];
const box = useSandbox({
  merchants: [
    { id: 'sandbox-merchant', clientId: 'sandbox-client', clientSecret: 'sandbox-secret' },
    { id: 'other-merchant', clientId: 'other-client', clientSecret: 'other-secret', origins },
  ],
});
const other = () => ({
  path: '/v1/merchants/other-merchant',
  auth: `Basic ${Buffer.from('other-client:other-secret').toString('base64')}`,
});
const nonceBody = (card = testCards.approved) => ({
  number: card.number,
  expire_month: card.expireMonth,
  expire_year: card.expireYear,
  cvv2: card.cvv,
});

describe('client token', () => {
  it('accepts JSON, the quoted literal sent as JSON, and a form', async () => {
    const path = `${m(box.sb)}/client_token`;
    const answers = [
      await call(box.sb, 'POST', path, { grant_type: 'client_credentials' }),
      await call(box.sb, 'POST', path, undefined, { raw: "'grant_type=client_credentials'" }),
      await call(box.sb, 'POST', path, undefined, {
        raw: 'grant_type=client_credentials',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.body.tokenType).toBe('Bearer');
      expect(res.body.accessToken.length).toBeGreaterThan(20);
      expect(Date.parse(res.body.expiresOn) - Date.parse(res.body.issuedOn)).toBe(24 * 3600_000);
    }
    expect(new Set(answers.map((a) => a.body.accessToken)).size).toBe(3);
  });

  it('refuses another grant type, a text body and wrong credentials', async () => {
    const path = `${m(box.sb)}/client_token`;
    expectRefusal(await call(box.sb, 'POST', path, { grant_type: 'password' }), 400, 'INVALID_REQUEST');
    expectRefusal(
      await call(box.sb, 'POST', path, undefined, { raw: 'grant_type=client_credentials', headers: { 'content-type': 'text/plain' } }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expectRefusal(await call(box.sb, 'POST', path, { grant_type: 'client_credentials' }, { auth: other().auth }), 401, 'UNAUTHORIZED');
  });
});

describe('card nonce', () => {
  it('answers the nonce with brand, last four and lifetimes', async () => {
    const token = await clientToken(box.sb);
    const res = await call(box.sb, 'POST', `${m(box.sb)}/credit-card-nonce`, nonceBody(), { auth: `Bearer ${token}` });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ brand_code: 'VISA', type: 'Visa', last4: '1111', expire_month: 12, expire_year: 2034 });
    expect(res.body.data.credit_card_nonce).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(Date.parse(res.body.data.expires_on) - Date.parse(res.body.data.issued_on)).toBe(24 * 3600_000);
    expect(JSON.stringify(res.body)).not.toContain(testCards.approved.number);
  });

  it('names the brand by prefix', async () => {
    const token = await clientToken(box.sb);
    const cases: [string, string][] = [
      ['5105105105105100', 'MASTERCARD'],
      ['2221000000000009', 'MASTERCARD'],
      ['378282246310005', 'AMEX'],
      ['6011111111111117', 'DISCOVER'],
      ['3530111333300000', 'JCB'],
      ['30569309025904', 'DINERS'],
      ['6200000000000005', 'UNIONPAY'],
      ['6212345678901231', 'UNIONPAY'],
    ];
    for (const [number, brand] of cases) {
      const res = await call(box.sb, 'POST', `${m(box.sb)}/credit-card-nonce`, { ...nonceBody(), number }, { auth: `Bearer ${token}` });
      expect(res.body.data?.brand_code, number).toBe(brand);
    }
  });

  it('validates the card', async () => {
    const token = await clientToken(box.sb);
    const post = (b: unknown) => call(box.sb, 'POST', `${m(box.sb)}/credit-card-nonce`, b, { auth: `Bearer ${token}` });
    expectRefusal(await post({ ...nonceBody(), number: '4111111111111112' }), 400, 'INVALID_CARD_NUMBER', '1014');
    // Passes Luhn but belongs to no brand: the card core and the sandbox judge numbers alike.
    expectRefusal(await post({ ...nonceBody(), number: '9999999999999995' }), 400, 'INVALID_CARD_NUMBER', '1014');
    // Any malformed number is 1014 as well (length, spaces, letters, not a string); a missing one is 1000.
    for (const number of ['4111 1111 1111 1111', '41111111111', '411111111111111a', '41111111111111111111', 4111111111111111]) {
      expectRefusal(await post({ ...nonceBody(), number }), 400, 'INVALID_CARD_NUMBER', '1014');
    }
    const { number: _, ...noNumber } = nonceBody();
    expectRefusal(await post(noNumber), 400, 'INVALID_REQUEST', '1000');
    expectRefusal(await post({ ...nonceBody(), expire_month: 0 }), 400, 'INVALID_REQUEST');
    expectRefusal(await post({ ...nonceBody(), expire_year: 34 }), 400, 'INVALID_REQUEST');
    expectRefusal(await post({ ...nonceBody(), cvv2: '12' }), 400, 'INVALID_REQUEST');
    expect((await post({ ...nonceBody(), cvv2: undefined })).status).toBe(200);
  });

  it('refuses a missing, unknown, Basic or other merchant token with 5080', async () => {
    const path = `${m(box.sb)}/credit-card-nonce`;
    expectRefusal(await call(box.sb, 'POST', path, nonceBody(), { auth: null }), 401, 'INVALID_CLIENT_TOKEN', '5080');
    expectRefusal(await call(box.sb, 'POST', path, nonceBody(), { auth: 'Bearer made-up' }), 401, 'INVALID_CLIENT_TOKEN');
    expectRefusal(await call(box.sb, 'POST', path, nonceBody()), 401, 'INVALID_CLIENT_TOKEN');
    const otherToken = (
      await call(box.sb, 'POST', `${other().path}/client_token`, { grant_type: 'client_credentials' }, { auth: other().auth })
    ).body.accessToken;
    expectRefusal(await call(box.sb, 'POST', path, nonceBody(), { auth: `Bearer ${otherToken}` }), 401, 'INVALID_CLIENT_TOKEN');
  });

  it('refuses an expired client token with 5081', async () => {
    const sb = await startSandbox();
    try {
      const token = await clientToken(sb);
      sb.advanceClock(24 * 3600_000 + 1);
      expectRefusal(
        await call(sb, 'POST', `${m(sb)}/credit-card-nonce`, nonceBody(), { auth: `Bearer ${token}` }),
        401,
        'EXPIRED_CLIENT_TOKEN',
        '5081',
      );
    } finally {
      await sb.close();
    }
  });

  it('lets a nonce pay once, for its own merchant, within its lifetime', async () => {
    const sb = await startSandbox({
      merchants: [
        { id: 'a', clientId: 'a', clientSecret: 'a' },
        { id: 'b', clientId: 'b', clientSecret: 'b' },
      ],
    });
    try {
      const auth = (id: string) => `Basic ${Buffer.from(`${id}:${id}`).toString('base64')}`;
      const nonce = async () => {
        const token = (await call(sb, 'POST', '/v1/merchants/a/client_token', { grant_type: 'client_credentials' }, { auth: auth('a') }))
          .body.accessToken;
        return (await call(sb, 'POST', '/v1/merchants/a/credit-card-nonce', nonceBody(), { auth: `Bearer ${token}` })).body.data
          .credit_card_nonce as string;
      };
      const payWith = (merchant: string, n: string) =>
        call(sb, 'POST', `/v1/merchants/${merchant}/payment`, paymentBody({ credit_card_nonce: { nonce: n, name: 'Ada' } }), {
          auth: auth(merchant),
        });

      const first = await nonce();
      expectRefusal(await payWith('b', first), 400, 'INVALID_NONCE', '5110');
      const paid = await payWith('a', first);
      expect(paid.status).toBe(200);
      expect(paid.body.state).toBe('authorised');
      expect(paid.body.payer.funding_instrument.credit_card).toMatchObject({ last4: '1111', name: 'Ada' });
      expectRefusal(await payWith('a', first), 409, 'NONCE_ALREADY_USED', '5111');
      expectRefusal(await payWith('a', '00000000-0000-4000-8000-000000000000'), 400, 'INVALID_NONCE');

      const late = await nonce();
      sb.advanceClock(24 * 3600_000);
      expectRefusal(await payWith('a', late), 409, 'NONCE_EXPIRED', '5109');
    } finally {
      await sb.close();
    }
  });
});

describe('CORS on the nonce endpoint', () => {
  const preflight = (origin: string, path = `/v1/merchants/sandbox-merchant/credit-card-nonce`) =>
    fetch(`${box.sb.url}${path}`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });

  it('answers a preflight from a loopback origin by default', async () => {
    for (const origin of ['https://localhost:5173', 'http://127.0.0.1:8080', 'https://[::1]:3000', 'https://localhost']) {
      const res = await preflight(origin);
      expect(res.status, origin).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('access-control-allow-methods')).toBe('POST');
      expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
      expect(res.headers.get('access-control-max-age')).toBe('7200');
      expect(res.headers.get('vary')).toBe('Origin');
    }
  });

  it('refuses other origins with 403 and no CORS headers', async () => {
    for (const origin of ['https://evil.example', 'https://localhost.evil.example', 'null']) {
      const res = await preflight(origin);
      expect(res.status, origin).toBe(403);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect((await res.json()).name).toBe('ORIGIN_NOT_ALLOWED');
    }
  });

  it('uses exactly the configured origins of a merchant', async () => {
    const path = '/v1/merchants/other-merchant/credit-card-nonce';
    expect((await preflight('https://shop.example', path)).status).toBe(204);
    expect((await preflight('https://localhost:5173', path)).status).toBe(403);
  });

  // The hosted form's frames are served by the sandbox and call the nonce endpoint from its own origin:
  // a merchant configured with its checkout's origin only must still tokenise through them.
  it("takes a nonce request from the sandbox's own origin, where its frames are, whatever the merchant's origins", async () => {
    const minted = await call(box.sb, 'POST', `${other().path}/client_token`, { grant_type: 'client_credentials' }, { auth: other().auth });
    const token = minted.body.accessToken;
    const path = `${other().path}/credit-card-nonce`;
    const own = await call(box.sb, 'POST', path, nonceBody(), { auth: `Bearer ${token}`, headers: { origin: box.sb.url } });
    expect(own.status).toBe(200);
    const port = new URL(box.sb.url).port;
    const otherPort = await call(box.sb, 'POST', path, nonceBody(), {
      auth: `Bearer ${token}`,
      headers: { origin: `https://127.0.0.1:${Number(port) + 1}` },
    });
    expectRefusal(otherPort, 403, 'ORIGIN_NOT_ALLOWED');
    const plain = await call(box.sb, 'POST', path, nonceBody(), {
      auth: `Bearer ${token}`,
      headers: { origin: `http://127.0.0.1:${port}` },
    });
    expectRefusal(plain, 403, 'ORIGIN_NOT_ALLOWED');
  });

  it('echoes the origin on the POST and on its errors, and only on the nonce endpoint', async () => {
    const token = await clientToken(box.sb);
    const origin = 'https://localhost:5173';
    const path = `${m(box.sb)}/credit-card-nonce`;
    const ok = await call(box.sb, 'POST', path, nonceBody(), { auth: `Bearer ${token}`, headers: { origin } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(origin);
    const bad = await call(box.sb, 'POST', path, nonceBody(), { auth: 'Bearer nope', headers: { origin } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('access-control-allow-origin')).toBe(origin);
    const foreign = await call(box.sb, 'POST', path, nonceBody(), { auth: `Bearer ${token}`, headers: { origin: 'https://evil.example' } });
    expectRefusal(foreign, 403, 'ORIGIN_NOT_ALLOWED', '4031');
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const payment = await call(box.sb, 'OPTIONS', `${m(box.sb)}/payment`, undefined, { headers: { origin } });
    expect(payment.status).toBe(405);
    expect(payment.headers.get('access-control-allow-origin')).toBeNull();
  });
});
