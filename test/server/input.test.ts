import { describe, expect, it } from 'vitest';
import { createGateway, type PaymentInput } from '../../src/server';
import { CVV, EUR, fullCard, refusal, testCards, useSandbox } from './helpers';

// Wrong inputs are TYPE errors (tsc checks the @ts-expect-error lines) and, for JavaScript callers,
// invalid_request refusals before anything reaches the service.
const ctx = useSandbox();
const nonce = '3b241101-e2bb-4255-8caf-4136c566a962';
const card = fullCard(testCards.approved);
const previous = { kind: 'scheduled', previousPaymentId: 'PAY-1' } as const;

async function refusedLocally(input: PaymentInput, message: RegExp) {
  const before = ctx.sandbox.requests().length;
  const error = await refusal(ctx.gateway.payments.create(input), 'invalid_request');
  expect(error.message).toMatch(message);
  expect(error.status).toBeUndefined();
  expect(ctx.sandbox.requests().length).toBe(before);
}

describe('a full card takes the forms client.tokenize takes', () => {
  it('accepts a month and year as numbers or digits, a two-digit year as 20YY', async () => {
    for (const [expireMonth, expireYear] of [
      [12, 34],
      ['1', 2034],
      [12, '34'],
      ['01', '2034'],
      [1, '2034'],
    ] as const) {
      const payment = await ctx.gateway.payments.create({
        intent: 'sale',
        amount: EUR('1.00'),
        card: { ...card, expireMonth, expireYear },
      });
      expect(payment.state, `${expireMonth}/${expireYear}`).toBe('captured');
      expect(ctx.sandbox.requests().at(-1)?.body).toMatchObject({
        payer: { funding_instrument: { credit_card: { expire_month: Number(expireMonth), expire_year: 2034 } } },
      });
    }
  });

  it("refuses a bad month, year or CVV under the input's own name, before any request", async () => {
    for (const expireMonth of [0, 13, '1a', 1.5, ''])
      await refusedLocally({ intent: 'sale', amount: EUR('1.00'), card: { ...card, expireMonth } }, /^card\.expireMonth must be a month/);
    for (const expireYear of [1999, '134', 'yy', 2034.5, 10000])
      await refusedLocally({ intent: 'sale', amount: EUR('1.00'), card: { ...card, expireYear } }, /^card\.expireYear must be a year/);
    for (const cvv of ['12', '12345', '12a'])
      await refusedLocally({ intent: 'sale', amount: EUR('1.00'), card: { ...card, cvv } }, /^card\.cvv must be 3 or 4 digits$/);
    await refusedLocally(
      { intent: 'sale', amount: EUR('1.00'), card: { savedCardId: 'CARD-1', cvv: '1' } },
      /^card\.cvv must be 3 or 4 digits$/,
    );
  });
});

