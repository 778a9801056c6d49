/**
 * Issue 12, defects 2-4: connections that send nothing are closed, requests() is capped, and what it
 * keeps is masked by shape (card numbers anywhere, CVV-like keys, credentials in any header).
 */
import { connect as tcp, type Socket } from 'node:net';
import { connect as tls } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { testCards } from '../../src/sandbox';
import { maskBody } from '../../src/sandbox/http/record';
import { basic, call, m, useSandbox } from './helpers';

const IDLE = 300;
const box = useSandbox({ idleTimeoutMs: IDLE });
// The floods below take longer than IDLE on a busy machine, and a request's head would then time out
// (408): they get a sandbox with the default idle limit.
const flooded = useSandbox();
const PAN = testCards.approved.number;
const SPACED = PAN.replace(/(\d{4})(?=\d)/g, '$1 ');

/** Resolves when the server closes the socket, with how long that took and what it said. */
function closed(socket: Socket): Promise<{ ms: number; text: string }> {
  const start = Date.now();
  let text = '';
  socket.on('data', (chunk) => (text += String(chunk)));
  socket.on('error', () => undefined);
  return new Promise((resolve) => socket.on('close', () => resolve({ ms: Date.now() - start, text })));
}

describe('connections that send nothing are closed', () => {
  it('a TCP connection that never sends a byte, twenty of them', async () => {
    const sockets = Array.from({ length: 20 }, () => tcp(box.sb.port, '127.0.0.1'));
    const results = await Promise.all(sockets.map(closed));
    for (const { ms, text } of results) {
      expect(ms).toBeGreaterThanOrEqual(IDLE - 50);
      expect(text).toBe('');
    }
  });

  it('a TLS handshake that stops after its first byte', async () => {
    const socket = tcp(box.sb.port, '127.0.0.1', () => socket.write(Buffer.from([0x16])));
    expect((await closed(socket)).ms).toBeGreaterThanOrEqual(IDLE - 50);
  });

  it('a TLS connection that completes its handshake and then sends no request', async () => {
    const socket = tls({ port: box.sb.port, host: '127.0.0.1', rejectUnauthorized: false });
    const done = closed(socket as unknown as Socket);
    await new Promise((resolve) => socket.once('secureConnect', resolve));
    expect((await done).ms).toBeGreaterThanOrEqual(IDLE - 50);
  });

  it('a request head that stalls, over HTTPS and over plain HTTP (408)', async () => {
    const secure = tls({ port: box.sb.port, host: '127.0.0.1', rejectUnauthorized: false }, () =>
      secure.write('GET / HTTP/1.1\r\nHost: localhost\r\n'),
    );
    const plain = tcp(box.sb.port, '127.0.0.1', () => plain.write('GET / HTTP/1.1\r\nHost: localhost\r\n'));
    const [a, b] = await Promise.all([closed(secure as unknown as Socket), closed(plain)]);
    for (const { text } of [a, b]) {
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
      expect(text).toMatch(/\r\ncontent-type: application\/json/i);
      const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
      expect(body).toMatchObject({
        code: '4080',
        name: 'REQUEST_TIMEOUT',
        message: expect.any(String),
        eventId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
    }
  });

  it('a request that is not HTTP gets the JSON error body (400)', async () => {
    const plain = tcp(box.sb.port, '127.0.0.1', () => plain.write('NOT HTTP AT ALL\r\n\r\n'));
    const { text } = await closed(plain);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: '1000', name: 'INVALID_REQUEST' });
  });

  it('a chunk extension too large for the parser gets 413 with the JSON error body, as node would say 413', async () => {
    const head = 'POST /v1/x HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
    const secure = tls({ port: box.sb.port, host: '127.0.0.1', rejectUnauthorized: false }, () =>
      secure.write(`${head}1;${'e'.repeat(20_000)}\r\nx\r\n0\r\n\r\n`),
    );
    const { text } = await closed(secure as unknown as Socket);
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: '4130', name: 'PAYLOAD_TOO_LARGE' });
  });

  it('while a connection that keeps talking is served', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await call(box.sb, 'GET', '/')).status).toBe(200);
      await new Promise((r) => setTimeout(r, IDLE / 2));
    }
  });
});

