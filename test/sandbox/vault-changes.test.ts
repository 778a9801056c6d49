import { describe, expect, it } from 'vitest';
import { testCards } from '../../src/sandbox';
import { call, cardOf, expectRefusal, m, nonceFor, paymentBody, useSandbox } from './helpers';

// The vault beyond lookups: DELETE a payer's card, PUT a payer, and a zero total that verifies a card.
const box = useSandbox();
const visa2 = { ...testCards.approved, number: '5555555555554444' };
const amex = { ...testCards.approved, number: '378282246310005', cvv: '1234' };

/** A payer with the given cards kept, in this order (the first is the default); answers its id and card ids. */
async function payerWith(email: string, cards = [testCards.approved, visa2, amex]) {
  const ids: string[] = [];
  let payerId = '';
  for (const card of cards) {
    const body = paymentBody({ credit_card: cardOf(card) });
    body.payer.payer_info = { email, name: 'Ada Lovelace' };
    const p = (await call(box.sb, 'POST', `${m(box.sb)}/payment`, body)).body;
    expect(p.state).toBe('authorised');
    payerId = p.payer.payer_info.id;
    ids.push(p.payer.funding_instrument.credit_card.id);
  }
  return { payerId, ids };
}
const listOf = async (payerId: string) => (await call(box.sb, 'GET', `${m(box.sb)}/payer/${payerId}/card`)).body;
const defaults = async (payerId: string) => (await listOf(payerId)).credit_cards.map((c: any) => [c.id, c.is_default]);

describe('DELETE …/payer/{id}/card/{card}', () => {
  it('answers "DONE", and the card can pay no more: 404 as a card or as a merchant-started payment', async () => {
    const { payerId, ids } = await payerWith('remove@example.com');
    const removed = await call(box.sb, 'DELETE', `${m(box.sb)}/payer/${payerId}/card/${ids[1]}`);
    expect(removed.status).toBe(200);
    expect(removed.headers.get('content-type')).toMatch(/^application\/json/);
    expect(removed.body).toBe('DONE');
    expect((await listOf(payerId)).credit_cards.map((c: any) => c.id)).toEqual([ids[0], ids[2]]);
    expectRefusal(await call(box.sb, 'GET', `${m(box.sb)}/payer/${payerId}/card/${ids[1]}`), 404, 'NOT_FOUND');

    const first = (await call(box.sb, 'GET', `${m(box.sb)}/payer/${payerId}`)).body;
    expect(first.funding_instrument.credit_cards).toHaveLength(2);
    const cardholder = paymentBody({ credit_card_token: { credit_card_id: ids[1], cvv2: '123' } });
    expectRefusal(await call(box.sb, 'POST', `${m(box.sb)}/payment`, cardholder), 404, 'NOT_FOUND');
    const anyApproved = (await call(box.sb, 'POST', `${m(box.sb)}/payment`, paymentBody({ credit_card: cardOf(testCards.approved) }))).body;
    const merchant = paymentBody(
      { credit_card_token: { credit_card_id: ids[1] } },
      { merchant_initiated: true, previous_payment_id: anyApproved.id },
    );
    expectRefusal(await call(box.sb, 'POST', `${m(box.sb)}/payment`, merchant), 404, 'NOT_FOUND');
    // A second removal finds nothing.
    expectRefusal(await call(box.sb, 'DELETE', `${m(box.sb)}/payer/${payerId}/card/${ids[1]}`), 404, 'NOT_FOUND');
    // The same card paying again is kept again, under a new id: the removed one stays unknown.
    const again = paymentBody({ credit_card: cardOf(visa2) });
    again.payer.payer_info = { email: 'remove@example.com', name: 'Ada Lovelace' };
    const kept = (await call(box.sb, 'POST', `${m(box.sb)}/payment`, again)).body.payer.funding_instrument.credit_card.id;
    expect(kept).not.toBe(ids[1]);
    expect((await listOf(payerId)).credit_cards.map((c: any) => c.id)).toEqual([ids[0], ids[2], kept]);
  });

  it('removing the default makes the oldest card left the default; removing the last leaves the payer with none', async () => {
    const { payerId, ids } = await payerWith('default-gone@example.com');
    expect(await defaults(payerId)).toEqual([
      [ids[0], true],
      [ids[1], false],
      [ids[2], false],
    ]);
    await call(box.sb, 'DELETE', `${m(box.sb)}/payer/${payerId}/card/${ids[0]}`);
    expect(await defaults(payerId)).toEqual([
      [ids[1], true],
      [ids[2], false],
    ]);
    await call(box.sb, 'DELETE', `${m(box.sb)}/payer/${payerId}/card/${ids[1]}`);
    await call(box.sb, 'DELETE', `${m(box.sb)}/payer/${payerId}/card/${ids[2]}`);
    expect(await listOf(payerId)).toEqual({ count: 0, credit_cards: [] });
    const payer = await call(box.sb, 'GET', `${m(box.sb)}/payer/${payerId}`);
    expect(payer.status).toBe(200);
    expect(payer.body.funding_instrument.credit_cards).toEqual([]);
  });

  it("refuses another payer's card (404, nothing removed), an unknown payer, and wrong credentials", async () => {
    const a = await payerWith('owner@example.com', [testCards.approved]);
    const b = await payerWith('intruder@example.com', [visa2]);
    expectRefusal(await call(box.sb, 'DELETE', `${m(box.sb)}/payer/${b.payerId}/card/${a.ids[0]}`), 404, 'NOT_FOUND');
    expectRefusal(await call(box.sb, 'DELETE', `${m(box.sb)}/payer/PAYER-NONE/card/${a.ids[0]}`), 404, 'NOT_FOUND');
    expectRefusal(
      await call(box.sb, 'DELETE', `${m(box.sb)}/payer/${a.payerId}/card/${a.ids[0]}`, undefined, { auth: null }),
      401,
      'UNAUTHORIZED',
    );
    expect(await defaults(a.payerId)).toEqual([[a.ids[0], true]]);
  });
});

