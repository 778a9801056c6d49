import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { startSandbox, testCards } from '../setup/sandbox';
import { PaymentSchema, ReducedRecordSchema } from '../../src/schemas';
import { call, cardOf, expectRefusal, m, pay, paymentBody, useSandbox } from './helpers';

const box = useSandbox();
const DAY = 24 * 3600_000;
const get = (id: string) => call(box.sb, 'GET', `${m(box.sb)}/payment/${id}`);
const act = (id: string, what: 'capture' | 'void' | 'refund', body?: unknown) =>
  call(box.sb, 'POST', `${m(box.sb)}/payment/${id}/${what}`, body);

/** A refusal leaves the payment as it was. */
async function unchanged(id: string, state: string) {
  const res = await get(id);
  expect(res.body.state).toBe(state);
}

describe('create and retrieve', () => {
  it('authorises an auth payment with a full response record', async () => {
    const created = await pay(box.sb, testCards.approved, {
      custom: { order: 'A-1' },
      transaction: { items: [{ name: 'Tea', quantity: '1', price: '10.00', tangible: 'true' }], description: 'Tea' },
    });
    expect(() => v.parse(PaymentSchema, created)).not.toThrow();
    expect(created).toMatchObject({
      state: 'authorised',
      intent: 'AUTH',
      result: { code: '0000', description: 'Approved' },
      custom: { order: 'A-1' },
      risk_check: false,
      three_d: {},
      subscriptions: null,
      transaction: {
        mode: 'TEST',
        amount: { currency: 'EUR', total: '10.00' },
        items: [{ name: 'Tea', tangible: true, unit_price: '10.00' }],
      },
    });
    expect(created.id).toMatch(/^PAY-[0-9A-F]{24}$/);
    expect(created.reference_id).toBe(created.id);
    expect(created.result.authorisation_code).toMatch(/^\d{6}$/);
    expect(created.payer.funding_instrument.credit_card).toMatchObject({
      type: 'Visa',
      last4: '1111',
      bin: '411111',
      expire_month: 12,
      expire_year: 2034,
    });
    expect(created.payer.funding_instrument.credit_card.id).toMatch(/^CARD-/);
    expect(created.payer.payer_info).toMatchObject({ email: 'ada@example.com', ip: '' });
    expect(JSON.stringify(created)).not.toContain(testCards.approved.number);
    expect(JSON.stringify(created)).not.toContain('"cvv2"');

    const again = await get(created.id);
    expect(again.status).toBe(200);
    expect(again.body.state).toBe('authorised');
    expect(again.body.subscriptions).toBeUndefined();
  });

  it("words the result as the live service's examples do: description on creation, capture and refund; message on retrieval and void", async () => {
    const created = await pay(box.sb, testCards.approved);
    expect(created.result).toMatchObject({ description: 'Approved' });
    expect(created.result.message).toBeUndefined();
    const retrieved = (await get(created.id)).body;
    expect(retrieved.result).toMatchObject({ code: '0000', message: 'Approved', authorisation_code: created.result.authorisation_code });
    expect(retrieved.result.description).toBeUndefined();
    const capture = (await act(created.id, 'capture')).body;
    expect(capture.result).toEqual({ code: '0000', description: 'Approved' });
    expect((await get(capture.id)).body.result).toEqual({ code: '0000', description: 'Approved' });
    expect((await act(created.id, 'refund')).body.result).toEqual({ code: '0000', description: 'Approved' });
    const voided = (await act((await pay(box.sb, testCards.approved)).id, 'void')).body;
    expect(voided.result).toEqual({ code: '0000', message: 'Approved' });
  });

  it('captures a sale at once', async () => {
    const created = await pay(box.sb, testCards.approved, { intent: 'sale' });
    expect(created).toMatchObject({ state: 'captured', intent: 'SALE', result: { code: '0000' } });
  });

  it('declines by test card, expiry, with no vault card', async () => {
    const declined = await pay(box.sb, testCards.declined);
    expect(declined).toMatchObject({ state: 'declined', result: { code: '1005', description: 'Do not honor' } });
    expect(declined.payer.funding_instrument.credit_card.id).toBeUndefined();
    expect((await pay(box.sb, testCards.insufficientFunds)).result.code).toBe('1051');
    const expired = await pay(box.sb, { ...testCards.approved, expireYear: 2020 });
    expect(expired).toMatchObject({ state: 'declined', result: { code: '1054' } });
  });

  it('approves any other Luhn-valid number and refuses a Luhn-invalid one', async () => {
    expect((await pay(box.sb, { ...testCards.approved, number: '5555555555554444' })).state).toBe('authorised');
    const res = await call(
      box.sb,
      'POST',
      `${m(box.sb)}/payment`,
      paymentBody({ credit_card: { ...cardOf(testCards.approved), number: '4111111111111112' } }),
    );
    expectRefusal(res, 400, 'INVALID_CARD_NUMBER', '1014');
    expect(res.body.message).not.toContain('4111111111111112');
    for (const number of ['41111111111', '411111111111111a', 4111111111111111]) {
      const bad = await call(
        box.sb,
        'POST',
        `${m(box.sb)}/payment`,
        paymentBody({ credit_card: { ...cardOf(testCards.approved), number } }),
      );
      expectRefusal(bad, 400, 'INVALID_CARD_NUMBER', '1014');
      expect(bad.body.message).not.toContain(String(number));
    }
    // A phone's number is not a card's; an unknown top-level field named number is not one either.
    const ok = paymentBody({ credit_card: cardOf(testCards.approved) });
    const phone = { ...ok, payer: { ...ok.payer, payer_info: { ...ok.payer.payer_info, phone: { number: 5 } } } };
    expectRefusal(await call(box.sb, 'POST', `${m(box.sb)}/payment`, phone), 400, 'INVALID_REQUEST', '1000');
    expectRefusal(await call(box.sb, 'POST', `${m(box.sb)}/payment`, { ...ok, number: 'x' }), 400, 'INVALID_REQUEST', '1000');
  });

  it('refuses amounts with the wrong precision, zero or below', async () => {
    for (const [currency, total] of [
      ['EUR', '1.001'],
      ['JPY', '10.5'],
      ['EUR', '-1'],
    ]) {
      const res = await call(
        box.sb,
        'POST',
        `${m(box.sb)}/payment`,
        paymentBody({ credit_card: cardOf(testCards.approved) }, { transaction: { amount: { currency, total } } }),
      );
      expectRefusal(res, 400, 'INVALID_AMOUNT', '1013');
    }
    // Zero verifies a card (an auth: test/sandbox/vault-changes.test.ts); a sale of zero stays refused.
    const zeroSale = paymentBody(
      { credit_card: cardOf(testCards.approved) },
      { intent: 'sale', transaction: { amount: { currency: 'EUR', total: '0.00' } } },
    );
    expectRefusal(await call(box.sb, 'POST', `${m(box.sb)}/payment`, zeroSale), 400, 'INVALID_AMOUNT', '1013');
    expect((await pay(box.sb, testCards.approved, { transaction: { amount: { currency: 'OMR', total: '1.250' } } })).state).toBe(
      'authorised',
    );
  });

  it('refuses missing required fields', async () => {
    const path = `${m(box.sb)}/payment`;
    expectRefusal(await call(box.sb, 'POST', path), 400, 'INVALID_REQUEST');
    const noIntent = paymentBody({ credit_card: cardOf(testCards.approved) }) as Record<string, unknown>;
    delete noIntent['intent'];
    const res = await call(box.sb, 'POST', path, noIntent);
    expectRefusal(res, 400, 'INVALID_REQUEST');
    expect(res.body.message).toContain('intent');
    const both = paymentBody({ credit_card: cardOf(testCards.approved), credit_card_token: { credit_card_id: 'CARD-1' } });
    expectRefusal(await call(box.sb, 'POST', path, both), 400, 'INVALID_REQUEST');
  });

  it('answers 404 for a payment of another merchant or none', async () => {
    const sb = await startSandbox({ merchants: [{ id: 'x', clientId: 'x', clientSecret: 'x' }] });
    try {
      const created = await pay(sb);
      expectRefusal(await get(created.id), 404, 'NOT_FOUND');
    } finally {
      await sb.close();
    }
    expectRefusal(await get('PAY-000000000000000000000000'), 404, 'NOT_FOUND', '4040');
  });
});

