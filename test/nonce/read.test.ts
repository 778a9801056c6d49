// The page and the frames read the service's answers by hand (no valibot in the browser bundles);
// the wire types stay the valibot schemas of src/schemas. These tests hold the two together.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ErrorBodySchema, NonceRequestSchema, NonceResponseSchema } from '../../src/schemas';
import { isErrorBody, refusal } from '../../src/shared/http-answer';
import { checkCard, readNonce } from '../../src/nonce';

const data = {
  brand_code: 'VISA',
  credit_card_nonce: '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
  last4: '1111',
  type: 'Visa',
  expire_month: 12,
  expire_year: 2034,
  expires_on: '2034-01-01T00:00:00.000Z',
  issued_on: '2033-12-31T00:00:00Z',
};

// Each variant changes one used field, or an unused one, or the whole shape.
const variants: [string, unknown][] = [
  ['as sent', { data }],
  ['extra fields', { data: { ...data, bin: '411111' }, meta: 1 }],
  ['month as text', { data: { ...data, expire_month: '03' } }],
  ['month as text without zero', { data: { ...data, expire_month: '3' } }],
  ['year as text', { data: { ...data, expire_year: '2034' } }],
  ['timestamp with offset', { data: { ...data, expires_on: '2034-01-01T00:00:00+04:00' } }],
  ['timestamp with a space', { data: { ...data, expires_on: '2034-01-01 00:00:00Z' } }],
  ['upper-case uuid', { data: { ...data, credit_card_nonce: data.credit_card_nonce.toUpperCase() } }],
  ['lower-case brand', { data: { ...data, brand_code: 'visa' } }],
  ['no data', {}],
  ['data null', { data: null }],
  ['the nonce at the top', data],
  ['a string', 'nonce'],
  ['null', null],
  ['an array', [data]],
  ['no nonce', { data: { ...data, credit_card_nonce: undefined } }],
  ['nonce not a uuid', { data: { ...data, credit_card_nonce: 'abc' } }],
  ['nonce a number', { data: { ...data, credit_card_nonce: 42 } }],
  ['last4 of 3 digits', { data: { ...data, last4: '111' } }],
  ['last4 a number', { data: { ...data, last4: 1111 } }],
  ['month 13', { data: { ...data, expire_month: 13 } }],
  ['month 0', { data: { ...data, expire_month: 0 } }],
  ['month 1.5', { data: { ...data, expire_month: 1.5 } }],
  ['month text 13', { data: { ...data, expire_month: '13' } }],
  ['year of 2 digits', { data: { ...data, expire_year: 34 } }],
  ['year text of 2 digits', { data: { ...data, expire_year: '34' } }],
  ['no brand code', { data: { ...data, brand_code: undefined } }],
  ['expiry not a timestamp', { data: { ...data, expires_on: 'tomorrow' } }],
  ['expiry a number', { data: { ...data, expires_on: 2034 } }],
];
const unusedByPayframe = new Set(['type', 'issued_on']);

describe('readNonce agrees with NonceResponseSchema', () => {
  it.each(variants)('%s', (_, answer) => {
    const parsed = v.safeParse(NonceResponseSchema, answer);
    const read = readNonce(answer, undefined, undefined);
    expect(read !== undefined, 'accepted').toBe(parsed.success);
    if (parsed.success) {
      const d = parsed.output.data;
      expect(read).toEqual({
        nonce: d.credit_card_nonce,
        brand: 'visa',
        last4: d.last4,
        expireMonth: d.expire_month,
        expireYear: d.expire_year,
        expiresAt: d.expires_on,
      });
    }
  });

  it.each([...unusedByPayframe])(
    'reads an answer whose unused field %s is missing (the schema requires it; payframe does not use it)',
    (field) => {
      const answer = { data: { ...data, [field]: undefined } };
      expect(v.safeParse(NonceResponseSchema, answer).success).toBe(false);
      expect(readNonce(answer, undefined, undefined)?.nonce).toBe(data.credit_card_nonce);
    },
  );

  it('keeps the brand the card core found, and the name of the card', () => {
    expect(readNonce({ data: { ...data, brand_code: 'MASTERCARD' } }, 'elo', 'Ada')).toMatchObject({ brand: 'elo', name: 'Ada' });
    expect(readNonce({ data: { ...data, brand_code: 'NEWBRAND' } }, undefined, undefined)?.brand).toBeUndefined();
  });
});

describe('isErrorBody agrees with ErrorBodySchema', () => {
  it.each([
    { code: '4095', name: 'REFUND_EXCEEDS_AMOUNT', message: 'm', eventId: 'e' },
    { code: '4095', name: 'X', message: 'm', eventId: 'e', more: 1 },
    { code: 4095, name: 'X', message: 'm', eventId: 'e' },
    { name: 'X', message: 'm', eventId: 'e' },
    { code: '1', name: 'X', message: 'm' },
    { code: '1', name: 'X' },
    { code: '1', name: 'X', message: 5 },
    { code: '1', name: 'X', eventId: null },
    { code: '1', message: 'm', eventId: 'e' },
    'Bad gateway',
    null,
    [],
  ])('%j', (body) => {
    expect(isErrorBody(body)).toBe(v.safeParse(ErrorBodySchema, body).success);
  });
});

describe('refusal keeps the reason of a body without eventId or message', () => {
  it('reads code and name alone', () => {
    const e = refusal(409, { code: '4099', name: 'AUTHENTICATE_NOT_SUPPORTED' }, 'authenticate');
    expect(e).toMatchObject({
      code: 'conflict',
      status: 409,
      resultCode: '4099',
      reason: 'AUTHENTICATE_NOT_SUPPORTED',
      eventId: undefined,
    });
    expect(e.message).toBe('authenticate: AUTHENTICATE_NOT_SUPPORTED');
    // The service's text is never in the message (it may quote the request); the server keeps it in `body`.
    expect(refusal(409, { code: '4098', name: 'SESSION_EXPIRED', message: 'gone' }, 'x').message).toBe('x: SESSION_EXPIRED');
    expect(refusal(409, { code: '4098', name: 'SESSION_EXPIRED', message: 'gone' }, 'x', true).body).toEqual({
      code: '4098',
      name: 'SESSION_EXPIRED',
      message: 'gone',
    });
  });
});

describe('checkCard builds bodies of the wire type', () => {
  it.each([
    { number: '4111 1111 1111 1111', expireMonth: 12, expireYear: 2034, cvv: '123' },
    { number: '3782-822463-10005', expireMonth: '01', expireYear: '34', cvv: ' 1234 ' },
    { number: '6212345678901231', expireMonth: 6, expireYear: '2031', cvv: '999', name: 'A' },
    { number: '5555555555554444', expireMonth: '9', expireYear: 2040, cvv: '000' },
  ])('%j', (card) => {
    expect(v.safeParse(NonceRequestSchema, checkCard(card).body).success).toBe(true);
  });
});

describe('a refusal’s code by its status', () => {
  it.each([
    [400, 'invalid_request'],
    [401, 'unauthorized'],
    [403, 'forbidden'],
    [404, 'not_found'],
    [408, 'timeout'],
    [409, 'conflict'],
    [413, 'invalid_request'],
    [429, 'rate_limited'],
    [500, 'server_error'],
    [503, 'server_error'],
  ])('HTTP %i is %s', (status, code) => {
    expect(refusal(status, { code: '4080', name: 'REQUEST_TIMEOUT' }, 'x')).toMatchObject({ code, status, reason: 'REQUEST_TIMEOUT' });
  });
});
