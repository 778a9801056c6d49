import { describe, expect, it } from 'vitest';
import { createClient } from '../../src';
import { createGateway, isApproved, isDeclined, isPending, readSavedCard, readPayment, toPending } from '../../src/server';
import { EUR, fullCard, nonceFor, refusal, testCards, useSandbox } from './helpers';

const ctx = useSandbox();
const auth = (total = '10.00') => ctx.gateway.payments.create({ intent: 'auth', amount: EUR(total), card: fullCard(testCards.approved) });

describe('client token', () => {
  it('mints a bearer token that expires in the future', async () => {
    const token = await ctx.gateway.clientToken();
    expect(token.tokenType).toBe('Bearer');
    expect(token.accessToken.length).toBeGreaterThan(10);
    expect(Date.parse(token.expiresOn)).toBeGreaterThan(Date.parse(token.issuedOn));
    // The body the service's documentation sends: the quoted literal, as application/json.
    const sent = ctx.sandbox
      .requests()
      .filter((r) => r.path.endsWith('/client_token'))
      .at(-1);
    expect(sent?.body).toBe("'grant_type=client_credentials'");
    expect(sent?.headers['content-type']).toBe('application/json');
  });
});

describe('payments', () => {
  it('authorises with a full card, then gets, captures in part, and refunds', async () => {
    const payment = await auth('10.00');
    expect(readPayment(payment)).toMatchObject({ status: 'approved', state: 'authorised', code: '0000' });
    expect(isApproved(payment)).toBe(true);
    expect(payment.payer?.funding_instrument?.credit_card?.last4).toBe('1111');

    const got = await ctx.gateway.payments.get(payment.reference_id);
    expect(got.state).toBe('authorised');

    const capture = await ctx.gateway.payments.capture(payment.reference_id, { amount: EUR('6.00'), invoiceNumber: 'INV-1' });
    expect(capture).toMatchObject({ state: 'captured', reference_id: payment.reference_id });
    expect(capture.transaction?.amount?.total).toBe('6.00');

    const refund = await ctx.gateway.payments.refund(payment.reference_id, { amount: EUR('2.50') });
    expect(refund.state).toBe('refunded');
    expect(refund.transaction?.amount?.total).toBe('2.50');

    const over = await refusal(ctx.gateway.payments.refund(payment.reference_id, { amount: EUR('4.00') }), 'conflict');
    expect(over).toMatchObject({ status: 409, reason: 'REFUND_EXCEEDS_AMOUNT', resultCode: '4095' });
    expect(over.eventId).toMatch(/\S/);

    await ctx.gateway.payments.refund(payment.reference_id);
    expect((await ctx.gateway.payments.get(payment.reference_id)).state).toBe('refunded');
    const again = await refusal(ctx.gateway.payments.refund(payment.reference_id), 'conflict');
    expect(again.reason).toBe('ALREADY_REFUNDED');
  });

  it('sends a regular payment with transaction.type "1", as the service\'s examples do', async () => {
    await auth('1.00');
    const sent = ctx.sandbox
      .requests()
      .filter((r) => r.method === 'POST' && r.path.endsWith('/payment'))
      .at(-1);
    expect((sent?.body as { transaction: { type: unknown } }).transaction.type).toBe('1');
  });

  it("refuses a capture or refund in another currency than the payment's, before posting anything", async () => {
    const omr = await ctx.gateway.payments.create({
      intent: 'auth',
      amount: { currency: 'OMR', total: '10.000' },
      card: fullCard(testCards.approved),
    });
    const posts = () => ctx.sandbox.requests().filter((r) => r.method === 'POST' && r.path.includes(omr.reference_id)).length;
    const capture = await refusal(ctx.gateway.payments.capture(omr.reference_id, { amount: EUR('5.00') }), 'invalid_request');
    expect(capture.message).toBe("amount.currency must be the payment's currency, OMR");
    expect(posts()).toBe(0);
    await ctx.gateway.payments.capture(omr.reference_id, { amount: { currency: 'OMR', total: '8.500' } });
    await refusal(ctx.gateway.payments.refund(omr.reference_id, { amount: EUR('5.00') }), 'invalid_request');
    expect(posts()).toBe(1);
    const refund = await ctx.gateway.payments.refund(omr.reference_id, { amount: { currency: 'OMR', total: '5.000' } });
    expect(refund.transaction?.amount).toEqual({ currency: 'OMR', total: '5.000' });
    // Without an amount there is no currency to check, and no extra read.
    const reads = ctx.sandbox.requests().filter((r) => r.method === 'GET').length;
    await ctx.gateway.payments.refund(omr.reference_id);
    expect(ctx.sandbox.requests().filter((r) => r.method === 'GET').length).toBe(reads);
  });

  it('sells with a nonce, and refuses a void after the capture', async () => {
    const nonce = await nonceFor(ctx, testCards.approved);
    const sale = await ctx.gateway.payments.create({ intent: 'sale', amount: EUR('25.00'), card: { nonce, name: 'A Payer' } });
    expect(sale.state).toBe('captured');
    const error = await refusal(ctx.gateway.payments.void(sale.reference_id), 'conflict');
    expect(error).toMatchObject({ status: 409, reason: 'VOID_NOT_ALLOWED' });
    const reused = await refusal(ctx.gateway.payments.create({ intent: 'sale', amount: EUR('1.00'), card: { nonce } }), 'conflict');
    expect(reused.reason).toBe('NONCE_ALREADY_USED');
  });

  it('voids an authorisation, then refuses to capture it', async () => {
    const payment = await auth();
    const voided = await ctx.gateway.payments.void(payment.reference_id, { invoiceNumber: 'INV-V', custom: { why: 'test' } });
    expect(voided.state).toBe('voided');
    expect(voided.custom).toEqual({ why: 'test' });
    expect((await refusal(ctx.gateway.payments.capture(payment.reference_id), 'conflict')).status).toBe(409);
  });

  it('still reads a voided or cancelled payment as approved: the issuer approved it, state says where it is now', async () => {
    const voided = await auth();
    await ctx.gateway.payments.void(voided.reference_id);
    const lapsed = await auth();
    ctx.sandbox.advanceClock(8 * 24 * 3600_000);
    for (const [payment, state] of [
      [voided, 'voided'],
      [lapsed, 'cancelled'],
    ] as const) {
      const now = await ctx.gateway.payments.get(payment.reference_id);
      expect(readPayment(now)).toMatchObject({ status: 'approved', state });
      expect(isApproved(now)).toBe(true);
      expect(isDeclined(now)).toBe(false);
    }
  });

  it('refuses a capture above the authorisation and a capture after seven days', async () => {
    const payment = await auth('10.00');
    const above = await refusal(ctx.gateway.payments.capture(payment.reference_id, { amount: EUR('10.01') }), 'conflict');
    expect(above.reason).toBe('CAPTURE_EXCEEDS_AMOUNT');
    ctx.sandbox.advanceClock(8 * 24 * 3600_000);
    const late = await refusal(ctx.gateway.payments.capture(payment.reference_id), 'conflict');
    expect(late.reason).toBe('AUTHORISATION_EXPIRED');
    expect((await ctx.gateway.payments.get(payment.reference_id)).state).toBe('cancelled');
  });

  it('returns declined payments, which the readers explain', async () => {
    for (const [card, code, text] of [
      [testCards.declined, '1005', 'Do not honor'],
      [testCards.insufficientFunds, '1051', 'Insufficient funds'],
      [{ ...testCards.approved, expireYear: 2020 }, '1054', 'Expired card'],
    ] as const) {
      const payment = await ctx.gateway.payments.create({ intent: 'sale', amount: EUR('5.00'), card: fullCard(card) });
      expect(readPayment(payment)).toEqual({ status: 'declined', state: 'declined', referenceId: payment.reference_id, code, text });
      expect(isDeclined(payment)).toBe(true);
      expect(isApproved(payment)).toBe(false);
    }
  });

  it('reaches the expired-card row from the server; the browser client refuses it before any request', async () => {
    const expired = await ctx.gateway.payments.create({ intent: 'sale', amount: EUR('5.00'), card: fullCard(testCards.expired) });
    expect(readPayment(expired)).toMatchObject({ status: 'declined', code: '1054', text: 'Expired card' });

    const client = createClient({
      merchantId: ctx.sandbox.merchant.id,
      baseUrl: ctx.sandbox.url,
      authorization: () => ctx.gateway.clientToken(),
    });
    const before = ctx.sandbox.requests().length;
    const { number, expireMonth, expireYear, cvv } = testCards.expired;
    const refused = await refusal(client.tokenize({ number, expireMonth, expireYear, cvv }), 'invalid_card');
    expect(refused.fields).toEqual(['expireMonth', 'expireYear']);
    expect(ctx.sandbox.requests().length).toBe(before);
  });

  it('takes a pending payment through the OTP once; the session then reads as captured', async () => {
    const payment = await ctx.gateway.payments.create({ intent: 'sale', amount: EUR('30.00'), card: fullCard(testCards.otp) });
    const outcome = readPayment(payment);
    if (outcome.status !== 'pending') throw new Error(`expected pending, got ${outcome.status}`);
    expect(outcome.code).toBe('1007');
    expect(outcome.sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(isPending(payment)).toBe(true);

    const done = await ctx.gateway.payments.authenticate({
      authenticateUrl: outcome.authenticateUrl!,
      referenceId: payment.reference_id,
      otp: testCards.otp.otp,
    });
    expect(done.state).toBe('captured');
    expect(done.result.actions?.capture?.state).toBeDefined();
    expect((await ctx.gateway.payments.session(outcome.sessionId!)).state).toBe('captured');

    const second = await refusal(
      ctx.gateway.payments.authenticate({ authenticateUrl: outcome.authenticateUrl!, referenceId: payment.reference_id, otp: '111111' }),
      'conflict',
    );
    expect(second.reason).toBe('SESSION_EXPIRED');
  });

  it('declines on a wrong OTP (1202) and refuses the endpoint for a redirect-only card', async () => {
    const wrong = await ctx.gateway.payments.create({ intent: 'auth', amount: EUR('3.00'), card: fullCard(testCards.otp) });
    const failed = await ctx.gateway.payments.authenticate({
      authenticateUrl: wrong.result.authenticate_url!,
      referenceId: wrong.reference_id,
      otp: '000000',
    });
    expect(readPayment(failed)).toMatchObject({ status: 'declined', code: '1202' });

    const redirect = await ctx.gateway.payments.create({ intent: 'sale', amount: EUR('3.00'), card: fullCard(testCards.redirectOnly) });
    const outcome = readPayment(redirect);
    // The service offers no OTP call for it (no authenticate_url); called anyway, it refuses.
    if (outcome.status !== 'pending') throw new Error(`expected pending, got ${outcome.status}`);
    expect(outcome).toMatchObject({ authenticateUrl: undefined, redirectUrl: expect.stringContaining('/v1/redirect/') });
    const refused = await refusal(
      ctx.gateway.payments.authenticate({
        authenticateUrl: ctx.gateway.authenticateUrl(outcome.sessionId!),
        referenceId: redirect.reference_id,
        otp: '111111',
      }),
      'conflict',
    );
    expect(refused.reason).toBe('AUTHENTICATE_NOT_SUPPORTED');
  });

  it('toPending gives the page the ids, the redirect URL and whether the OTP call is offered, and nothing else', async () => {
    const payment = await ctx.gateway.payments.create({ intent: 'auth', amount: EUR('4.00'), card: fullCard(testCards.otp) });
    const pending = toPending(payment);
    expect(pending).toEqual({
      referenceId: payment.reference_id,
      sessionId: expect.stringMatching(/^[0-9a-f]{32}$/),
      redirectUrl: `${ctx.sandbox.url}/v1/redirect/${pending.sessionId}`,
      otp: true,
    });
    const visa = await ctx.gateway.payments.create({ intent: 'sale', amount: EUR('4.00'), card: fullCard(testCards.redirectOnly) });
    const bankOnly = toPending(visa);
    expect(bankOnly).toEqual({
      referenceId: visa.reference_id,
      sessionId: expect.stringMatching(/^[0-9a-f]{32}$/),
      redirectUrl: visa.result.redirect_url,
      otp: false,
    });
    expect(bankOnly.redirectUrl).toBe(`${ctx.sandbox.url}/v1/redirect/${bankOnly.sessionId}`);
    expect(JSON.stringify(pending)).not.toContain(testCards.otp.number.slice(6));
    const approved = await ctx.gateway.payments.create({ intent: 'sale', amount: EUR('4.00'), card: fullCard(testCards.approved) });
    expect((await refusal(() => toPending(approved), 'invalid_request')).message).toContain('captured');
    const broken = {
      ...payment,
      result: { ...payment.result, redirect_url: undefined, authenticate_url: 'https://x.test/v1/authenticate/abc' },
    };
    await refusal(() => toPending(broken), 'invalid_response');
    const twoSessions = { ...payment, result: { ...payment.result, redirect_url: `${ctx.sandbox.url}/v1/redirect/${'f'.repeat(32)}` } };
    await refusal(() => toPending(twoSessions), 'invalid_response');
  });

  it('maps unknown ids to not_found and wrong credentials to unauthorized', async () => {
    expect((await refusal(ctx.gateway.payments.get('PAY-NOPE'), 'not_found')).status).toBe(404);
    await refusal(ctx.gateway.payments.session('0'.repeat(32)), 'not_found');
    await refusal(ctx.gateway.payers.byId('PAYER-NOPE'), 'not_found');
    const wrong = createGateway({ ...ctx.options, clientSecret: 'wrong-secret-9f3' });
    const error = await refusal(wrong.payments.get('PAY-NOPE'), 'unauthorized');
    expect(error).toMatchObject({ status: 401, reason: 'UNAUTHORIZED' });
    await refusal(wrong.clientToken(), 'unauthorized');
  });

  it('maps a service 400 to invalid_request, keeping the service code and name', async () => {
    const never = await refusal(
      ctx.gateway.payments.create({ intent: 'sale', amount: EUR('1.00'), card: { nonce: '3b241101-e2bb-4255-8caf-4136c566a962' } }),
      'invalid_request',
    );
    expect(never).toMatchObject({ status: 400, reason: 'INVALID_NONCE', resultCode: '5110' });
    const unknownCard = await refusal(
      ctx.gateway.payments.create({ intent: 'auth', amount: EUR('1.00'), card: { savedCardId: 'CARD-NOPE', cvv: '123' } }),
      'not_found',
    );
    expect(unknownCard.status).toBe(404);
  });
});

describe('payers and the vault', () => {
  it('finds the payer and the card kept by an approved payment', async () => {
    const email = `kept-${Date.now()}@example.com`;
    const payment = await ctx.gateway.payments.create({
      intent: 'auth',
      amount: EUR('4.00'),
      card: { ...fullCard(testCards.approved), name: 'Saved Card' },
      storedCredential: { kind: 'first' },
      payer: { email, name: 'Saved Card' },
    });
    const { savedCardId } = readSavedCard(payment);
    expect(savedCardId).toMatch(/\S/);

    const byEmail = await ctx.gateway.payers.byEmail(email);
    expect(byEmail.funding_instrument.credit_cards.map((c) => c.id)).toContain(savedCardId);
    const payerId = byEmail.payer_info.id!;
    expect((await ctx.gateway.payers.byId(payerId)).payer_info.email).toBe(email);
    const cards = await ctx.gateway.payers.cards(payerId);
    expect(cards.count).toBe(cards.credit_cards.length);
    const card = await ctx.gateway.payers.card(payerId, savedCardId!);
    expect(card).toMatchObject({ id: savedCardId, last4: '1111', bin: '411111' });
    expect(JSON.stringify(card)).not.toContain(testCards.approved.number);
    await refusal(ctx.gateway.payers.card(payerId, 'CARD-NOPE'), 'not_found');
    await refusal(ctx.gateway.payers.byEmail(`nobody-${Date.now()}@example.com`), 'not_found');
  });
});
