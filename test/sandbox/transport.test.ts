import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:https';
import { connect } from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox, testCards } from '../setup/sandbox';
import { basic, call, cardOf, expectRefusal, m, pay, paymentBody, useSandbox } from './helpers';

const frameDir = mkdtempSync(join(tmpdir(), 'payframe-frame-'));
writeFileSync(join(frameDir, 'index.html'), '<!doctype html><title>frame</title>');
writeFileSync(join(frameDir, 'frame.js'), 'export {};');
mkdirSync(join(frameDir, 'assets'));
writeFileSync(join(frameDir, 'assets', 'style.css'), 'body{}');
writeFileSync(join(frameDir, '..', 'payframe-secret.txt'), 'secret');
afterAll(() => rmSync(frameDir, { recursive: true, force: true }));

const box = useSandbox({ frameDir, maxBodyBytes: 4096 });

describe('transport', () => {
  it('answers plain HTTP on the same port with 403 HTTPS_REQUIRED', async () => {
    const res = await fetch(`http://127.0.0.1:${box.sb.port}/v1/merchants/sandbox-merchant/payment/x`);
    expectRefusal({ status: res.status, body: await res.json(), headers: res.headers }, 403, 'HTTPS_REQUIRED', '4030');
  });

  it('speaks TLS with the certificate it hands out as ca', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${box.sb.url}/`, { ca: box.sb.ca, rejectUnauthorized: true }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    expect(box.sb.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it('describes itself at /', async () => {
    expect((await call(box.sb, 'GET', '/', undefined, { auth: null })).body).toEqual({ service: 'payframe sandbox' });
  });

  it('answers an unknown path 404 and a wrong method 405', async () => {
    expectRefusal(await call(box.sb, 'GET', '/v1/nothing'), 404, 'NOT_FOUND', '4040');
    const wrong = await call(box.sb, 'DELETE', `${m(box.sb)}/payment`);
    expectRefusal(wrong, 405, 'METHOD_NOT_ALLOWED', '4050');
    expect(wrong.headers.get('allow')).toBe('POST');
  });

  it('gives every error a fresh eventId', async () => {
    const a = await call(box.sb, 'GET', '/nope');
    const b = await call(box.sb, 'GET', '/nope');
    expect(a.body.eventId).not.toBe(b.body.eventId);
  });
});

describe('authentication', () => {
  it('refuses missing and wrong Basic credentials', async () => {
    expectRefusal(await call(box.sb, 'GET', `${m(box.sb)}/payment/PAY-1`, undefined, { auth: null }), 401, 'UNAUTHORIZED', '4010');
    expectRefusal(
      await call(box.sb, 'GET', `${m(box.sb)}/payment/PAY-1`, undefined, { auth: basic(box.sb, 'wrong') }),
      401,
      'UNAUTHORIZED',
    );
    expectRefusal(await call(box.sb, 'GET', `${m(box.sb)}/payment/PAY-1`, undefined, { auth: 'Bearer abc' }), 401, 'UNAUTHORIZED');
  });

  it('answers an unknown merchant 404 saying so', async () => {
    const res = await call(box.sb, 'POST', '/v1/merchants/nobody/payment', {});
    expectRefusal(res, 404, 'NOT_FOUND');
    expect(res.body.message).toMatch(/merchant/i);
  });
});

describe('bodies', () => {
  const create = `/v1/merchants/sandbox-merchant/payment`;

  it('answers a request target that is not a URL with 400, and keeps serving', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: box.sb.port, rejectUnauthorized: false }, () => {
        socket.write('GET //[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      });
      let text = '';
      socket.setTimeout(3000, () => socket.destroy(new Error('no answer')));
      socket.on('data', (chunk) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('"name":"INVALID_REQUEST"');
    expect((await call(box.sb, 'GET', '/')).status).toBe(200);
  });

  it('refuses malformed JSON with 400 INVALID_REQUEST', async () => {
    expectRefusal(await call(box.sb, 'POST', create, undefined, { raw: '{"intent":' }), 400, 'INVALID_REQUEST', '1000');
  });

  it('refuses a body that is not application/json with 415', async () => {
    const res = await call(box.sb, 'POST', create, undefined, { raw: 'intent=auth', headers: { 'content-type': 'text/plain' } });
    expectRefusal(res, 415, 'UNSUPPORTED_MEDIA_TYPE', '4150');
  });

  it('accepts a charset on the JSON content type', async () => {
    const body = paymentBody({ credit_card: cardOf(testCards.approved) });
    const res = await call(box.sb, 'POST', create, undefined, {
      raw: JSON.stringify(body),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(200);
  });

  it('refuses a body over the limit with 413', async () => {
    const res = await call(box.sb, 'POST', create, { intent: 'auth', pad: 'x'.repeat(5000) });
    expectRefusal(res, 413, 'PAYLOAD_TOO_LARGE', '4130');
  });

  it('stops reading a streamed body past the limit with 413', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await fetch(`${box.sb.url}${create}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basic(box.sb) },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).name).toBe('PAYLOAD_TOO_LARGE');
  });

  it('names the failing field without echoing its value', async () => {
    const card = { ...cardOf(testCards.approved), number: '4111-1111-1111-1111' };
    const res = await call(box.sb, 'POST', create, paymentBody({ credit_card: card }));
    expectRefusal(res, 400, 'INVALID_CARD_NUMBER', '1014');
    expect(res.body.message).toContain('payer.funding_instrument.credit_card.number');
    expect(res.body.message).not.toContain('1111-1111');
    const month = await call(box.sb, 'POST', create, paymentBody({ credit_card: { ...cardOf(testCards.approved), expire_month: 13 } }));
    expect(month.body.message).toContain('expire_month');
    expect(month.body.message).not.toContain('13');
  });
});

