// The CVV frame's post, against a real HTTP server on loopback: where it may go, what it sends, and
// what it passes back to the page (never an answer that holds the CVV).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postCvv } from '../../src/frame/post';

interface Seen { method: string; path: string; headers: IncomingMessage['headers']; body: string }
let server: Server;
let origin: string;
let seen: Seen[];
let answer: (path: string) => { status: number; body: string; headers?: Record<string, string> };

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
  answer = () => ({ status: 200, body: JSON.stringify({ status: 'approved', referenceId: 'PAY-1' }) });
});

const post = (over: Partial<Parameters<typeof postCvv>[0]> = {}) =>
  postCvv({ url: `${origin}/pay/kept-card`, origin, body: { ticket: 't-1' }, cvv: '737', signal: new AbortController().signal, ...over });
const rejection = async (p: Promise<unknown>) => p.then(() => { throw new Error('expected a rejection'); }, (e) => e);

describe('the CVV frame’s post', () => {
  it('POSTs the body with the CVV as JSON to the page’s origin, and answers the server’s JSON', async () => {
    await expect(post()).resolves.toEqual({ status: 'approved', referenceId: 'PAY-1' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', path: '/pay/kept-card', body: '{"ticket":"t-1","cvv":"737"}' });
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(seen[0]!.headers.cookie).toBeUndefined();
    expect(seen[0]!.headers.referer).toBeUndefined();
  });

  it.each([
    ['another origin', 'https://evil.example/pay'],
    ['another port on the same host', 'http://127.0.0.1:1/pay'],
    ['a relative URL (the frame takes absolute ones only)', '/pay/kept-card'],
  ])('refuses %s with unsafe_url, and sends nothing', async (_, url) => {
    expect(await rejection(post({ url }))).toMatchObject({ code: 'unsafe_url' });
    expect(seen).toEqual([]);
  });

  it('refuses a body that brings its own cvv, and sends nothing', async () => {
    expect(await rejection(post({ body: { cvv: '000' } }))).toMatchObject({ code: 'invalid_request' });
    expect(seen).toEqual([]);
  });

  it('does not follow a redirect: the CVV reaches no other address', async () => {
    answer = (path) => (path === '/pay/kept-card' ? { status: 307, body: '{}', headers: { location: '/log' } } : { status: 200, body: '{}' });
    expect(await rejection(post())).toMatchObject({ code: 'network' });
    expect(seen.map((s) => s.path)).toEqual(['/pay/kept-card']);
  });

  it('passes a refusal in payframe’s shape on with its code, status and body', async () => {
    const body = { error: { code: 'not_found', reason: 'TICKET', message: 'This ticket is used: start again.' } };
    answer = () => ({ status: 404, body: JSON.stringify(body) });
    expect(await rejection(post())).toMatchObject({ code: 'not_found', status: 404, reason: 'TICKET', message: 'This ticket is used: start again.', body });
  });

  it('types any other refusal by its status', async () => {
    answer = () => ({ status: 503, body: '{"down":true}' });
    expect(await rejection(post())).toMatchObject({ code: 'server_error', status: 503, body: { down: true } });
  });

  it('refuses an answer that is not JSON, without passing its text on', async () => {
    answer = () => ({ status: 200, body: '<html>cvv 737</html>' });
    const error = await rejection(post());
    expect(error).toMatchObject({ code: 'invalid_response', status: 200, body: undefined });
    expect(error.message).not.toContain('737');
  });

  it.each([
    ['echoed as a string', { received: { ticket: 't-1', cvv: '737' } }],
    ['echoed as a number', { code: 737 }],
    ['deep in an error', { error: { code: 'invalid_request', message: 'bad', details: ['737'] } }],
    // What the review found: a refusal that quotes the request, or a message that names the code.
    ['quoted in a refusal', { error: 'unexpected field in {"ticket":"t-1","cvv":"737"}' }],
    ['in a message of payframe’s shape', { error: { code: 'invalid_request', message: 'cvv 737 was refused' } }],
    ['at the end of a sentence', { error: { code: 'invalid_card', message: 'Wrong security code: 737.' } }],
    ['before a comma or in brackets', { note: 'codes tried: 737, then (737)' }],
    ['as a key', { '737': true }],
    ['spelt with unicode escapes', '{"note":"cvv=\\u0037\\u0033\\u0037"}'],
  ])('refuses an answer that holds the CVV (%s): the page never gets it', async (_, body) => {
    answer = () => ({ status: 400, body: typeof body === 'string' ? body : JSON.stringify(body) });
    const error = await rejection(post());
    expect(error).toMatchObject({ code: 'invalid_response', body: undefined });
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain('737');
  });

  it('passes on an answer whose digits merely contain the CVV\'s (an amount, an id, a uuid, a longer number)', async () => {
    const body = { total: '13.737', rate: '737.5', referenceId: 'PAY-a737b', orderId: 'ORD-17370', eventId: '0737c1a2-1f0e-4b5d-9a7c-3e2d737f1a00', code: 7370 };
    answer = () => ({ status: 200, body: JSON.stringify(body) });
    await expect(post()).resolves.toEqual(body);
  });

  it('stops at once when its signal aborts', async () => {
    const stop = new AbortController();
    stop.abort(new Error('stopped'));
    expect((await rejection(post({ signal: stop.signal }))).message).toBe('stopped');
  });
});