describe('PUT …/payer/{id}', () => {
  it('answers "DONE": the default card comes first with is_default, the others lose it; name and email change', async () => {
    const { payerId, ids } = await payerWith('put@example.com');
    const put = await call(box.sb, 'PUT', `${m(box.sb)}/payer/${payerId}`, {
      email: 'put2@example.com',
      name: 'Ada King',
      default_card: ids[2],
    });
    expect(put).toMatchObject({ status: 200, body: 'DONE' });
    expect(await defaults(payerId)).toEqual([
      [ids[2], true],
      [ids[0], false],
      [ids[1], false],
    ]);
    const payer = (await call(box.sb, 'GET', `${m(box.sb)}/payer?email=put2%40example.com`)).body;
    expect(payer.payer_info).toMatchObject({ id: payerId, email: 'put2@example.com', name: 'Ada King' });
    expect(payer.funding_instrument.credit_cards[0].id).toBe(ids[2]);
    // A field left out is left unchanged.
    expect((await call(box.sb, 'PUT', `${m(box.sb)}/payer/${payerId}`, { default_card: ids[1] })).body).toBe('DONE');
    expect((await call(box.sb, 'GET', `${m(box.sb)}/payer/${payerId}`)).body.payer_info).toMatchObject({
      email: 'put2@example.com',
      name: 'Ada King',
    });
    expect(await defaults(payerId)).toEqual([
      [ids[1], true],
      [ids[0], false],
      [ids[2], false],
    ]);
  });

  it("refuses another payer's card, an empty body, a bad email, an email of another payer, unknown fields: nothing changes", async () => {
    const a = await payerWith('put-a@example.com', [testCards.approved, visa2]);
    const b = await payerWith('put-b@example.com', [amex]);
    const put = (payerId: string, body: unknown) => call(box.sb, 'PUT', `${m(box.sb)}/payer/${payerId}`, body);
    expectRefusal(await put(a.payerId, { default_card: b.ids[0], name: 'Changed' }), 404, 'NOT_FOUND');
    expectRefusal(await put(a.payerId, {}), 400, 'INVALID_REQUEST');
    expectRefusal(await put(a.payerId, { email: 'not-an-email' }), 400, 'INVALID_REQUEST');
    expectRefusal(await put(a.payerId, { email: 'PUT-B@example.com' }), 400, 'INVALID_REQUEST');
    expectRefusal(await put(a.payerId, { default_card: a.ids[1], isDefault: true }), 400, 'INVALID_REQUEST');
    expectRefusal(await put('PAYER-NONE', { name: 'x' }), 404, 'NOT_FOUND');
    expect(await defaults(a.payerId)).toEqual([
      [a.ids[0], true],
      [a.ids[1], false],
    ]);
    expect((await call(box.sb, 'GET', `${m(box.sb)}/payer/${a.payerId}`)).body.payer_info).toMatchObject({
      email: 'put-a@example.com',
      name: 'Ada Lovelace',
    });
  });

  it('takes only PUT and DELETE beside the lookups (405 lists the methods)', async () => {
    const { payerId, ids } = await payerWith('methods@example.com', [testCards.approved]);
    const post = await call(box.sb, 'POST', `${m(box.sb)}/payer/${payerId}/card/${ids[0]}`, {});
    expectRefusal(post, 405, 'METHOD_NOT_ALLOWED');
    expect(post.headers.get('allow')).toBe('GET, DELETE');
  });
});