describe('odd bodies', () => {
  it('refuses a body that is a JSON array, null or a number where an object is expected, changing nothing', async () => {
    const auth = await pay(box.sb);
    for (const raw of ['[]', 'null', '5', '"x"']) {
      for (const what of ['capture', 'void', 'refund'] as const) {
        expectRefusal(await call(box.sb, 'POST', `${m(box.sb)}/payment/${auth.id}/${what}`, undefined, { raw }), 400, 'INVALID_REQUEST');
      }
    }
    await unchanged(auth.id, 'authorised');
  });

  it('refuses JSON nested too deeply with 400, creating nothing', async () => {
    const deep = JSON.stringify(paymentBody({ credit_card: cardOf(testCards.approved) }, { custom: { x: 'X' } })).replace(
      '"X"',
      `${'['.repeat(30_000)}${']'.repeat(30_000)}`,
    );
    const res = await call(box.sb, 'POST', `${m(box.sb)}/payment`, undefined, { raw: deep });
    expectRefusal(res, 400, 'INVALID_REQUEST', '1000');
    const auth = await pay(box.sb);
    const nested = `{"custom":${'{"a":'.repeat(200)}1${'}'.repeat(200)}}`;
    expectRefusal(
      await call(box.sb, 'POST', `${m(box.sb)}/payment/${auth.id}/capture`, undefined, { raw: nested }),
      400,
      'INVALID_REQUEST',
    );
    await unchanged(auth.id, 'authorised');
    // ordinary nesting is fine
    expect((await act(auth.id, 'capture', { custom: { a: { b: { c: [1, { d: 2 }] } } } })).status).toBe(200);
  });
});

