import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, isPayframeError } from '../../src';
import { type SandboxHandle, startSandbox, testCards } from '../setup/sandbox';
import { cardOf, mintToken, nonceRequests, payWithNonce, rejection } from './helpers';

let sandbox: SandboxHandle;
let token: string;
const client = () => createClient({ merchantId: sandbox.merchant.id, authorization: token, baseUrl: sandbox.url });

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  token = (await mintToken(sandbox)).accessToken;
});

describe('tokenize', () => {
  it.each([
    ['approved', 'visa', '1111'],
    ['declined', 'visa', '0002'],
    ['insufficientFunds', 'mastercard', '5100'],
    ['otp', 'visa', '1836'],
    ['redirectOnly', 'visa', '9996'],
  ] as const)('turns the %s test card into a nonce with brand %s and last four %s', async (name, brand, last4) => {
    const result = await client().tokenize(cardOf(testCards[name]));
    expect(result).toMatchObject({ brand, last4, expireMonth: 12, expireYear: 2034 });
    expect(result.nonce).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    expect(Date.parse(result.expiresAt)).toBeGreaterThan(Date.now());
    expect(JSON.stringify(result)).not.toContain(testCards[name].number);
  });

  it('gives a nonce that pays a sale, once', async () => {
    const { nonce } = await client().tokenize(cardOf(testCards.approved));
    const paid = await payWithNonce(sandbox, nonce);
    expect(paid.status).toBe(200);
    expect(paid.body.state).toBe('captured');
    expect(paid.body.payer.funding_instrument.credit_card.last4).toBe('1111');
    const again = await payWithNonce(sandbox, nonce);
    expect(again.body.name).toBe('NONCE_ALREADY_USED');
  });

  it('gives a nonce of the declined card that comes back declined', async () => {
    const { nonce } = await client().tokenize(cardOf(testCards.declined));
    const paid = await payWithNonce(sandbox, nonce);
    expect(paid.body.state).toBe('declined');
    expect(paid.body.result.code).toBe('1005');
  });

  it('sends digits only and integers, and reads a two-digit year as 20YY', async () => {
    const result = await client().tokenize({
      number: '4111 1111-1111 1111',
      expireMonth: '03',
      expireYear: '34',
      cvv: '123',
      name: 'Ada L',
    });
    expect(result).toMatchObject({ expireMonth: 3, expireYear: 2034, last4: '1111', name: 'Ada L' });
    const sent = sandbox
      .requests()
      .filter((r) => r.path.endsWith('/credit-card-nonce'))
      .at(-1)!;
    expect(sent.body).toEqual({ number: '****1111', expire_month: 3, expire_year: 2034, cvv2: '***' });
    expect(sent.headers.authorization).toBe('Bearer [redacted]');
  });

  it('takes a four-digit CVV for American Express', async () => {
    const result = await client().tokenize({ number: '378282246310005', expireMonth: 12, expireYear: 2034, cvv: '1234' });
    expect(result).toMatchObject({ brand: 'american-express', last4: '0005' });
  });
});

describe('local validation', () => {
  it.each([
    [{ number: '4111111111111112', expireMonth: 12, expireYear: 2034, cvv: '12' }, ['number', 'cvv']],
    [{ number: '4111111111111111', expireMonth: 13, expireYear: 2034, cvv: '123' }, ['expireMonth']],
    [{ number: '4111111111111111', expireMonth: 1, expireYear: 2020, cvv: '123' }, ['expireMonth', 'expireYear']],
    [{ number: '4111111111111111', expireMonth: 12, expireYear: '20x4', cvv: '123' }, ['expireYear']],
    [{ number: '378282246310005', expireMonth: 12, expireYear: 2034, cvv: '123' }, ['cvv']],
    [{ number: '4111111111111111', expireMonth: 12, expireYear: 2034, cvv: '1234' }, ['cvv']],
    [{ number: '4111 1111 1111', expireMonth: 12, expireYear: 2034, cvv: '123' }, ['number']],
    [{ number: '', expireMonth: '', expireYear: '', cvv: '' }, ['number', 'expireMonth', 'expireYear', 'cvv']],
  ])('refuses %j naming %j, sending nothing', async (card, fields) => {
    const before = sandbox.requests().length;
    const error = await rejection(client().tokenize(card as any));
    expect(isPayframeError(error)).toBe(true);
    expect(error.code).toBe('invalid_card');
    expect(error.fields).toEqual(fields);
    expect(sandbox.requests().length).toBe(before);
  });

  it('never puts the card number or CVV in the error', async () => {
    const error = await rejection(client().tokenize({ number: '4111111111111112', expireMonth: 12, expireYear: 2034, cvv: '98' }));
    const shown = `${error.message} ${JSON.stringify(error)} ${String(error.stack)}`;
    expect(shown).not.toContain('4111111111111112');
    expect(shown).not.toMatch(/\b98\b/);
  });

  it('refuses a card of no known brand before sending it', async () => {
    const before = nonceRequests(sandbox);
    const error = await rejection(client().tokenize({ number: '9999999999999995', expireMonth: 12, expireYear: 2034, cvv: '123' }));
    expect(error.fields).toEqual(['number']);
    expect(nonceRequests(sandbox)).toBe(before);
  });
});

describe('double submit', () => {
  it('shares one request between identical calls in flight', async () => {
    const c = client();
    const before = nonceRequests(sandbox);
    const [a, b] = await Promise.all([c.tokenize(cardOf(testCards.approved)), c.tokenize(cardOf(testCards.approved))]);
    expect(a.nonce).toBe(b.nonce);
    expect(nonceRequests(sandbox) - before).toBe(1);
  });

  it('sends again once the first call has settled, and separately for different cards', async () => {
    const c = client();
    const before = nonceRequests(sandbox);
    const first = await c.tokenize(cardOf(testCards.approved));
    const [second, other] = await Promise.all([c.tokenize(cardOf(testCards.approved)), c.tokenize(cardOf(testCards.declined))]);
    expect(new Set([first.nonce, second.nonce, other.nonce]).size).toBe(3);
    expect(nonceRequests(sandbox) - before).toBe(3);
  });
});