describe('a zero total verifies a card', () => {
  const verification = (funding: Record<string, unknown>, email: string, total = '0.00', extra: Record<string, unknown> = {}) => {
    const body = paymentBody(funding, { transaction: { amount: { currency: 'EUR', total } }, ...extra });
    body.payer.payer_info = { email, name: 'Vera Fied' };
    return call(box.sb, 'POST', `${m(box.sb)}/payment`, body);
  };

  it('keeps the card without charging it: approved, voided at once, zero, and it pays later with its CVV or as merchant-started', async () => {
    const nonce = await nonceFor(box.sb, testCards.approved);
    const made = await verification({ credit_card_nonce: { nonce } }, 'verify@example.com');
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({
      state: 'voided',
      intent: 'AUTH',
      result: { code: '0000' },
      transaction: { amount: { currency: 'EUR', total: '0.00' } },
    });
    expect(made.body.result.authorisation_code).toMatch(/^\d{6}$/);
    const cardId = made.body.payer.funding_instrument.credit_card.id;
    expect(
      (await call(box.sb, 'GET', `${m(box.sb)}/payer/${made.body.payer.payer_info.id}/card`)).body.credit_cards.map((c: any) => c.id),
    ).toEqual([cardId]);
    const got = (await call(box.sb, 'GET', `${m(box.sb)}/payment/${made.body.id}`)).body;
    expect(got).toMatchObject({ state: 'voided', result: { code: '0000', message: 'Approved' } });
    expect(got.result.actions).toBeUndefined();
    // Nothing to capture, void or refund.
    expectRefusal(await call(box.sb, 'POST', `${m(box.sb)}/payment/${made.body.id}/capture`, {}), 409, 'INVALID_STATE');
    expectRefusal(await call(box.sb, 'POST', `${m(box.sb)}/payment/${made.body.id}/refund`, {}), 409, 'INVALID_STATE');

    const later = await call(
      box.sb,
      'POST',
      `${m(box.sb)}/payment`,
      paymentBody({ credit_card_token: { credit_card_id: cardId, cvv2: '123' } }),
    );
    expect(later.body).toMatchObject({ state: 'authorised', result: { code: '0000' } });
    const mit = paymentBody(
      { credit_card_token: { credit_card_id: cardId } },
      { merchant_initiated: true, previous_payment_id: made.body.id },
    );
    expect((await call(box.sb, 'POST', `${m(box.sb)}/payment`, mit)).body).toMatchObject({ state: 'authorised', merchant_initiated: true });
  });

  it('a declined card: a declined record, nothing kept; an OTP card: verified at once (no OTP)', async () => {
    const declined = await verification({ credit_card: cardOf(testCards.declined) }, 'verify-declined@example.com');
    expect(declined.body).toMatchObject({ state: 'declined', result: { code: '1005' } });
    expectRefusal(await call(box.sb, 'GET', `${m(box.sb)}/payer?email=verify-declined%40example.com`), 404, 'NOT_FOUND');
    const otp = await verification({ credit_card: cardOf(testCards.otp) }, 'verify-otp@example.com');
    expect(otp.body).toMatchObject({ state: 'voided', result: { code: '0000' } });
  });

  it('verifies a saved card again only with its CVV', async () => {
    const { ids } = await payerWith('verify-again@example.com', [testCards.approved]);
    expectRefusal(
      await verification({ credit_card_token: { credit_card_id: ids[0] } }, 'verify-again@example.com'),
      400,
      'INVALID_STORED_CREDENTIAL',
    );
    expect(
      (await verification({ credit_card_token: { credit_card_id: ids[0], cvv2: '123' } }, 'verify-again@example.com')).body.state,
    ).toBe('voided');
  });

  it("zero in the currency's precision, as an authorisation the cardholder starts; any other zero stays refused", async () => {
    const card = { credit_card: cardOf(testCards.approved) };
    expect((await verification(card, 'zero@example.com', '0')).body.state).toBe('voided');
    expectRefusal(await verification(card, 'zero@example.com', '0.000'), 400, 'INVALID_AMOUNT');
    expectRefusal(await verification(card, 'zero@example.com', '0.00', { intent: 'sale' }), 400, 'INVALID_AMOUNT');
    const approved = (await call(box.sb, 'POST', `${m(box.sb)}/payment`, paymentBody(card))).body;
    expectRefusal(
      await verification(card, 'zero@example.com', '0.00', { merchant_initiated: true, previous_payment_id: approved.id }),
      400,
      'INVALID_REQUEST',
    );
    expectRefusal(await verification(card, 'zero@example.com', '-0.00'), 400, 'INVALID_AMOUNT');
    expectRefusal(await verification(card, 'zero@example.com', '0.001'), 400, 'INVALID_AMOUNT');
  });
});