describe('capture', () => {
  it('captures in full by default with a reduced record', async () => {
    const auth = await pay(box.sb);
    const res = await act(auth.id, 'capture', { invoice_number: 'INV-9', custom: { a: 1 } });
    expect(res.status).toBe(200);
    expect(() => v.parse(ReducedRecordSchema, res.body)).not.toThrow();
    expect(res.body).toMatchObject({
      reference_id: auth.id,
      state: 'captured',
      chargeback: 'N',
      result: { code: '0000' },
      transaction: { amount: { currency: 'EUR', total: '10.00' }, mode: 'TEST', invoice_number: 'INV-9' },
      custom: { a: 1 },
    });
    expect(res.body.id).not.toBe(auth.id);
    await unchanged(auth.id, 'captured');
    expect((await get(res.body.id)).body).toMatchObject({ id: res.body.id, state: 'captured' });
  });

  it('captures partly, once, with an empty body allowed', async () => {
    const auth = await pay(box.sb);
    const part = await act(auth.id, 'capture', { amount: '4.5' });
    expect(part.body.transaction.amount.total).toBe('4.50');
    expectRefusal(await act(auth.id, 'capture'), 409, 'ALREADY_CAPTURED', '4091');
    // the rest of the hold is released: refunds stop at what was captured
    expectRefusal(await act(auth.id, 'refund', { amount: '5.00' }), 409, 'REFUND_EXCEEDS_AMOUNT');
    expect((await act(auth.id, 'refund')).body.transaction.amount.total).toBe('4.50');
  });

  it('refuses a capture above the authorisation or with a bad amount, changing nothing', async () => {
    const auth = await pay(box.sb);
    expectRefusal(await act(auth.id, 'capture', { amount: '10.01' }), 409, 'CAPTURE_EXCEEDS_AMOUNT', '4092');
    expectRefusal(await act(auth.id, 'capture', { amount: '1.001' }), 400, 'INVALID_AMOUNT', '1013');
    expectRefusal(await act(auth.id, 'capture', { amount: '0' }), 400, 'INVALID_AMOUNT');
    expectRefusal(await act(auth.id, 'capture', { amount: 5 }), 400, 'INVALID_REQUEST');
    await unchanged(auth.id, 'authorised');
    expect((await act(auth.id, 'capture', { amount: '10' })).status).toBe(200);
  });

  it('refuses to capture a sale, a void, a decline', async () => {
    expectRefusal(await act((await pay(box.sb, testCards.approved, { intent: 'sale' })).id, 'capture'), 409, 'ALREADY_CAPTURED');
    const voided = await pay(box.sb);
    await act(voided.id, 'void');
    expectRefusal(await act(voided.id, 'capture'), 409, 'INVALID_STATE', '4097');
    expectRefusal(await act((await pay(box.sb, testCards.declined)).id, 'capture'), 409, 'INVALID_STATE');
    expectRefusal(await act('PAY-NOPE', 'capture'), 404, 'NOT_FOUND');
  });
});

