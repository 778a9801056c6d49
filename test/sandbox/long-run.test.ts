import { describe, expect, it } from 'vitest';
import { testCards } from '../../src/sandbox';
import { MAX_LAPSED, Store } from '../../src/sandbox/model/state';
import { call, cardOf, clientToken, expectRefusal, m, nonceFor, paymentBody, useSandbox } from './helpers';

// What a sandbox keeps over a long test run (docs/service-decisions.md, "What the sandbox keeps").
const DAY = 24 * 3600_000;
const box = useSandbox({
  merchants: [
    { id: 'sandbox-merchant', clientId: 'sandbox-client', clientSecret: 'sandbox-secret' },
    { id: 'other-merchant', clientId: 'other-client', clientSecret: 'other-secret' },
  ],
});
const nonceBody = {
  number: testCards.approved.number,
  expire_month: testCards.approved.expireMonth,
  expire_year: testCards.approved.expireYear,
  cvv2: '123',
};
const payWith = (nonce: string, merchant = m(box.sb), auth?: string) =>
  call(box.sb, 'POST', `${merchant}/payment`, paymentBody({ credit_card_nonce: { nonce } }), auth ? { auth } : {});

describe('tokens and nonces past their lifetime', () => {
  it('are freed when the clock passes it, and still refused with their documented errors', async () => {
    const token = await clientToken(box.sb);
    const unused = await nonceFor(box.sb);
    const used = await nonceFor(box.sb);
    expect((await payWith(used)).status).toBe(200);
    const live = box.sb.sizes();
    expect(live).toMatchObject({ tokens: 3, nonces: 2, lapsedTokens: 0, lapsedNonces: 0 });

    box.sb.advanceClock(DAY - 1000);
    expect(box.sb.sizes()).toMatchObject({ tokens: 3, nonces: 2 });
    box.sb.advanceClock(1000);
    expect(box.sb.sizes()).toMatchObject({ tokens: 0, nonces: 0, lapsedTokens: 3, lapsedNonces: 2 });

    const nonceUrl = `${m(box.sb)}/credit-card-nonce`;
    expectRefusal(await call(box.sb, 'POST', nonceUrl, nonceBody, { auth: `Bearer ${token}` }), 401, 'EXPIRED_CLIENT_TOKEN');
    expectRefusal(await call(box.sb, 'POST', nonceUrl, nonceBody, { auth: 'Bearer never-issued' }), 401, 'INVALID_CLIENT_TOKEN');
    expectRefusal(await payWith(unused), 409, 'NONCE_EXPIRED');
    expectRefusal(await payWith(used), 409, 'NONCE_ALREADY_USED');
    expectRefusal(await payWith('00000000-0000-4000-8000-000000000000'), 400, 'INVALID_NONCE');
    // Another merchant's nonce is no nonce of this one, live or lapsed.
    const other = `Basic ${Buffer.from('other-client:other-secret').toString('base64')}`;
    expectRefusal(await payWith(unused, '/v1/merchants/other-merchant', other), 400, 'INVALID_NONCE');
    // A fresh token and nonce still pay.
    expect((await payWith(await nonceFor(box.sb))).status).toBe(200);
  });
});

describe('tombstones', () => {
  it('keep the newest MAX_LAPSED of each kind: an older one is forgotten', () => {
    const store = new Store();
    for (let i = 0; i <= MAX_LAPSED; i++) store.nonces.set(`n${i}`, { merchantId: 'm', card: undefined, expiresAt: i, used: true });
    store.tokens.set('t', { merchantId: 'm', expiresAt: 5 });
    store.sweep(MAX_LAPSED);
    expect([store.nonces.size, store.lapsedNonces.size, store.lapsedTokens.size]).toEqual([0, MAX_LAPSED, 1]);
    expect(store.nonce('n0')).toBeUndefined();
    expect(store.nonce('n1')).toMatchObject({ merchantId: 'm', used: true });
    expect(store.token('t')).toMatchObject({ merchantId: 'm' });
  });

  it('a sweep stops at the first record still alive', () => {
    const store = new Store();
    for (const [id, expiresAt] of [
      ['a', 10],
      ['b', 20],
      ['c', 30],
    ] as const)
      store.nonces.set(id, {
        merchantId: 'm',
        card: { number: '4111111111111111', expireMonth: 1, expireYear: 2040 },
        expiresAt,
        used: false,
      });
    store.sweep(20);
    expect([...store.nonces.keys()]).toEqual(['c']);
    expect(store.nonce('b')).toMatchObject({ card: undefined, used: false });
  });
});

describe('payers found by email', () => {
  const create = (email: string) =>
    call(box.sb, 'POST', `${m(box.sb)}/payment`, {
      ...paymentBody({ credit_card: cardOf(testCards.approved) }),
      payer: { ...paymentBody({ credit_card: cardOf(testCards.approved) }).payer, payer_info: { email } },
    });
  const lookup = (email: string) => call(box.sb, 'GET', `${m(box.sb)}/payer?email=${encodeURIComponent(email)}`);

  it('match whatever the case, and follow a change of email', async () => {
    const first = (await create('Index.Me@Example.com')).body.payer.payer_info.id;
    expect((await create('index.me@example.COM')).body.payer.payer_info.id).toBe(first);
    expect((await lookup('INDEX.ME@EXAMPLE.COM')).body.payer_info).toMatchObject({ id: first, email: 'Index.Me@Example.com' });

    expect((await call(box.sb, 'PUT', `${m(box.sb)}/payer/${first}`, { email: 'moved@example.com' })).status).toBe(200);
    expectRefusal(await lookup('index.me@example.com'), 404, 'NOT_FOUND');
    expect((await lookup('Moved@Example.com')).body.payer_info.id).toBe(first);
    // The old email is free: a payment naming it keeps its card under a new payer.
    const second = (await create('index.me@example.com')).body.payer.payer_info.id;
    expect(second).not.toBe(first);
    expect((await lookup('index.me@example.com')).body.payer_info.id).toBe(second);
    // A payer may take its own email in another case; not another payer's.
    expect((await call(box.sb, 'PUT', `${m(box.sb)}/payer/${first}`, { email: 'MOVED@example.com' })).status).toBe(200);
    expect((await lookup('moved@example.com')).body.payer_info).toMatchObject({ id: first, email: 'MOVED@example.com' });
    expectRefusal(await call(box.sb, 'PUT', `${m(box.sb)}/payer/${second}`, { email: 'moved@EXAMPLE.com' }), 400, 'INVALID_REQUEST');
    // Another merchant's vault is another vault.
    const other = `Basic ${Buffer.from('other-client:other-secret').toString('base64')}`;
    expectRefusal(
      await call(box.sb, 'GET', `/v1/merchants/other-merchant/payer?email=moved%40example.com`, undefined, { auth: other }),
      404,
      'NOT_FOUND',
    );
  });
});
