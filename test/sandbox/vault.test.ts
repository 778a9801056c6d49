import { describe, expect, it } from 'vitest';
import { startSandbox, testCards } from '../setup/sandbox';
import { call, cardOf, expectRefusal, m, nonceFor, pay, paymentBody, useSandbox } from './helpers';

const box = useSandbox();
const create = (body: unknown) => call(box.sb, 'POST', `${m(box.sb)}/payment`, body);
const payer = (email: string) => ({
  payer_info: { email, name: 'Grace Hopper', billing_address: { line1: '1 Main St', country_code: 'om' } },
});

/** A payment body with our own payer_info. */
function body(funding: Record<string, unknown>, email: string, extra: Record<string, unknown> = {}) {
  const b = paymentBody(funding, extra) as any;
  b.payer = { ...b.payer, ...payer(email) };
  return b;
}

describe('vault', () => {
  it('keeps the card of an approved payment under the payer found by email', async () => {
    const email = 'grace@example.com';
    const first = (await create(body({ credit_card: cardOf(testCards.approved) }, email))).body;
    const second = (await create(body({ credit_card: cardOf(testCards.approved) }, email.toUpperCase()))).body;
    const other = (await create(body({ credit_card: cardOf(testCards.otp, { name: 'G H' }) }, email, { merchant_initiated: false }))).body;
    expect(other.state).toBe('pending');
    const viaNonce = (
      await create(
        body({ credit_card_nonce: { nonce: await nonceFor(box.sb, { ...testCards.approved, number: '5555555555554444' }) } }, email),
      )
    ).body;
    expect(first.payer.payer_info.id).toMatch(/^PAYER-/);
    expect(second.payer.payer_info.id).toBe(first.payer.payer_info.id);
    expect(second.payer.funding_instrument.credit_card.id).toBe(first.payer.funding_instrument.credit_card.id);
    expect(first.payer.payer_info.billing_address.country_code).toBe('OM');

    const byEmail = await call(box.sb, 'GET', `${m(box.sb)}/payer?email=${encodeURIComponent(email)}`);
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.payer_info).toMatchObject({ id: first.payer.payer_info.id, email, name: 'Grace Hopper' });
    const cards = byEmail.body.funding_instrument.credit_cards;
    // the pending OTP card is not kept until the OTP passes
    expect(cards.map((c: any) => [c.last4, c.is_default])).toEqual([
      ['1111', true],
      ['4444', false],
    ]);
    expect(viaNonce.payer.funding_instrument.credit_card.id).toBe(cards[1].id);
    expect(cards[0]).toMatchObject({
      type: 'Visa',
      bin: '411111',
      expire_month: 12,
      expire_year: 2034,
      bin_data: { bin: '411111', bank_name: 'Sandbox Bank', card_scheme: 'VISA', card_type: 'CREDIT', country_code: 'US' },
    });
    expect(JSON.stringify(byEmail.body)).not.toMatch(/4111111111111111|cvv/);

    const pid = first.payer.payer_info.id;
    expect((await call(box.sb, 'GET', `${m(box.sb)}/payer/${pid}`)).body).toEqual(byEmail.body);
    const list = await call(box.sb, 'GET', `${m(box.sb)}/payer/${pid}/card`);
    expect(list.body.count).toBe(2);
    expect(list.body.credit_cards).toEqual(cards);
    expect((await call(box.sb, 'GET', `${m(box.sb)}/payer/${pid}/card/${cards[1].id}`)).body).toEqual(cards[1]);
  });

  it('keeps nothing for a declined payment, and marks the domestic BIN as debit', async () => {
    await create(body({ credit_card: cardOf(testCards.declined) }, 'declined@example.com'));
    expectRefusal(await call(box.sb, 'GET', `${m(box.sb)}/payer?email=declined@example.com`), 404, 'NOT_FOUND');
    const p = (await create(body({ credit_card: cardOf(testCards.otp) }, 'debit@example.com', { intent: 'sale' }))).body;
    const sid = p.result.authenticate_url.split('/').pop();
    await call(box.sb, 'POST', `/v1/authenticate/${sid}`, { reference_id: p.id, otp: '111111' });
    const found = await call(box.sb, 'GET', `${m(box.sb)}/payer?email=debit@example.com`);
    expect(found.body.funding_instrument.credit_cards[0].bin_data).toMatchObject({ bin: '464426', card_type: 'DEBIT', country_code: 'OM' });
  });

  it('answers unknown payers and cards 404, and a missing email 400', async () => {
    expectRefusal(await call(box.sb, 'GET', `${m(box.sb)}/payer/PAYER-NONE`), 404, 'NOT_FOUND');
    expectRefusal(await call(box.sb, 'GET', `${m(box.sb)}/payer/PAYER-NONE/card`), 404, 'NOT_FOUND');
    const p = await pay(box.sb);
    const pid = p.payer.payer_info.id;
    expectRefusal(await call(box.sb, 'GET', `${m(box.sb)}/payer/${pid}/card/CARD-NONE`), 404, 'NOT_FOUND');
    expectRefusal(await call(box.sb, 'GET', `${m(box.sb)}/payer`), 400, 'INVALID_REQUEST');
    expectRefusal(await call(box.sb, 'GET', `${m(box.sb)}/payer/${pid}`, undefined, { auth: null }), 401, 'UNAUTHORIZED');
  });
});