describe('void', () => {
  it('voids an authorisation with items and custom', async () => {
    const auth = await pay(box.sb, testCards.approved, { transaction: { items: [{ name: 'Tea', tangible: 'false' }] } });
    const res = await act(auth.id, 'void', { custom: { why: 'customer' } });
    expect(res.body).toMatchObject({ reference_id: auth.id, state: 'voided', result: { code: '0000' }, custom: { why: 'customer' } });
    expect(res.body.transaction.items).toEqual([{ name: 'Tea', tangible: false }]);
    await unchanged(auth.id, 'voided');
    expectRefusal(await act(auth.id, 'void'), 409, 'VOID_NOT_ALLOWED', '4094');
    expectRefusal(await act(auth.id, 'refund'), 409, 'INVALID_STATE');
  });

  it('refuses to void a fully captured authorisation or a sale', async () => {
    const auth = await pay(box.sb);
    await act(auth.id, 'capture');
    expectRefusal(await act(auth.id, 'void'), 409, 'VOID_NOT_ALLOWED');
    await unchanged(auth.id, 'captured');
    expectRefusal(await act((await pay(box.sb, testCards.approved, { intent: 'sale' })).id, 'void'), 409, 'VOID_NOT_ALLOWED');
  });
});

describe('refund', () => {
  it('refunds a sale partly, repeatedly, up to the original amount', async () => {
    const sale = await pay(box.sb, testCards.approved, { intent: 'sale' });
    const first = await act(sale.id, 'refund', { amount: '3.00', invoice_number: 'R-1' });
    expect(first.body).toMatchObject({
      reference_id: sale.id,
      state: 'refunded',
      transaction: { amount: { total: '3.00' }, invoice_number: 'R-1' },
    });
    await unchanged(sale.id, 'captured');
    expect((await act(sale.id, 'refund', { amount: '3.00' })).status).toBe(200);
    expectRefusal(await act(sale.id, 'refund', { amount: '4.01' }), 409, 'REFUND_EXCEEDS_AMOUNT', '4095');
    await unchanged(sale.id, 'captured');
    expect((await act(sale.id, 'refund')).body.transaction.amount.total).toBe('4.00');
    await unchanged(sale.id, 'refunded');
    expectRefusal(await act(sale.id, 'refund', { amount: '0.01' }), 409, 'ALREADY_REFUNDED', '4096');
  });

  it('refunds in full once', async () => {
    const auth = await pay(box.sb);
    await act(auth.id, 'capture');
    expect((await act(auth.id, 'refund')).body.transaction.amount.total).toBe('10.00');
    expectRefusal(await act(auth.id, 'refund'), 409, 'ALREADY_REFUNDED');
    expectRefusal(await act(auth.id, 'capture'), 409, 'ALREADY_CAPTURED');
    expectRefusal(await act(auth.id, 'void'), 409, 'VOID_NOT_ALLOWED');
  });

  it('refuses to refund an authorisation, with a bad amount', async () => {
    const auth = await pay(box.sb);
    expectRefusal(await act(auth.id, 'refund'), 409, 'INVALID_STATE');
    const sale = await pay(box.sb, testCards.approved, { intent: 'sale' });
    expectRefusal(await act(sale.id, 'refund', { amount: '1.234' }), 400, 'INVALID_AMOUNT');
    expectRefusal(await act(sale.id, 'refund', { amount: '1', extra: true }), 400, 'INVALID_REQUEST');
    await unchanged(sale.id, 'captured');
  });

  it('never lets racing refunds exceed the original', async () => {
    const sale = await pay(box.sb, testCards.approved, { intent: 'sale' });
    const answers = await Promise.all(Array.from({ length: 10 }, () => act(sale.id, 'refund', { amount: '3.00' })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 409 && a.body.name === 'REFUND_EXCEEDS_AMOUNT')).toHaveLength(7);
    const full = await Promise.all(Array.from({ length: 10 }, () => act(sale.id, 'refund')));
    expect(full.filter((a) => a.status === 200)).toHaveLength(1);
    await unchanged(sale.id, 'refunded');
  });
});

