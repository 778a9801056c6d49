/**
 * Issue 12, "Malformed service responses": the browser client (`client.tokenize`) and the server
 * companion (the gateway and its handlers) against the real sandbox answering what a broken service
 * or proxy sends (the sandbox's `reply` fault): truncated JSON, wrong types, an HTML error page, an
 * empty 200, a huge body, an answer slower than the timeout. Each is a typed error, nothing hangs,
 * and the next call works. The frames' half is e2e/malformed-responses.spec.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src';
import { isPayframeError, type PayframeError } from '../../src/shared/errors';
import { type Fault, type SandboxHandle, startSandbox, testCards } from '../setup/sandbox';
import { createGateway, type Gateway } from '../../src/server';
import { cardOf, mintToken, rejection } from '../client/helpers';

let sandbox: SandboxHandle;
let gateway: Gateway;
beforeAll(async () => {
  sandbox = await startSandbox();
  const { id, clientId, clientSecret } = sandbox.merchant;
  gateway = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: sandbox.url });
});
afterAll(() => sandbox.close());

const MiB = 1024 * 1024;
const nonce = {
  credit_card_nonce: '3f0c8a52-6c1e-4a4f-9d2e-0b7f1c2d3e4f',
  brand_code: 'VISA',
  last4: '1111',
  type: 'Visa',
  expire_month: 12,
  expire_year: 2034,
  expires_on: '2034-01-01T00:00:00Z',
  issued_on: '2026-01-01T00:00:00Z',
};

/** What a broken service or a proxy in front of it answers; `times` covers every retry of a call. */
const ANSWERS: [string, Omit<Fault, 'kind' | 'path' | 'method'>, string][] = [
  ['truncated JSON', { body: '{"data":{"credit_card_nonce":"3f0c8a52-6c1e' }, 'invalid_response'],
  [
    'wrong types',
    { body: JSON.stringify({ data: { ...nonce, credit_card_nonce: 42, last4: 1111, expire_month: '13' } }) },
    'invalid_response',
  ],
  ['JSON null', { body: 'null' }, 'invalid_response'],
  ['a JSON array', { body: '[]' }, 'invalid_response'],
  [
    'an error body with status 200',
    { body: JSON.stringify({ code: '5110', name: 'INVALID_NONCE', message: 'm', eventId: 'e' }) },
    'invalid_response',
  ],
  ['an HTML page with status 200', { body: '<!doctype html><title>Maintenance</title>', type: 'text/html' }, 'invalid_response'],
  [
    'an HTML error page (502)',
    { status: 502, body: '<html><body><h1>502 Bad Gateway</h1></body></html>', type: 'text/html', times: 3 },
    'server_error',
  ],
  ['an HTML error page (503) with no type', { status: 503, body: '<h1>busy</h1>', type: '', times: 3 }, 'server_error'],
  ['an empty 200', {}, 'invalid_response'],
  ['a 204', { status: 204 }, 'invalid_response'],
  ['an empty 400', { status: 400 }, 'invalid_request'],
  ['a huge body (8 MiB, with its length)', { body: `{"data":{"pad":"${'x'.repeat(8 * MiB)}"}}` }, 'invalid_response'],
  ['a huge body (8 MiB, streamed)', { body: `{"data":{"pad":"${'x'.repeat(8 * MiB)}"}}`, ms: 1 }, 'invalid_response'],
  ['a huge error page (8 MiB)', { status: 500, body: 'x'.repeat(8 * MiB), type: 'text/html', times: 3 }, 'server_error'],
];

/** A typed error that carries no more than a small part of what arrived. */
function expectTyped(error: unknown, code: string) {
  expect(isPayframeError(error), String(error)).toBe(true);
  expect((error as PayframeError).code, (error as Error).message).toBe(code);
  expect(JSON.stringify((error as PayframeError).body ?? '').length).toBeLessThan(70_000);
}

describe('the browser client (client.tokenize)', () => {
  const make = (options: { timeoutMs?: number } = {}) =>
    createClient({ merchantId: sandbox.merchant.id, baseUrl: sandbox.url, authorization: () => mintToken(sandbox), ...options });
  const path = '/v1/merchants/sandbox-merchant/credit-card-nonce';

  it.each(ANSWERS)('%s: a typed error, and the next call works', async (_, answer, code) => {
    const client = make();
    sandbox.injectFault({ ...answer, kind: 'reply', method: 'POST', path });
    expectTyped(await rejection(client.tokenize(cardOf(testCards.approved))), code);
    await expect(client.tokenize(cardOf(testCards.approved))).resolves.toMatchObject({ last4: '1111' });
  });

  it('a huge body is refused without being kept: the error says how much it reads', async () => {
    sandbox.injectFault({ kind: 'reply', method: 'POST', path, body: `{"data":"${'x'.repeat(2 * MiB)}"}` });
    const error = await rejection(make().tokenize(cardOf(testCards.approved)));
    expect(error).toMatchObject({ code: 'invalid_response', status: 200, body: undefined });
    expect(error.message).toContain('larger than 65536 bytes');
  });

  it('an answer slower than the timeout, before its head or in its body: timeout, and the next call works', async () => {
    const client = make({ timeoutMs: 600 });
    await client.tokenize(cardOf(testCards.approved)); // the token is held: the deadline is the nonce call's
    for (const fault of [
      { kind: 'delay', ms: 3000 },
      { kind: 'reply', body: JSON.stringify({ data: nonce }), ms: 3000 },
    ] as const) {
      sandbox.injectFault({ ...fault, method: 'POST', path });
      expectTyped(await rejection(client.tokenize(cardOf(testCards.approved))), 'timeout');
    }
    await expect(client.tokenize(cardOf(testCards.approved))).resolves.toMatchObject({ last4: '1111' });
  });
});