describe('isolation between merchants', () => {
  it('never shows or pays with a payer, card, payment or session of another merchant', async () => {
    const sb = await startSandbox({
      merchants: [
        { id: 'a', clientId: 'a', clientSecret: 'a' },
        { id: 'b', clientId: 'b', clientSecret: 'b' },
      ],
    });
    const as = (who: 'a' | 'b') => ({ auth: `Basic ${Buffer.from(`${who}:${who}`).toString('base64')}` });
    try {
      const email = 'shared@example.com';
      const first = (await call(sb, 'POST', '/v1/merchants/a/payment', body({ credit_card: cardOf(testCards.approved) }, email), as('a')))
        .body;
      const pid = first.payer.payer_info.id;
      const cid = first.payer.funding_instrument.credit_card.id;
      for (const path of [
        `/payer?email=${email}`,
        `/payer/${pid}`,
        `/payer/${pid}/card`,
        `/payer/${pid}/card/${cid}`,
        `/payment/${first.id}`,
      ]) {
        expectRefusal(await call(sb, 'GET', `/v1/merchants/b${path}`, undefined, as('b')), 404, 'NOT_FOUND');
        expect((await call(sb, 'GET', `/v1/merchants/a${path}`, undefined, as('a'))).status).toBe(200);
      }
      const viaToken = body({ credit_card_token: { credit_card_id: cid, cvv2: '123' } }, email);
      expectRefusal(await call(sb, 'POST', '/v1/merchants/b/payment', viaToken, as('b')), 404, 'NOT_FOUND');
      const mit = body({ credit_card_token: { credit_card_id: cid } }, email, { merchant_initiated: true, previous_payment_id: first.id });
      expectRefusal(await call(sb, 'POST', '/v1/merchants/b/payment', mit, as('b')), 400, 'INVALID_STORED_CREDENTIAL');
      // the same email at merchant b is another payer; a's payer keeps one card
      const atB = (await call(sb, 'POST', '/v1/merchants/b/payment', body({ credit_card: cardOf(testCards.approved) }, email), as('b')))
        .body;
      expect(atB.payer.payer_info.id).not.toBe(pid);
      expect(atB.payer.funding_instrument.credit_card.id).not.toBe(cid);
      expect((await call(sb, 'GET', `/v1/merchants/a/payer/${pid}/card`, undefined, as('a'))).body.count).toBe(1);
      expectRefusal(
        await call(sb, 'GET', `/v1/merchants/b/payer/${atB.payer.payer_info.id}/card/${cid}`, undefined, as('b')),
        404,
        'NOT_FOUND',
      );
      // a pending payment of a: its session is not b's to read or to authenticate
      const pending = (await call(sb, 'POST', '/v1/merchants/a/payment', body({ credit_card: cardOf(testCards.otp) }, email), as('a')))
        .body;
      const sid = pending.result.authenticate_url.split('/').pop();
      expectRefusal(await call(sb, 'GET', `/v1/merchants/b/payment/session/${sid}`, undefined, as('b')), 404, 'NOT_FOUND');
      expectRefusal(
        await call(sb, 'POST', `/v1/authenticate/${sid}`, { reference_id: pending.id, otp: '111111' }, as('b')),
        401,
        'UNAUTHORIZED',
      );
      expect((await call(sb, 'GET', `/v1/merchants/a/payment/session/${sid}`, undefined, as('a'))).body.state).toBe('pending');
    } finally {
      await sb.close();
    }
  });
});

