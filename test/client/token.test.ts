import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src';
import { tokenProvider } from '../../src/client/core/token';
import { createGateway } from '../../src/server';
import { type SandboxHandle, startSandbox, testCards } from '../setup/sandbox';
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
    return shape === 'string' ? minted.accessToken : { clientToken: minted.accessToken, expiresAt: expiresOn?.() ?? minted.expiresOn };
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

  it('accepts { clientToken, expiresAt } and fetches again when the token is near its expiry', async () => {
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
    const before = nonceRequests(sandbox);
    const error = await rejection(client.tokenize(cardOf(testCards.approved)));
    expect(error).toMatchObject({ code: 'unauthorized', status: 401, reason: 'INVALID_CLIENT_TOKEN', resultCode: '5080' });
    expect([calls, nonceRequests(sandbox) - before]).toEqual([2, 2]);
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

// Issue 12, defect 1: one authorization() call that never settles must not break the client for good.
describe('a token fetch that never settles', () => {
  /** Never settles on its first call; later calls answer `token-N`. */
  function stallsOnce() {
    const fn = () => {
      fn.calls++;
      return fn.calls === 1 ? new Promise<string>(() => undefined) : Promise.resolve(`token-${fn.calls}`);
    };
    fn.calls = 0;
    return fn;
  }

  it('is given up when the caller gives up, and the next call asks the merchant again', async () => {
    const authorization = stallsOnce();
    const tokens = tokenProvider(authorization);
    const stalled = await rejection(tokens.get(AbortSignal.timeout(50)));
    expect(stalled.name).toBe('TimeoutError');
    await expect(tokens.get(AbortSignal.timeout(1000))).resolves.toBe('token-2');
    expect(authorization.calls).toBe(2);
  });

  it('is still shared while one caller waits: a caller that gives up does not cost the others a fetch', async () => {
    let release!: (token: string) => void;
    let calls = 0;
    const tokens = tokenProvider(() => (calls++, new Promise<string>((resolve) => (release = resolve))));
    const quitter = new AbortController();
    const first = tokens.get(quitter.signal);
    const second = tokens.get(AbortSignal.timeout(1000));
    quitter.abort();
    await expect(first).rejects.toBeDefined();
    release('token-1');
    await expect(second).resolves.toBe('token-1');
    expect(calls).toBe(1);
  });

  it('is not joined once older than staleAfterMs: a later caller asks again, even while a caller without a signal waits', async () => {
    const authorization = stallsOnce();
    const tokens = tokenProvider(authorization, 50);
    let first: string | undefined;
    void tokens.get().then((token) => (first = token));
    await new Promise((resolve) => setTimeout(resolve, 60));
    await expect(tokens.get()).resolves.toBe('token-2');
    expect(authorization.calls).toBe(2);
    expect(first).toBeUndefined(); // bounded by its own caller's deadline, as the client's request does
  });

  it('is joined while young: callers at the same time share one fetch', async () => {
    let calls = 0;
    const tokens = tokenProvider(() => (calls++, new Promise<string>((resolve) => setTimeout(() => resolve('t'), 30))));
    await expect(Promise.all([tokens.get(), tokens.get(), tokens.get(AbortSignal.timeout(1000))])).resolves.toEqual(['t', 't', 't']);
    expect(calls).toBe(1);
  });

  it('ignores the late answer of a fetch it gave up on', async () => {
    let calls = 0;
    const releases: ((token: string) => void)[] = [];
    const tokens = tokenProvider(() => (calls++, new Promise<string>((resolve) => releases.push(resolve))));
    await rejection(tokens.get(AbortSignal.timeout(20)));
    const fresh = tokens.get(AbortSignal.timeout(1000));
    await new Promise((resolve) => setTimeout(resolve, 0)); // the function is called on the next tick
    releases[1]!('token-fresh');
    await expect(fresh).resolves.toBe('token-fresh');
    releases[0]!('token-late');
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(tokens.get()).resolves.toBe('token-fresh');
    expect(calls).toBe(2);
  });

  it('through the client: after a stalled fetch timed out, the next tokenize asks again and succeeds', async () => {
    let calls = 0;
    const client = createClient({
      merchantId: sandbox.merchant.id,
      baseUrl: sandbox.url,
      authorization: () => (++calls === 1 ? new Promise<string>(() => undefined) : mintToken(sandbox).then((t) => t.accessToken)),
      timeoutMs: 3000,
    });
    // The call's deadline ends its wait for the token, and the fetch it alone waited on is dropped: the
    // next call asks again, though the stalled fetch is younger than the 15 s after which any is. The
    // second call's mint and nonce must fit in the same 3 s: ample on loopback, even on busy cores.
    const first = await rejection(client.tokenize(cardOf(testCards.approved)));
    expect(first.code).toBe('timeout');
    await new Promise((resolve) => setTimeout(resolve, 100)); // the person reads the error, and clicks again
    await expect(client.tokenize(cardOf(testCards.approved))).resolves.toMatchObject({ last4: '1111' });
    expect(calls).toBe(2);
  });
});

// Issue 7, item 2: the obvious wirings work, and a merchant-server error is reported as what it is.
describe('what the authorization function may answer', () => {
  const gatewayOf = (clientSecret = sandbox.merchant.clientSecret) =>
    createGateway({ merchantId: sandbox.merchant.id, clientId: sandbox.merchant.clientId, clientSecret, baseUrl: sandbox.url });

  it("takes the service's client-token object as gateway.clientToken() returns it", async () => {
    const gateway = gatewayOf();
    const client = make(() => gateway.clientToken());
    await expect(client.tokenize(cardOf(testCards.approved))).resolves.toMatchObject({ last4: '1111' });
  });

  it("takes { clientToken, expiresAt } as the handler answers it, read the README's way", async () => {
    const handler = gatewayOf().handlers.clientToken();
    const client = make(() => handler(new Request('https://shop.example/client-token', { method: 'POST' })).then((r) => r.json()));
    await expect(client.tokenize(cardOf(testCards.approved))).resolves.toMatchObject({ last4: '1111' });
  });

  it("reports the handler's 502 (its gateway has a wrong secret) as the merchant server's error, not invalid_config", async () => {
    const handler = gatewayOf('not-the-secret').handlers.clientToken();
    const client = make(() => handler(new Request('https://shop.example/client-token', { method: 'POST' })).then((r) => r.json()));
    const before = nonceRequests(sandbox);
    const error = await rejection(client.tokenize(cardOf(testCards.approved)));
    expect(error).toMatchObject({ code: 'unauthorized', reason: 'unauthorized' });
    // The handler's 502 keeps the code but not the service's text (a failure between the merchant and the service).
    expect(error.message).toMatch(/^the merchant's server answered an error instead of a client token: /);
    expect(error.message).not.toMatch(/UNAUTHORIZED|Basic|credential/i);
    expect(nonceRequests(sandbox)).toBe(before);
  });

  it('reports an outage behind the merchant server as server_error, and an unknown error code as server_error', async () => {
    const handler = gatewayOf().handlers.clientToken();
    sandbox.injectFault({ kind: 'error', method: 'POST', path: `/v1/merchants/${sandbox.merchant.id}/client_token` });
    const outage = make(() => handler(new Request('https://shop.example/t', { method: 'POST' })).then((r) => r.json()));
    expect(await rejection(outage.tokenize(cardOf(testCards.approved)))).toMatchObject({ code: 'server_error' });
    const odd = make(async () => ({ error: { code: 'kaput', message: 'disk full' } }) as never);
    expect(await rejection(odd.tokenize(cardOf(testCards.approved)))).toMatchObject({ code: 'server_error', reason: 'kaput' });
    const bare = make(async () => ({ error: 'Internal Server Error' }) as never);
    expect(await rejection(bare.tokenize(cardOf(testCards.approved)))).toMatchObject({ code: 'server_error' });
  });
});

describe('a caller that has already given up', () => {
  it('starts no fetch', async () => {
    let calls = 0;
    const tokens = tokenProvider(async () => (calls++, 'token'));
    await rejection(tokens.get(AbortSignal.abort()));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls).toBe(0);
    await expect(tokens.get()).resolves.toBe('token');
    expect(calls).toBe(1);
  });
});