describe('the server companion', () => {
  const paymentPath = () => `/v1/merchants/${sandbox.merchant.id}/payment/`;
  let referenceId: string;
  beforeAll(async () => {
    referenceId = (
      await gateway.payments.create({ intent: 'auth', amount: { currency: 'EUR', total: '5.00' }, card: cardOf(testCards.approved) })
    ).reference_id;
  });

  it.each(ANSWERS.filter(([name]) => name !== 'wrong types'))(
    'a payment read answered with %s: a typed error, and the next call works',
    async (_, answer, code) => {
      sandbox.injectFault({ ...answer, kind: 'reply', method: 'GET', path: paymentPath() });
      expectTyped(await rejection(gateway.payments.get(referenceId)), code);
      await expect(gateway.payments.get(referenceId)).resolves.toMatchObject({ id: referenceId, state: 'authorised' });
    },
  );

  it('a payment with the wrong types is invalid_response, and keeps what arrived', async () => {
    const body = JSON.stringify({ id: referenceId, state: 42, result: 'approved' });
    sandbox.injectFault({ kind: 'reply', method: 'GET', path: paymentPath(), body });
    expect(await rejection(gateway.payments.get(referenceId))).toMatchObject({ code: 'invalid_response', body: JSON.parse(body) });
  });

  it('a huge body is refused without being kept: the error says how much it reads', async () => {
    sandbox.injectFault({ kind: 'reply', method: 'GET', path: paymentPath(), body: `{"id":"${'x'.repeat(2 * MiB)}"}`, ms: 1 });
    const error = await rejection(gateway.payments.get(referenceId));
    expect(error).toMatchObject({ code: 'invalid_response', status: 200, body: undefined });
    expect(error.message).toContain('larger than 1048576 bytes');
  });

  it("a POST answered with a gateway's HTML error page (502) is outcome_unknown, sent once (never retried)", async () => {
    const path = `/v1/merchants/${sandbox.merchant.id}/payment`;
    const before = sandbox.requests().filter((r) => r.method === 'POST' && r.path === path).length;
    sandbox.injectFault({ kind: 'reply', method: 'POST', path, status: 502, body: '<html>Bad gateway</html>', type: 'text/html' });
    const error = await rejection(
      gateway.payments.create({ intent: 'sale', amount: { currency: 'EUR', total: '1.00' }, card: cardOf(testCards.approved) }),
    );
    // A gateway in front of the service gave up on it: the payment may exist all the same.
    expect(error).toMatchObject({ code: 'outcome_unknown', status: 502, body: '<html>Bad gateway</html>' });
    expect(sandbox.requests().filter((r) => r.method === 'POST' && r.path === path).length).toBe(before + 1);
  });

  it('an answer slower than the timeout, before its head or in its body: timeout', async () => {
    const slow = createGateway({
      merchantId: sandbox.merchant.id,
      clientId: sandbox.merchant.clientId,
      clientSecret: sandbox.merchant.clientSecret,
      baseUrl: sandbox.url,
      timeoutMs: 600,
      retries: 0,
    });
    for (const fault of [
      { kind: 'delay', ms: 3000 },
      { kind: 'reply', body: '{"id":"PAY-1"', ms: 3000 },
    ] as const) {
      sandbox.injectFault({ ...fault, method: 'GET', path: paymentPath() });
      expectTyped(await rejection(slow.payments.get(referenceId)), 'timeout');
    }
    await expect(slow.payments.get(referenceId)).resolves.toMatchObject({ id: referenceId });
  });

  it('the client-token handler answers a malformed token as a JSON error (502), never the raw answer', async () => {
    const handler = gateway.handlers.clientToken();
    const tokenPath = `/v1/merchants/${sandbox.merchant.id}/client_token`;
    for (const [body, type] of [
      ['{"accessToken":', 'application/json'],
      ['<html>oops</html>', 'text/html'],
      ['', 'application/json'],
    ]) {
      sandbox.injectFault({ kind: 'reply', method: 'POST', path: tokenPath, body, type });
      const response = await handler(new Request('https://shop.example/client-token', { method: 'POST' }));
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({ error: { code: 'invalid_response', message: expect.any(String) } });
    }
    expect((await handler(new Request('https://shop.example/client-token', { method: 'POST' }))).status).toBe(200);
  });
});
