// The CVV frame's post, against a real HTTP server on loopback: where it may go, what it sends, and
// what it passes back to the page: a payment's outcome rebuilt from its known fields, or a refusal's
// code and identifiers, never the route's own words, in which the CVV could ride in any rendering.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postCvv } from '../../src/frame/post';

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}
let server: Server;
let origin: string;
let seen: Seen[];
let answer: (path: string) => { status: number; body: string; headers?: Record<string, string> };

const GATEWAY = 'https://gateway.example/';
const SESSION = 'c0ffeec0ffeec0ffeec0ffeec0ffee11';
const approved = { status: 'approved', referenceId: 'PAY-1', state: 'captured', code: '0000' };

beforeAll(async () => {
  server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    seen.push({ method: req.method!, path: req.url!, headers: req.headers, body });
    const { status, body: text, headers = {} } = answer(req.url!);
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  seen = [];
  answer = () => ({ status: 200, body: JSON.stringify(approved) });
});

const post = (over: Partial<Parameters<typeof postCvv>[0]> = {}) =>
  postCvv({
    url: `${origin}/pay/saved-card`,
    origin,
    gateway: GATEWAY,
    body: { ticket: 't-1' },
    cvv: '042',
    signal: new AbortController().signal,
    ...over,
  });
const rejection = async (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e) => e,
  );
/** Everything the page would get of an outcome or an error, as text. */
const seenByPage = (x: any) => JSON.stringify(x instanceof Error ? { ...x, message: x.message } : x);