describe('requests() is capped', () => {
  it('keeps the last 1,000 requests, dropping the oldest first', async () => {
    // 1,041 requests pipelined on one connection: what a flood costs the sandbox, not the client.
    const heads = Array.from(
      { length: 1041 },
      (_, i) => `GET /nothing?i=${i} HTTP/1.1\r\nHost: localhost\r\n${i === 1040 ? 'Connection: close\r\n' : ''}\r\n`,
    );
    const socket = tls({ port: flooded.sb.port, host: '127.0.0.1', rejectUnauthorized: false }, () => socket.write(heads.join('')));
    const { text } = await closed(socket as unknown as Socket);
    expect(text.match(/HTTP\/1\.1 404/g)).toHaveLength(1041);
    const log = flooded.sb.requests();
    expect(log.length).toBe(1000);
    expect(log.at(-1)!.path).toBe('/nothing?i=1040');
    expect(log.some((r) => r.path === '/nothing?i=0')).toBe(false);
  });

  it('keeps at most 4,096 characters of a body, masked before it is cut', async () => {
    const text = 'x'.repeat(4090) + PAN + 'y'.repeat(56_000);
    await call(box.sb, 'POST', '/nothing', undefined, { raw: text, headers: { 'content-type': 'text/plain' } });
    const body = box.sb.requests().at(-1)!.body as string;
    expect(body.length).toBeLessThanOrEqual(4096 + 40);
    expect(body).toMatch(/^x{4090}\*{4}/);
    expect(body).toMatch(/… \[\d+ more characters not kept\]$/);
    expect(body.slice(0, 4096)).not.toMatch(/\d{5}/);
  });

  it('bounds what a flood of large posts keeps: 100 posts of 60 KiB keep under 1 MB', async () => {
    const big = JSON.stringify({ pad: 'z'.repeat(60_000) });
    for (let i = 0; i < 100; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, () =>
          fetch(`${flooded.sb.url}/v1/x`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big }).then((r) =>
            r.arrayBuffer(),
          ),
        ),
      );
    }
    expect(JSON.stringify(flooded.sb.requests().slice(-100)).length).toBeLessThan(1_000_000);
  });
});