describe('actions on a capture, void or refund record', () => {
  it('refuses them with 409 (INVALID_STATE, VOID_NOT_ALLOWED for a void) naming the payment to act on, changing nothing', async () => {
    const auth = await pay(box.sb);
    const cap = await act(auth.id, 'capture', { amount: '6.00' });
    expect((await get(cap.body.id)).status).toBe(200);
    for (const [what, name] of [
      ['capture', 'INVALID_STATE'],
      ['void', 'VOID_NOT_ALLOWED'],
      ['refund', 'INVALID_STATE'],
    ] as const) {
      const res = await act(cap.body.id, what);
      expectRefusal(res, 409, name);
      expect(res.body.message).toContain(auth.id);
    }
    const ref = await act(auth.id, 'refund', { amount: '1.00' });
    expectRefusal(await act(ref.body.id, 'refund'), 409, 'INVALID_STATE');
    await unchanged(auth.id, 'captured');
    expect((await get(cap.body.id)).body.state).toBe('captured');
    expect((await act(auth.id, 'refund')).body.transaction.amount.total).toBe('5.00');
  });

  it('keeps them invisible to another merchant', async () => {
    const sb = await startSandbox({
      merchants: [
        { id: 'x', clientId: 'x', clientSecret: 'x' },
        { id: 'y', clientId: 'y', clientSecret: 'y' },
      ],
    });
    try {
      const created = await pay(sb);
      const cap = await call(sb, 'POST', `${m(sb)}/payment/${created.id}/capture`);
      const other = { auth: `Basic ${Buffer.from('y:y').toString('base64')}` };
      expectRefusal(await call(sb, 'POST', `/v1/merchants/y/payment/${cap.body.id}/refund`, undefined, other), 404, 'NOT_FOUND');
      expectRefusal(await call(sb, 'GET', `/v1/merchants/y/payment/${cap.body.id}`, undefined, other), 404, 'NOT_FOUND');
    } finally {
      await sb.close();
    }
  });
});

describe('the seven-day hold', () => {
  it('keeps an authorisation until 1 ms before exactly 7 × 24 h after it; at that instant it is cancelled', async () => {
    // Date frozen (timers and sockets stay real), so the sandbox's clock moves only by advanceClock.
    vi.useFakeTimers({ toFake: ['Date'] });
    const sb = await startSandbox();
    try {
      const a = await pay(sb);
      const b = await pay(sb);
      sb.advanceClock(7 * DAY - 1);
      expect((await call(sb, 'POST', `${m(sb)}/payment/${a.id}/capture`)).status).toBe(200);
      sb.advanceClock(1);
      expect((await call(sb, 'GET', `${m(sb)}/payment/${b.id}`)).body.state).toBe('cancelled');
    } finally {
      await sb.close();
      vi.useRealTimers();
    }
  });

  it('cancels an authorisation not captured in seven days', async () => {
    const sb = await startSandbox();
    try {
      const a = await pay(sb);
      const b = await pay(sb);
      sb.advanceClock(7 * DAY - 60_000);
      expect((await call(sb, 'POST', `${m(sb)}/payment/${a.id}/capture`)).status).toBe(200);
      sb.advanceClock(60_000);
      expect((await call(sb, 'GET', `${m(sb)}/payment/${b.id}`)).body.state).toBe('cancelled');
      expectRefusal(await call(sb, 'POST', `${m(sb)}/payment/${b.id}/capture`), 409, 'AUTHORISATION_EXPIRED', '4093');
      expectRefusal(await call(sb, 'POST', `${m(sb)}/payment/${b.id}/void`), 409, 'AUTHORISATION_EXPIRED');
      expectRefusal(await call(sb, 'POST', `${m(sb)}/payment/${b.id}/refund`), 409, 'INVALID_STATE');
      expect((await call(sb, 'GET', `${m(sb)}/payment/${a.id}`)).body.state).toBe('captured');
    } finally {
      await sb.close();
    }
  });
});