describe('the CVV frame’s post', () => {
  it('POSTs the body with the CVV as JSON to the page’s origin, and answers the payment’s outcome', async () => {
    await expect(post()).resolves.toEqual(approved);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', path: '/pay/saved-card', body: '{"ticket":"t-1","cvv":"042"}' });
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(seen[0]!.headers.cookie).toBeUndefined();
    expect(seen[0]!.headers.referer).toBeUndefined();
  });

  it.each([
    ['another origin', 'https://evil.example/pay'],
    ['another port on the same host', 'http://127.0.0.1:1/pay'],
    ['a relative URL (the frame takes absolute ones only)', '/pay/saved-card'],
  ])('refuses %s with unsafe_url, and sends nothing', async (_, url) => {
    expect(await rejection(post({ url }))).toMatchObject({ code: 'unsafe_url' });
    expect(seen).toEqual([]);
  });

  it('refuses a body that brings its own cvv, and sends nothing', async () => {
    expect(await rejection(post({ body: { cvv: '000' } }))).toMatchObject({ code: 'invalid_request' });
    expect(seen).toEqual([]);
  });

  it('does not follow a redirect: the CVV reaches no other address', async () => {
    answer = (path) =>
      path === '/pay/saved-card' ? { status: 307, body: '{}', headers: { location: '/log' } } : { status: 200, body: '{}' };
    expect(await rejection(post())).toMatchObject({ code: 'network' });
    expect(seen.map((s) => s.path)).toEqual(['/pay/saved-card']);
  });

  it('passes a pending payment on with what handlePending takes, its redirect on the gateway only', async () => {
    const pending = { status: 'pending', referenceId: 'PAY-2', state: 'pending', code: '1007' };
    const redirectUrl = `${GATEWAY}v1/redirect/${SESSION}`;
    answer = () => ({
      status: 200,
      body: JSON.stringify({ ...pending, pending: { referenceId: 'PAY-2', sessionId: SESSION, redirectUrl } }),
    });
    await expect(post()).resolves.toEqual({ ...pending, pending: { referenceId: 'PAY-2', sessionId: SESSION, redirectUrl } });
    // Whether the service offers the OTP call passes on as a boolean; anything else is left out, as from an older server.
    for (const [otp, kept] of [
      [false, { otp: false }],
      [true, { otp: true }],
      ['false', {}],
      [1, {}],
    ] as const) {
      answer = () => ({
        status: 200,
        body: JSON.stringify({ ...pending, pending: { referenceId: 'PAY-2', sessionId: SESSION, redirectUrl, otp } }),
      });
      await expect(post(), String(otp)).resolves.toEqual({
        ...pending,
        pending: { referenceId: 'PAY-2', sessionId: SESSION, redirectUrl, ...kept },
      });
    }
    for (const elsewhere of [
      `https://evil.example/v1/redirect/${SESSION}`,
      `${GATEWAY}v1/redirect/${'0'.repeat(32)}`,
      `${GATEWAY}log?x=1`,
    ]) {
      answer = () => ({
        status: 200,
        body: JSON.stringify({ ...pending, pending: { referenceId: 'PAY-2', sessionId: SESSION, redirectUrl: elsewhere } }),
      });
      expect(await rejection(post()), elsewhere).toMatchObject({ code: 'invalid_response' });
    }
  });

  it('passes a refusal on with its code, status and reason, without the route’s words or any digit of its own', async () => {
    const body = { error: { code: 'not_found', reason: 'TICKET_USED', resultCode: '4040', message: 'This ticket is used: start again.' } };
    answer = () => ({ status: 404, body: JSON.stringify(body) });
    const error = await rejection(post());
    expect(error).toMatchObject({ code: 'not_found', status: 404, reason: 'TICKET_USED', resultCode: undefined, body: undefined });
    expect(error.message).toBe('postCvv: /pay/saved-card refused the payment (HTTP 404, TICKET_USED)');
  });

  it('types any other refusal by its status, and passes nothing of it on', async () => {
    answer = () => ({ status: 503, body: '{"down":true}' });
    expect(await rejection(post())).toMatchObject({ code: 'server_error', status: 503, body: undefined });
  });

  it('refuses an answer that is not JSON, or not a payment’s outcome, without passing its text on', async () => {
    answer = () => ({ status: 200, body: '<html>cvv 042</html>' });
    expect(await rejection(post())).toMatchObject({ code: 'invalid_response', status: 200, body: undefined });
    answer = () => ({ status: 200, body: '{"ok":true,"note":"cvv 042"}' });
    const error = await rejection(post());
    expect(error).toMatchObject({ code: 'invalid_response', body: undefined });
    expect(seenByPage(error)).not.toMatch(/042|42/);
  });

  // What the review found: the frame refused the typed CVV as the same string only.
  const renderings: [string, unknown][] = [
    ['as a string', '042'],
    ['as a number, its leading zero lost', 42],
    ['glued to letters and underscores', 'cvv_042'],
    ['glued to digits', '90421'],
    ['glued to digits, four of them', '1042'],
    ['split', '0-4-2'],
    ['spaced out', '0 4 2'],
    ['in hex', '0x2a'],
    ['as a key', { '042': true }],
  ];
  it.each(renderings)('never passes the CVV on from a success, %s', async (_, rendering) => {
    answer = () => ({ status: 200, body: JSON.stringify({ ...approved, echo: rendering, received: { cvv: rendering } }) });
    const outcome = await post();
    expect(outcome).toEqual(approved);
    expect(seenByPage(outcome)).not.toMatch(/042|42|2a|0-4|0 4/);
  });

  it.each(renderings)('never passes the CVV on from a refusal, %s, nor in its message', async (_, rendering) => {
    const text = typeof rendering === 'string' || typeof rendering === 'number' ? String(rendering) : JSON.stringify(rendering);
    answer = () => ({
      status: 400,
      body: JSON.stringify({
        error: { code: 'invalid_card', reason: text, resultCode: text, message: `Wrong security code: ${text}.`, details: [rendering] },
      }),
    });
    const error = await rejection(post());
    expect(error).toMatchObject({ code: 'invalid_card', status: 400 });
    expect(seenByPage(error)).not.toMatch(/042|42|2a|0-4|0 4/);
  });

  it.each([
    ['a reference that quotes it', { ...approved, referenceId: 'cvv_042' }],
    ['a reference that is it', { ...approved, referenceId: '042' }],
    [
      'a redirect whose query quotes it',
      {
        status: 'pending',
        referenceId: 'PAY-1',
        state: 'pending',
        code: '1100',
        pending: { referenceId: 'PAY-1', sessionId: SESSION, redirectUrl: `${GATEWAY}v1/redirect/${SESSION}?cvv=042` },
      },
    ],
  ])('refuses %s: invalid_response, and nothing of it reaches the page', async (_, body) => {
    answer = () => ({ status: 200, body: JSON.stringify(body) });
    const error = await rejection(post());
    expect(error).toMatchObject({ code: 'invalid_response', status: 200 });
    expect(seenByPage(error)).not.toMatch(/042|42|2a|0-4|0 4/);
  });

  it('passes on ids that hold the digits glued to others, and a result code equal to a four-digit code', async () => {
    answer = () => ({ status: 200, body: JSON.stringify({ ...approved, referenceId: 'PAY-A042B9' }) });
    await expect(post()).resolves.toEqual({ ...approved, referenceId: 'PAY-A042B9' });
    answer = () => ({ status: 200, body: JSON.stringify(approved) });
    await expect(post({ cvv: '0000' })).resolves.toEqual(approved);
  });

  it('stops at once when its signal aborts', async () => {
    const stop = new AbortController();
    stop.abort(new Error('stopped'));
    expect((await rejection(post({ signal: stop.signal }))).message).toBe('stopped');
  });
});
