import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src';
import { type SandboxHandle, startSandbox, testCards } from '../setup/sandbox';
import { cardOf, mintToken, nonceRequests, payWithNonce, rejection } from './helpers';

let sandbox: SandboxHandle;
let token: string;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  token = (await mintToken(sandbox)).accessToken;
});

const make = (options: { timeoutMs?: number; retries?: number; merchantId?: string; baseUrl?: string } = {}) =>
  createClient({ merchantId: sandbox.merchant.id, authorization: token, baseUrl: sandbox.url, ...options });

describe('retries and errors', () => {
  it('retries a nonce request whose connection dropped, and the nonce pays', async () => {
    sandbox.injectFault({ method: 'POST', path: /credit-card-nonce$/, kind: 'drop' });
    const before = nonceRequests(sandbox);
    const { nonce } = await make().tokenize(cardOf(testCards.approved));
    expect(nonceRequests(sandbox) - before).toBe(2);
    expect((await payWithNonce(sandbox, nonce)).body.state).toBe('captured');
  });

  it('retries after a 500', async () => {
    sandbox.injectFault({ method: 'POST', path: /credit-card-nonce$/, kind: 'error', times: 2 });
    const before = nonceRequests(sandbox);
    await expect(make().tokenize(cardOf(testCards.approved))).resolves.toMatchObject({ last4: '1111' });
    expect(nonceRequests(sandbox) - before).toBe(3);
  });

  it('gives up after `retries` with server_error and the service details', async () => {
    sandbox.injectFault({ method: 'POST', path: /credit-card-nonce$/, kind: 'error', times: 2 });
    const before = nonceRequests(sandbox);
    const error = await rejection(make({ retries: 1 }).tokenize(cardOf(testCards.approved)));
    expect(error).toMatchObject({ code: 'server_error', status: 500, resultCode: '5000', reason: 'INTERNAL_ERROR' });
    expect(nonceRequests(sandbox) - before).toBe(2);
  });

  it('does not retry a 4xx: an unknown merchant is not_found after one request', async () => {
    const before = sandbox.requests().length;
    const error = await rejection(make({ merchantId: 'no-such-merchant' }).tokenize(cardOf(testCards.approved)));
    expect(error).toMatchObject({ code: 'not_found', status: 404, reason: 'NOT_FOUND' });
    expect(
      sandbox
        .requests()
        .slice(before)
        .filter((r) => r.path.includes('no-such-merchant')).length,
    ).toBe(1);
  });

  it('agrees with the service on UnionPay numbers, which carry no check digit', async () => {
    const { last4, brand } = await make().tokenize({ number: '6212345678901231', expireMonth: 12, expireYear: 2034, cvv: '123' });
    expect({ last4, brand }).toEqual({ last4: '1231', brand: 'unionpay' });
  });

  it('stops at the overall timeout', async () => {
    sandbox.injectFault({ method: 'POST', path: /credit-card-nonce$/, kind: 'delay', ms: 3000 });
    const error = await rejection(make({ timeoutMs: 400 }).tokenize(cardOf(testCards.approved)));
    expect(error.code).toBe('timeout');
  });

  it('reports network when nothing listens, after its retries', async () => {
    const closed = await startSandbox();
    const url = closed.url;
    await closed.close();
    const error = await rejection(make({ baseUrl: url, retries: 1 }).tokenize(cardOf(testCards.approved)));
    expect(error.code).toBe('network');
  });
});