describe('requests() masks by shape', () => {
  /** What requests() kept of the last request, as text. */
  const last = () => JSON.stringify(box.sb.requests().at(-1));

  it('credentials in any header: authorization, proxy-authorization, cookie, custom Basic or Bearer values', async () => {
    await call(box.sb, 'GET', `${m(box.sb)}/payment/PAY-1`, undefined, {
      headers: {
        'proxy-authorization': 'Basic dXNlcjpodW50ZXIy',
        cookie: 'session=s3cr3t-session; token=Bearer abc.def.ghi; theme=dark',
        'x-forwarded-authorization': 'Bearer eyJhbGciOi.payload.sig',
        'x-api-key': 'sk_live_0123456789abcdef',
        'x-note': 'token Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ== inside',
      },
    });
    const r = box.sb.requests().at(-1)!;
    expect(r.headers['authorization']).toBe('Basic [redacted]');
    expect(r.headers['proxy-authorization']).toBe('Basic [redacted]');
    expect(r.headers['cookie']).toBe('session=[redacted]; token=[redacted]; theme=[redacted]');
    expect(r.headers['x-forwarded-authorization']).toBe('[redacted]');
    expect(r.headers['x-api-key']).toBe('[redacted]');
    expect(r.headers['x-note']).toBe('token Basic [redacted] inside');
    for (const secret of [
      'dXNlcjpodW50ZXIy',
      's3cr3t',
      'abc.def',
      'eyJhbGciOi',
      'sk_live',
      'QWxhZGRpbjpvcGVuIHNlc2FtZQ',
      basic(box.sb).slice(6),
    ]) {
      expect(last()).not.toContain(secret);
    }
  });

  it('card numbers anywhere: any header, the path and query, JSON keys and values, text', async () => {
    await call(
      box.sb,
      'POST',
      `/v1/x/${PAN}?card=${encodeURIComponent(SPACED)}&${PAN}=1&q=%34%31%31%31%31%31%31%31%31%31%31%31%31%31%31%31`,
      undefined,
      {
        raw: JSON.stringify({ [PAN]: 'key', deep: [{ note: `card ${SPACED} here` }, Number(PAN)], 'x-4111-1111-1111-1111': true }),
        headers: { 'x-card': SPACED, 'x-pan': `pan=${PAN}`, 'content-type': 'application/json' },
      },
    );
    const text = last();
    expect(text).not.toMatch(/\d(?:[ -]?\d){11}/);
    expect(text).not.toContain('1111 1111');
    expect(text).not.toContain('1111-1111');
    expect(text).toContain('****1111');
  });

  it('card numbers written with odd separators: " - ", tabs, zero-width or bidi characters, full-width digits', async () => {
    const odd = [
      '4111 - 1111 - 1111 - 1111',
      '4111\t1111\t1111\t1111',
      '4111\u200b1111\u200b1111\u200b1111',
      '\u202d4111\u200e1111\u200e1111\u200e1111',
      '４１１１４１１１１１１１１１１１',
    ];
    await call(box.sb, 'POST', '/v1/x', { notes: odd }, { headers: { 'x-odd': odd[0]!, 'x-odd-2': odd[1]! } });
    const { body, headers } = box.sb.requests().at(-1)!;
    expect(JSON.stringify({ body, x: headers['x-odd'], y: headers['x-odd-2'] })).not.toMatch(/1111.{0,6}1111/);
  });

  it.each([
    [
      'JSON',
      'application/json',
      JSON.stringify({
        card: {
          cvc: '321',
          security_code: '321',
          securityCode: 321,
          CSC: '321',
          cvn: '321',
          card_cvv: '321',
          cid: '321',
          cvv_number: '321',
          cvcValue: '321',
        },
        list: [{ cvv2: '321' }],
      }),
    ],
    ['a form', 'application/x-www-form-urlencoded', 'number=4111111111111111&cvc=321&card%5Bsecurity_code%5D=321&CVV2=321'],
    ['text', 'text/plain', 'cvc: 321\nsecurity code = 321; "cvv2":"321" cvv_code=321'],
    ['XML', 'application/xml', '<card><cvv>321</cvv><number>4111111111111111</number></card>'],
    ['JSON that does not parse', 'application/json', '{"cvc": "321", "csc":321, '],
  ])('CVV-like keys in %s', async (_, type, raw) => {
    await call(box.sb, 'POST', `/v1/x?cvc=321&security_code=321&cvv=321`, undefined, { raw, headers: { 'content-type': type } });
    const { path, body } = box.sb.requests().at(-1)!;
    const text = JSON.stringify({ path, body });
    expect(text).not.toContain('321');
    expect(text).toContain('***');
  });

  // A review found a 64 KiB body of `content-disposition:name=` repeated held the sandbox for 6 s (the
  // multipart rule backtracked). Measured as a ratio to an ordinary body of the same size, in the same
  // run, so that a slow machine does not fail it: linear work stays within a small factor.
  it('masks hostile multipart-looking bodies in about the time of an ordinary one', () => {
    const hostile = [
      'content-disposition:name='.repeat(2600),
      `--b\r\n${'content-disposition: form-data; name="cvv"\r\n'.repeat(1400)}`,
      `--b\r\nContent-Disposition: form-data; name="cvv"\r\n\r\n${'1\r\n'.repeat(20_000)}`,
    ];
    const ordinary = 'lorem ipsum dolor sit amet, '.repeat(2340);
    const time = (text: string) => {
      const start = performance.now();
      for (let i = 0; i < 3; i++) maskBody(Buffer.from(text), 'multipart/form-data; boundary=b');
      return performance.now() - start;
    };
    const base = Math.max(time(ordinary), 1);
    for (const text of hostile) expect(time(text) / base, text.slice(0, 40)).toBeLessThan(50);
  });

  it('CVVs by shape: multipart parts by their name, headers by their name, "key value" in text, card_code and its kin', async () => {
    const multipart = [
      '--b',
      'Content-Disposition: form-data; name="cvv"',
      '',
      '4321',
      '--b',
      'Content-Disposition: form-data; name="card[cvc]"',
      '',
      '4321',
      '--b',
      'content-disposition: form-data; name=cardCode',
      'Content-Type: text/plain',
      '',
      '4321',
      '--b',
      'Content-Disposition: form-data; name="intent"',
      '',
      'sale 4321',
      '--b',
      'Content-Disposition: form-data; name="number"',
      '',
      PAN,
      '--b--',
    ].join('\r\n');
    await call(box.sb, 'POST', '/v1/x', undefined, { raw: multipart, headers: { 'content-type': 'multipart/form-data; boundary=b' } });
    // The three CVV parts are hidden; a part that is not a CVV keeps its value; the number is masked by shape.
    const masked = multipart.replace(/\r\n4321(?=\r\n)/g, '\r\n***').replace(PAN, '****1111');
    expect(masked.match(/\*\*\*\r/g)).toHaveLength(3);
    expect(box.sb.requests().at(-1)!.body).toBe(masked);

    await call(box.sb, 'POST', '/v1/x', undefined, {
      headers: { 'x-cvv': '2468', 'X-Card-CVC': '2468', 'x-card-code': '2468', cvv2: '2468', 'x-request-id': 'abc-2468' },
    });
    const { headers } = box.sb.requests().at(-1)!;
    expect([headers['x-cvv'], headers['x-card-cvc'], headers['x-card-code'], headers['cvv2']]).toEqual(['***', '***', '***', '***']);
    expect(headers['x-request-id']).toBe('abc-2468');

    const text = 'number: 4111111111111111 cvv 9876 "cvv2":"1357" card code\t8642 CVC\n7531 security code  "9753" card_code 1470';
    await call(box.sb, 'POST', '/v1/x', undefined, { raw: text, headers: { 'content-type': 'text/plain' } });
    expect(box.sb.requests().at(-1)!.body).toBe(
      'number: ****1111 cvv *** "cvv2":"***" card code\t*** CVC\n*** security code  "***" card_code ***',
    );
    await call(box.sb, 'POST', '/v1/x', undefined, {
      raw: 'the cvv is wrong; cvc check failed',
      headers: { 'content-type': 'text/plain' },
    });
    expect(box.sb.requests().at(-1)!.body).toBe('the cvv is wrong; cvc check failed'); // words after the key are not a code

    const json = {
      card_code: '5678',
      cardCode: 5678,
      card_cvc: '5678',
      securityCode: '5678',
      CardSecurityCode: '5678',
      cvv2: '4444',
      code: 'ABC-5678',
    };
    await call(box.sb, 'POST', '/v1/x', json);
    expect(box.sb.requests().at(-1)!.body).toEqual({
      card_code: '***',
      cardCode: '***',
      card_cvc: '***',
      securityCode: '***',
      CardSecurityCode: '***',
      cvv2: '***',
      code: 'ABC-5678',
    });
  });

  // The flaky "retries a GET after a dropped connection" (test/server/transport.test.ts): about one
  // payment id in 75 has twelve digits in a row among its 24 hex digits, and was masked in the path.
  it("keeps the sandbox's ids whole (none holds twelve digits in a row), UUIDs whatever digits they hold", async () => {
    const ids = {
      reference_id: 'PAY-01234567890A12345678901B',
      payer: 'PAYER-ABCDEF01234567890A1234567',
      card: 'CARD-12345678901A23456789012B',
      session: '01234567890a12345678901abcdef012',
      nonce: '12345678-1234-4234-9234-123456789012',
    };
    const path = `/v1/authenticate/${ids.session}?payer=${ids.payer}&nonce=${ids.nonce}`;
    await call(box.sb, 'POST', path, ids, { headers: { 'x-request-id': ids.nonce, 'x-reference': ids.reference_id } });
    const r = box.sb.requests().at(-1)!;
    expect(r.path).toBe(path);
    expect(r.body).toEqual(ids);
    expect([r.headers['x-request-id'], r.headers['x-reference']]).toEqual([ids.nonce, ids.reference_id]);
  });

  it('still masks a card number with hex letters or other digits around it, even as long as an id', async () => {
    const texts = [
      `ab${PAN}`,
      `${PAN}cd`,
      `card${PAN}`,
      `deadbeef-${PAN}`,
      `x-${SPACED}-y`,
      `abcd${PAN}`,
      `${PAN}${PAN}`,
      `PAY-${PAN}ABCDEF12`,
    ];
    await call(box.sb, 'POST', '/v1/x', { texts }, { headers: { 'x-a': texts[0]!, 'x-b': texts[1]! } });
    expect(last()).not.toMatch(/\d{12}/);
    expect(last()).not.toContain('1111 1111');
  });

  it('leaves what is not card data or a credential as it was', async () => {
    const body = {
      intent: 'sale',
      reference_id: 'PAY-0123456789abcdef01234567',
      otp: '111111',
      amount: { total: '10.00' },
      expire_year: 2030,
    };
    await call(box.sb, 'POST', `/v1/x?email=ada@example.com&page=2`, body, { headers: { 'x-request-id': 'abc-123' } });
    const r = box.sb.requests().at(-1)!;
    expect(r.body).toEqual(body);
    expect(r.path).toBe('/v1/x?email=ada@example.com&page=2');
    expect(r.headers['x-request-id']).toBe('abc-123');
  });
});