describe('stored credentials', () => {
  async function initial(email = 'sub@example.com') {
    const res = await create(
      body({ credit_card: cardOf(testCards.approved) }, email, { merchant_initiated: false, transaction: { type: 2 } }),
    );
    return res.body;
  }
  const stored = { ...cardOf(testCards.approved, { stored: true }) };
  delete (stored as Record<string, unknown>)['cvv2'];

  it('does not check previous_payment_id against the card paid (docs/service-decisions.md)', async () => {
    const first = await initial('one@example.com');
    const other = (await create(body({ credit_card: cardOf({ ...testCards.approved, number: '5555555555554444' }) }, 'two@example.com')))
      .body;
    const otherCard = other.payer.funding_instrument.credit_card.id;
    expect(otherCard).not.toBe(first.payer.funding_instrument.credit_card.id);
    const mit = await create(
      body({ credit_card_token: { credit_card_id: otherCard } }, 'two@example.com', {
        merchant_initiated: true,
        previous_payment_id: first.id,
      }),
    );
    expect(mit.body).toMatchObject({ state: 'authorised', previous_payment_id: first.id });
    expect(mit.body.payer.funding_instrument.credit_card.last4).toBe('4444');
  });

  it('pays later merchant-initiated payments by stored card or vault id, without CVV', async () => {
    const first = await initial();
    const mitCard = await create(
      body({ credit_card: stored }, 'sub@example.com', {
        merchant_initiated: true,
        previous_payment_id: first.reference_id,
        transaction: { type: 2 },
      }),
    );
    expect(mitCard.status).toBe(200);
    expect(mitCard.body).toMatchObject({
      state: 'authorised',
      merchant_initiated: true,
      previous_payment_id: first.reference_id,
      transaction: { type: 2 },
    });
    const cardId = first.payer.funding_instrument.credit_card.id;
    const mitVault = await create(
      body({ credit_card_token: { credit_card_id: cardId } }, 'sub@example.com', {
        intent: 'sale',
        merchant_initiated: true,
        previous_payment_id: first.id,
        transaction: { type: '1' },
      }),
    );
    expect(mitVault.body).toMatchObject({ state: 'captured', transaction: { type: 1 } });
    expect(mitVault.body.payer.funding_instrument.credit_card).toMatchObject({ id: cardId, last4: '1111' });
    expect(mitVault.body.payer.payer_info.id).toBe(first.payer.payer_info.id);
  });

  it('skips the OTP on a merchant-initiated payment', async () => {
    const first = await initial();
    const otpCard = { ...cardOf(testCards.otp, { stored: true }) };
    const res = await create(
      body({ credit_card: otpCard }, 'sub@example.com', { merchant_initiated: true, previous_payment_id: first.id }),
    );
    expect(res.body.state).toBe('authorised');
  });

  it('pays later cardholder-initiated payments with the re-entered CVV', async () => {
    const first = await initial();
    const cardId = first.payer.funding_instrument.credit_card.id;
    expect((await create(body({ credit_card_token: { credit_card_id: cardId, cvv2: '123' } }, 'sub@example.com'))).body.state).toBe(
      'authorised',
    );
    expect(
      (await create(body({ credit_card: { ...stored, cvv2: '123' } }, 'sub@example.com', { merchant_initiated: false }))).body.state,
    ).toBe('authorised');
  });

  it('refuses what the stored-credential table does not allow, with 1015 and no state change', async () => {
    const first = await initial();
    const cardId = first.payer.funding_instrument.credit_card.id;
    const declined = (await create(body({ credit_card: cardOf(testCards.declined) }, 'sub@example.com'))).body;
    const nonce = await nonceFor(box.sb);
    const cases: [Record<string, unknown>, Record<string, unknown>, RegExp][] = [
      [{ credit_card: stored }, { merchant_initiated: true }, /previous_payment_id/],
      [{ credit_card: stored }, { merchant_initiated: true, previous_payment_id: 'PAY-UNKNOWN' }, /approved payment/],
      [{ credit_card: stored }, { merchant_initiated: true, previous_payment_id: declined.id }, /approved payment/],
      [{ credit_card: cardOf(testCards.approved) }, { merchant_initiated: true, previous_payment_id: first.id }, /stored/],
      [{ credit_card_nonce: { nonce } }, { merchant_initiated: true, previous_payment_id: first.id }, /nonce/],
      [{ credit_card: cardOf(testCards.approved) }, { previous_payment_id: first.id }, /merchant-initiated/],
      [{ credit_card_token: { credit_card_id: cardId } }, { merchant_initiated: false }, /cvv2/],
      [{ credit_card: stored }, {}, /cvv2/],
    ];
    for (const [funding, extra, why] of cases) {
      const res = await create(body(funding, 'sub@example.com', extra));
      expectRefusal(res, 400, 'INVALID_STORED_CREDENTIAL', '1015');
      expect(res.body.message).toMatch(why);
    }
    // the refused nonce is still unused
    expect((await create(body({ credit_card_nonce: { nonce } }, 'sub@example.com'))).body.state).toBe('authorised');
    expectRefusal(
      await create(body({ credit_card_token: { credit_card_id: 'CARD-NONE', cvv2: '123' } }, 'x@example.com')),
      404,
      'NOT_FOUND',
    );
  });
});