describe('frame files', () => {
  it('serves files under /frame/ with their content types', async () => {
    const html = await fetch(`${box.sb.url}/frame/`);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await html.text()).toContain('<title>frame</title>');
    expect((await fetch(`${box.sb.url}/frame/frame.js`)).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await fetch(`${box.sb.url}/frame/assets/style.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('never serves a file outside the folder', async () => {
    for (const path of [
      '/frame/../payframe-secret.txt',
      '/frame/%2e%2e/payframe-secret.txt',
      '/frame/..%2fpayframe-secret.txt',
      '/frame/missing.js',
    ]) {
      const res = await fetch(`${box.sb.url}${path}`);
      const text = await res.text();
      expect(res.status, path).toBe(404);
      expect(text).not.toContain('secret');
    }
  });
});

describe('requests()', () => {
  it('records what arrived with card numbers, CVVs and credentials masked', async () => {
    await pay(box.sb, testCards.approved, { custom: { note: 'masked?' } });
    const last = box.sb
      .requests()
      .filter((r) => r.path.endsWith('/payment'))
      .at(-1)!;
    expect(last.method).toBe('POST');
    expect(last.headers['authorization']).toBe('Basic [redacted]');
    const card = (last.body as any).payer.funding_instrument.credit_card;
    expect(card.number).toBe('****1111');
    expect(card.cvv2).toBe('***');
    expect((last.body as any).custom).toEqual({ note: 'masked?' });
    expect(JSON.stringify(box.sb.requests())).not.toContain(testCards.approved.number);
    expect(Date.parse(last.at)).not.toBeNaN();
  });

  it('masks card data in bodies that are not valid JSON, numbers sent as JSON numbers and the query', async () => {
    const pan = testCards.approved.number;
    const before = box.sb.requests().length;
    await call(box.sb, 'POST', `${m(box.sb)}/payment`, undefined, { raw: `{"number":"${pan}","cvv2":"987",}` });
    await call(box.sb, 'POST', `${m(box.sb)}/payment`, undefined, {
      raw: `{"payer":{"funding_instrument":{"credit_card":{"number":${pan},"cvv2":987}}}}`,
    });
    await call(box.sb, 'POST', `${m(box.sb)}/payment`, undefined, {
      raw: `number=${pan}&cvv2=987`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    await call(box.sb, 'POST', `${m(box.sb)}/payment`, undefined, {
      raw: `{"card": {"cvv": "987"}, "x": [`,
      headers: { 'content-type': 'application/json' },
    });
    await call(box.sb, 'GET', `${m(box.sb)}/payer?email=${pan}`);
    const recorded = JSON.stringify(box.sb.requests().slice(before));
    expect(recorded).not.toContain(pan);
    expect(recorded).not.toContain('987');
    expect(recorded).toContain('****1111');
  });
});

describe('injectFault', () => {
  it('answers 500 INTERNAL_ERROR the given number of times, then serves again', async () => {
    box.sb.injectFault({ method: 'GET', path: '/v1/merchants/sandbox-merchant/payer', kind: 'error', times: 2 });
    const url = `${m(box.sb)}/payer?email=nobody@example.com`;
    expectRefusal(await call(box.sb, 'GET', url), 500, 'INTERNAL_ERROR', '5000');
    expectRefusal(await call(box.sb, 'GET', url), 500, 'INTERNAL_ERROR');
    expectRefusal(await call(box.sb, 'GET', url), 404, 'NOT_FOUND');
  });

  it('drops the connection without an answer', async () => {
    box.sb.injectFault({ path: /\/payment\/PAY-DROP$/, kind: 'drop' });
    await expect(fetch(`${box.sb.url}${m(box.sb)}/payment/PAY-DROP`, { headers: { authorization: basic(box.sb) } })).rejects.toThrow();
    expectRefusal(await call(box.sb, 'GET', `${m(box.sb)}/payment/PAY-DROP`), 404, 'NOT_FOUND');
  });

  it('delays a request, then handles it', async () => {
    box.sb.injectFault({ path: '/', kind: 'delay', ms: 50 });
    let answered = false;
    const pending = call(box.sb, 'GET', '/').then((res) => {
      answered = true;
      return res;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(answered).toBe(false);
    expect((await pending).status).toBe(200);
  });

  it('answers a request with what a test gives: a status, a body and its type, the body after `ms`', async () => {
    box.sb.injectFault({ path: '/v1/reply', kind: 'reply', status: 502, body: '<html>Bad gateway</html>', type: 'text/html' });
    const html = await fetch(`${box.sb.url}/v1/reply`);
    expect([html.status, html.headers.get('content-type'), await html.text()]).toEqual([502, 'text/html', '<html>Bad gateway</html>']);
    box.sb.injectFault({ path: '/v1/reply', kind: 'reply' });
    const empty = await fetch(`${box.sb.url}/v1/reply`);
    expect([empty.status, empty.headers.get('content-type'), await empty.text()]).toEqual([200, 'application/json', '']);
    box.sb.injectFault({ path: '/v1/reply', kind: 'reply', body: '{"data":', ms: 300 });
    const start = Date.now();
    const slow = await fetch(`${box.sb.url}/v1/reply`);
    expect(await slow.text()).toBe('{"data":');
    expect(Date.now() - start).toBeGreaterThanOrEqual(290);
    expectRefusal(await call(box.sb, 'GET', '/v1/reply'), 404, 'NOT_FOUND');
  });
});

describe('test-mode control endpoints', () => {
  it('are absent unless testMode is on', async () => {
    expectRefusal(await call(box.sb, 'POST', '/__sandbox/clock', { advanceMs: 1000 }, { auth: null }), 404, 'NOT_FOUND');
    expectRefusal(await call(box.sb, 'POST', '/__sandbox/fault', { kind: 'error' }, { auth: null }), 404, 'NOT_FOUND');
  });

  it('move the clock and inject faults when testMode is on', async () => {
    const sb = await startSandbox({ testMode: true });
    try {
      const before = sb.now().getTime();
      const res = await call(sb, 'POST', '/__sandbox/clock', { advanceMs: 3_600_000 }, { auth: null });
      expect(res.status).toBe(200);
      expect(Date.parse(res.body.now) - before).toBeGreaterThanOrEqual(3_600_000);
      expect(sb.now().getTime() - before).toBeGreaterThanOrEqual(3_600_000);
      expect((await call(sb, 'POST', '/__sandbox/fault', { kind: 'error', path: '/v1/merchants', times: 1 }, { auth: null })).status).toBe(
        200,
      );
      expectRefusal(await call(sb, 'GET', `${m(sb)}/payment/PAY-1`), 500, 'INTERNAL_ERROR');
      expectRefusal(await call(sb, 'GET', `${m(sb)}/payment/PAY-1`), 404, 'NOT_FOUND');
      expectRefusal(await call(sb, 'POST', '/__sandbox/fault', { kind: 'explode' }, { auth: null }), 400, 'INVALID_REQUEST');
      expect(
        (
          await call(
            sb,
            'POST',
            '/__sandbox/fault',
            { kind: 'reply', path: '/v1/x', status: 200, body: 'not json', type: 'text/plain' },
            { auth: null },
          )
        ).status,
      ).toBe(200);
      expect((await call(sb, 'GET', '/v1/x')).body).toBe('not json');
      expectRefusal(await call(sb, 'POST', '/__sandbox/fault', { kind: 'reply', status: 99 }, { auth: null }), 400, 'INVALID_REQUEST');
      // a clock moved past what a Date can hold would break every later answer: refused, nothing moved
      const now = sb.now().getTime();
      expectRefusal(await call(sb, 'POST', '/__sandbox/clock', { advanceMs: 1e300 }, { auth: null }), 400, 'INVALID_REQUEST');
      expect(() => sb.advanceClock(1e300)).toThrow(expect.objectContaining({ name: 'PayframeError', code: 'invalid_request' }));
      expect(sb.now().getTime() - now).toBeLessThan(60_000);
      expect((await call(sb, 'GET', '/')).status).toBe(200);
    } finally {
      await sb.close();
    }
  });
});