describe('impossible payment inputs', () => {
  it('refuses a nonce on a merchant-initiated or cardholder stored payment', async () => {
    await refusedLocally(
      // @ts-expect-error a nonce cannot pay a scheduled payment
      { intent: 'sale', amount: EUR('1.00'), card: { nonce }, storedCredential: previous },
      /nonce cannot pay a scheduled/,
    );
    await refusedLocally(
      // @ts-expect-error nor an unscheduled one
      { intent: 'sale', amount: EUR('1.00'), card: { nonce }, storedCredential: { kind: 'unscheduled', previousPaymentId: 'P' } },
      /nonce cannot/,
    );
    await refusedLocally(
      // @ts-expect-error nor a cardholder payment on a saved card
      { intent: 'sale', amount: EUR('1.00'), card: { nonce }, storedCredential: { kind: 'cardholder' } },
      /nonce cannot/,
    );
  });

  it('refuses a cardholder payment on a saved card without the CVV', async () => {
    await refusedLocally(
      // @ts-expect-error the saved card needs the re-entered CVV
      { intent: 'sale', amount: EUR('1.00'), card: { savedCardId: 'C' }, storedCredential: { kind: 'cardholder' } },
      /CVV/,
    );
    // @ts-expect-error also when storedCredential is left out (a saved card is then cardholder-started)
    await refusedLocally({ intent: 'sale', amount: EUR('1.00'), card: { savedCardId: 'C' } }, /CVV/);
    const { cvv: _, ...noCvv } = card;
    // @ts-expect-error a kept full card too
    await refusedLocally({ intent: 'sale', amount: EUR('1.00'), card: noCvv, storedCredential: { kind: 'cardholder' } }, /CVV/);
  });

  it('refuses a saved card as a first payment, mixed card forms, and a missing previous payment id', async () => {
    await refusedLocally(
      // @ts-expect-error a saved card is already kept
      { intent: 'sale', amount: EUR('1.00'), card: { savedCardId: 'C', cvv: CVV }, storedCredential: { kind: 'first' } },
      /saved card/,
    );
    // @ts-expect-error two card forms at once
    await refusedLocally({ intent: 'sale', amount: EUR('1.00'), card: { ...card, nonce } }, /exactly one/);
    // @ts-expect-error no card at all
    await refusedLocally({ intent: 'sale', amount: EUR('1.00') }, /exactly one/);
    // @ts-expect-error scheduled needs previousPaymentId
    await refusedLocally({ intent: 'sale', amount: EUR('1.00'), card, storedCredential: { kind: 'scheduled' } }, /previousPaymentId/);
    // @ts-expect-error unknown kind
    await refusedLocally({ intent: 'sale', amount: EUR('1.00'), card, storedCredential: { kind: 'later' } }, /storedCredential.kind/);
    await refusedLocally({ intent: 'sale', amount: EUR('1.00'), card: { ...card, number: '4111111111111112' } }, /check digit/);
    // A stored credential without a known kind is not quietly sent as a plain cardholder payment.
    await refusedLocally(
      // @ts-expect-error kind is required
      { intent: 'sale', amount: EUR('1.00'), card, storedCredential: { type: 'scheduled', previousPaymentId: 'PAY-1' } },
      /storedCredential.kind/,
    );
    // @ts-expect-error a stored credential is an object
    await refusedLocally({ intent: 'sale', amount: EUR('1.00'), card, storedCredential: 'scheduled' }, /storedCredential.kind/);
    // @ts-expect-error intent is auth or sale
    await refusedLocally({ intent: 'order', amount: EUR('1.00'), card }, /intent/);
  });

  it('refuses floats, negatives, empty and over-precise amounts', async () => {
    // @ts-expect-error a number is not an amount
    await refusedLocally({ intent: 'sale', amount: { currency: 'EUR', total: 10.5 }, card }, /decimal string/);
    await refusedLocally({ intent: 'sale', amount: EUR('-1.00'), card }, /positive decimal/);
    await refusedLocally({ intent: 'sale', amount: EUR(''), card }, /positive decimal/);
    await refusedLocally({ intent: 'sale', amount: EUR('0.00'), card }, /above zero/);
    await refusedLocally({ intent: 'sale', amount: EUR('1.001'), card }, /3 decimals; EUR allows 2/);
    await refusedLocally(
      { intent: 'sale', amount: { currency: 'JPY', total: '100.5' }, card },
      /^amount\.total has 1 decimal; JPY allows 0$/,
    );
    // The field that is wrong is the one named.
    await refusedLocally(
      { intent: 'sale', amount: { currency: 'eur', total: '1.00' }, card },
      /^amount\.currency must be a three-letter upper-case ISO 4217 code$/,
    );
    // @ts-expect-error the amount is required
    await refusedLocally({ intent: 'sale', card }, /decimal string/);
  });

  it('refuses bad capture and refund amounts, and unsafe ids, before any request', async () => {
    const before = ctx.sandbox.requests().length;
    // @ts-expect-error amounts are { currency, total } with a string total
    await refusal(ctx.gateway.payments.capture('PAY-1', { amount: { currency: 'EUR', total: 5 } }), 'invalid_request');
    await refusal(ctx.gateway.payments.capture('PAY-1', { amount: EUR('-5.00') }), 'invalid_request');
    await refusal(ctx.gateway.payments.refund('PAY-1', { amount: { currency: 'OMR', total: '1.0005' } }), 'invalid_request');
    await refusal(ctx.gateway.payments.refund('PAY-1', { amount: EUR('') }), 'invalid_request');
    await refusal(ctx.gateway.payments.get('..'), 'invalid_request');
    await refusal(ctx.gateway.payments.get(''), 'invalid_request');
    await refusal(ctx.gateway.payers.byEmail('not-an-email'), 'invalid_request');
    const authenticateUrl = ctx.gateway.authenticateUrl('abc');
    await refusal(ctx.gateway.payments.authenticate({ authenticateUrl, referenceId: 'PAY-1', otp: 'x' }), 'invalid_request');
    // @ts-expect-error custom is an object
    await refusal(ctx.gateway.payments.void('PAY-1', { custom: 'x' }), 'invalid_request');
    expect(ctx.sandbox.requests().length).toBe(before);
  });

  it('refuses custom or metadata that cannot be written as JSON with a PayframeError, sending nothing', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await refusedLocally({ intent: 'sale', amount: EUR('1.00'), card, custom: { big: 10n } }, /JSON/);
    await refusedLocally({ intent: 'sale', amount: EUR('1.00'), card, metadata: circular }, /JSON/);
    const before = ctx.sandbox.requests().length;
    await refusal(ctx.gateway.payments.refund('PAY-1', { custom: circular }), 'invalid_request');
    expect(ctx.sandbox.requests().length).toBe(before);
  });

  it('accepts a three-decimal currency amount and sends ids encoded', async () => {
    const payment = await ctx.gateway.payments.create({ intent: 'auth', amount: { currency: 'OMR', total: '1.250' }, card });
    expect(payment.transaction?.amount).toMatchObject({ currency: 'OMR', total: '1.250' });
    await refusal(ctx.gateway.payments.get('a/b?c'), 'not_found');
    expect(ctx.sandbox.requests().at(-1)?.path).toMatch(/\/payment\/a%2Fb%3Fc$/);
  });
});

