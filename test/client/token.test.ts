import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src';
import { type SandboxHandle, startSandbox, testCards } from '../../src/sandbox';
import { cardOf, mintToken, nonceRequests, rejection } from './helpers';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

const DAY = 24 * 3600_000;

/** An authorization function like a merchant page's: asks the merchant's server, counts the calls. */
function counting(shape: 'string' | 'grant', expiresOn?: () => string) {
  const fn = async () => {
    fn.calls++;
    const minted = await mintToken(sandbox);
    return shape === 'string' ? minted.accessToken : { clientToken: minted.accessToken, expiresOn: expiresOn?.() ?? minted.expiresOn };
  };
  fn.calls = 0;
  return fn;
}

const make = (authorization: Parameters<typeof createClient>[0]['authorization']) =>
  createClient({ merchantId: sandbox.merchant.id, authorization, baseUrl: sandbox.url });

describe('client token', () => {
  it('is fetched lazily: creating a client asks for nothing', async () => {
    const fetchToken = counting('string');
    const before = sandbox.requests().length;
    const client = make(fetchToken);
    expect(fetchToken.calls).toBe(0);
    expect(sandbox.requests().length).toBe(before);
    await client.tokenize(cardOf(testCards.approved));
    expect(fetchToken.calls).toBe(1);
  });

  it('is reused across calls, and one fetch serves concurrent calls', async () => {
    const fetchToken = counting('grant');
    const client = make(fetchToken);
    await Promise.all([client.tokenize(cardOf(testCards.approved)), client.tokenize(cardOf(testCards.declined))]);
    await client.tokenize(cardOf(testCards.otp));
    expect(fetchToken.calls).toBe(1);
  });

  it('accepts { clientToken, expiresOn } and fetches again when the token is near its expiry', async () => {
    const fetchToken = counting('grant', () => new Date(Date.now() + 30_000).toISOString());
    const client = make(fetchToken);
    await client.tokenize(cardOf(testCards.approved));
    await client.tokenize(cardOf(testCards.approved));
    expect(fetchToken.calls).toBe(2);
  });

  it('is fetched again after the service refuses it as expired, and the call succeeds', async () => {
    const fetchToken = counting('string');
    const client = make(fetchToken);
    await client.tokenize(cardOf(testCards.approved));
    sandbox.advanceClock(DAY + 60_000);
    const before = nonceRequests(sandbox);
    const result = await client.tokenize(cardOf(testCards.approved));
    expect(result.last4).toBe('1111');
    expect(fetchToken.calls).toBe(2);
    expect(nonceRequests(sandbox) - before).toBe(2);
  });

  it('fetches once for two calls refused at the same time, and both succeed', async () => {
    const fetchToken = counting('string');
    const client = make(fetchToken);
    await client.tokenize(cardOf(testCards.approved));
    sandbox.advanceClock(DAY + 60_000);
    const before = nonceRequests(sandbox);
    const [a, b] = await Promise.all([client.tokenize(cardOf(testCards.approved)), client.tokenize(cardOf(testCards.declined))]);
    expect([a.last4, b.last4]).toEqual(['1111', '0002']);
    expect(fetchToken.calls).toBe(2);
    expect(nonceRequests(sandbox) - before).toBe(4);
  });

  it('fetches again only once: a function that keeps giving a refused token ends unauthorized', async () => {
    let calls = 0;
    const client = make(async () => {
      calls++;
      return 'not-a-token-the-sandbox-issued';
    });
    const error = await rejection(client.tokenize(cardOf(testCards.approved)));
    expect(error).toMatchObject({ code: 'unauthorized', status: 401, reason: 'INVALID_CLIENT_TOKEN', resultCode: '5080' });
    expect(calls).toBe(2);
  });

  it('never refetches a string token: an expired one is unauthorized, and the error does not hold it', async () => {
    const { accessToken } = await mintToken(sandbox);
    const client = make(accessToken);
    sandbox.advanceClock(DAY + 60_000);
    const before = nonceRequests(sandbox);
    const error = await rejection(client.tokenize(cardOf(testCards.approved)));
    expect(error).toMatchObject({ code: 'unauthorized', status: 401, reason: 'EXPIRED_CLIENT_TOKEN', resultCode: '5081' });
    expect(error.eventId).toMatch(/\S/);
    expect(nonceRequests(sandbox) - before).toBe(1);
    expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(accessToken);
  });

  it('turns a failing authorization function into an unauthorized PayframeError, and tries again next time', async () => {
    let fail = true;
    const client = make(async () => {
      if (fail) throw new Error('merchant server down');
      return (await mintToken(sandbox)).accessToken;
    });
    const error = await rejection(client.tokenize(cardOf(testCards.approved)));
    expect(error.code).toBe('unauthorized');
    fail = false;
    await expect(client.tokenize(cardOf(testCards.approved))).resolves.toMatchObject({ last4: '1111' });
  });

  it('refuses a function that resolves to something that is not a token', async () => {
    const client = make(async () => ({ token: 'x' }) as any);
    const error = await rejection(client.tokenize(cardOf(testCards.approved)));
    expect(error.code).toBe('invalid_config');
  });

  it('refuses a token a header cannot carry, without quoting it anywhere', async () => {
    const secretish = 'abc\ndefTOKENTEXT';
    const error = await rejection(make(async () => secretish).tokenize(cardOf(testCards.approved)));
    expect(error.code).toBe('invalid_config');
    expect(inspect(error, { depth: 8 })).not.toContain('TOKENTEXT');
  });
});