describe('configuration', () => {
  it('refuses a base URL that is not https, and missing credentials', async () => {
    const base = { merchantId: 'm', clientId: 'c', clientSecret: 's' };
    await refusal(() => createGateway({ ...base, baseUrl: 'http://api.example.com' }), 'invalid_config');
    await refusal(() => createGateway({ ...base, baseUrl: 'not a url' }), 'invalid_config');
    await refusal(() => createGateway({ ...base, clientSecret: '', baseUrl: ctx.sandbox.url }), 'invalid_config');
    // @ts-expect-error the merchant id is required
    await refusal(() => createGateway({ clientId: 'c', clientSecret: 's', baseUrl: ctx.sandbox.url }), 'invalid_config');
  });

  it('refuses a timeout or retry setting that cannot work, at createGateway and not at every call', async () => {
    const before = ctx.sandbox.requests().length;
    for (const bad of [
      { timeoutMs: 0 },
      { timeoutMs: -1 },
      { timeoutMs: Number.NaN },
      { timeoutMs: 1e10 },
      { timeoutMs: '5000' as never },
      { retries: -1 },
      { retries: 1.5 },
      { retries: Number.POSITIVE_INFINITY },
    ]) {
      await refusal(() => createGateway({ ...ctx.options, ...bad }), 'invalid_config');
    }
    expect(ctx.sandbox.requests().length).toBe(before);
  });

  it('sends Basic credentials encoded from UTF-8, through a custom fetch', async () => {
    const sent: string[] = [];
    const gateway = createGateway({
      ...ctx.options,
      clientSecret: 'sécret-ü',
      fetch: async (input, init) => {
        const request = new Request(input, init);
        sent.push(request.headers.get('authorization') ?? '');
        return fetch(request);
      },
    });
    await refusal(gateway.payments.get('PAY-1'), 'unauthorized');
    expect(sent).toHaveLength(1);
    const bytes = Uint8Array.from(atob(sent[0]!.replace(/^Basic /, '')), (c) => c.charCodeAt(0));
    expect(new TextDecoder().decode(bytes)).toBe(`${ctx.options.clientId}:sécret-ü`);
  });
});
