// The one error class and its messages (issue 7, items 7 and "surface"): a message names the field,
// never the value; redaction hides credentials without eating ordinary words; isPayframeError works
// across copies of the library.
import { runInNewContext } from 'node:vm';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, isPayframeError, PayframeError, redact } from '../src/shared/errors';
import { issueMessage, NonceRequestSchema, PaymentRequestSchema } from '../src/schemas';
import { startSandbox, testCards } from './setup/sandbox';
import { createGateway } from '../src/server';
import { useSandbox } from './sandbox/helpers';

const box = useSandbox();

describe('redact', () => {
  it('keeps ordinary words after Basic and Bearer', () => {
    expect(redact('Missing or wrong Basic credentials for this merchant')).toBe('Missing or wrong Basic credentials for this merchant');
    expect(redact('send a Bearer token')).toBe('send a Bearer token');
    expect(redact('Missing Basic credentials.')).toBe('Missing Basic credentials.');
  });

  it('hides what looks like a credential, in any letter case of the scheme', () => {
    const encoded = btoa('sandbox-client:sandbox-secret');
    expect(redact(`Authorization: Basic ${encoded}`)).toBe('Authorization: Basic [redacted]');
    expect(redact('bearer Zm9vYmFyYmF6cXV4')).toBe('bearer [redacted]');
    expect(redact('BEARER abc.def-ghi')).toBe('BEARER [redacted]');
    // Lower-case letters alone, but too long to be a word of a message.
    expect(redact('Bearer abcdefghijklmnopqrstuvwxyz')).toBe('Bearer [redacted]');
    expect(redact('Basic Credentials')).toBe('Basic [redacted]');
  });

  it('masks card numbers to their last four', () => {
    expect(redact('card 4111 1111 1111 1111 and 4111-1111-1111-1111')).toBe('card ****1111 and ****1111');
    expect(redact('pan=4111111111111111&x')).toBe('pan=****1111&x');
  });

  it('masks a card number in any script and with any separator a paste brings, the same shape the sandbox masks', () => {
    expect(redact('dotted 4111.1111.1111.1111, slashed 4111/1111/1111/1111')).toBe('dotted ****1111, slashed ****1111');
    expect(redact('Arabic-Indic ٤١١١١١١١١١١١١١١١')).toBe('Arabic-Indic ****١١١١');
  });

  it('leaves the digits inside an id alone: a payment id may hold twelve of them in a row', () => {
    expect(redact('PAY-123456789012345678AB is a capture record')).toBe('PAY-123456789012345678AB is a capture record');
    expect(redact('act on its payment PAY-AB123456789012345678')).toBe('act on its payment PAY-AB123456789012345678');
  });

  it('leaves a UUID whole, even when its last group is twelve digits', () => {
    expect(redact('nonce 0923f8b3-8828-4cf3-b207-459927110614 used')).toBe('nonce 0923f8b3-8828-4cf3-b207-459927110614 used');
    expect(redact('0923f8b3-8828-4cf3-b207-459927110614 4111111111111111')).toBe('0923f8b3-8828-4cf3-b207-459927110614 ****1111');
  });
});

describe('isPayframeError', () => {
  it('knows a PayframeError made by another copy of the library (another realm, another bundle)', () => {
    const foreign = runInNewContext(`
      class PayframeError extends Error { constructor() { super('x'); this.name = 'PayframeError'; this.code = 'conflict'; } }
      new PayframeError();
    `);
    expect(foreign instanceof PayframeError).toBe(false);
    expect(isPayframeError(foreign)).toBe(true);
    // The same error after a trip through structured clone (postMessage from a frame or a worker).
    expect(isPayframeError(structuredClone({ ...new PayframeError('timeout', 'slow').toJSON() }))).toBe(true);
  });

  it('refuses look-alikes: another name, an unknown code, a primitive', () => {
    expect(isPayframeError({ name: 'PayframeError', code: 'teapot' })).toBe(false);
    expect(isPayframeError({ name: 'Error', code: 'conflict' })).toBe(false);
    expect(isPayframeError(Object.assign(new Error('x'), { code: 'conflict' }))).toBe(false);
    expect(isPayframeError('PayframeError')).toBe(false);
    expect(isPayframeError(null)).toBe(false);
    expect(ERROR_CODES).toContain('aborted');
  });

  it('has no declined code: a declined payment is returned, not thrown; README lists the codes there are', async () => {
    expect(ERROR_CODES).not.toContain('declined');
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Errors in the library'), readme.indexOf('It also carries `status`'));
    const listed = [...section.matchAll(/`([a-z_]+)`/g)]
      .map((m) => m[1])
      .filter((c) => c === c!.toLowerCase() && c!.length > 4 && !['number', 'expiry', 'expireMonth', 'fields', 'signal'].includes(c!));
    for (const code of ERROR_CODES) expect(listed, code).toContain(code);
    expect(listed).not.toContain('declined');
  });
});

describe('messages name the field, never the value', () => {
  it('keeps valibot from quoting the input, whether or not it says what it expected', () => {
    const integer = v.safeParse(NonceRequestSchema, { number: '4111111111111111', expire_month: 7.25, expire_year: 2034 });
    expect(integer.issues?.[0]?.message).toContain('Received 7.25'); // what valibot says
    expect(issueMessage(integer.issues![0])).toBe('expire_month is invalid: expected integer');
    const type = v.safeParse(NonceRequestSchema, { number: 4111111111111111, expire_month: 1, expire_year: 2034 });
    expect(issueMessage(type.issues![0])).toBe('number is invalid: expected string');
  });

  it('in the sandbox: a capitalised "Received 7.25" does not slip through', async () => {
    const token = await fetch(`${box.sb.url}/v1/merchants/${box.sb.merchant.id}/client_token`, {
      method: 'POST',
      headers: { authorization: `Basic ${btoa('sandbox-client:sandbox-secret')}`, 'content-type': 'application/json' },
      body: "'grant_type=client_credentials'",
    }).then((r) => r.json());
    const res = await fetch(`${box.sb.url}/v1/merchants/${box.sb.merchant.id}/credit-card-nonce`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ number: testCards.approved.number, expire_month: 7.25, expire_year: 2034, cvv2: '123' }),
    });
    const body = await res.json();
    expect(res.status).toBe(400);
    expect(body.message).toBe('expire_month is invalid: expected integer');
  });

  it('in the sandbox: the 401 says "Basic credentials" in full', async () => {
    const res = await fetch(`${box.sb.url}/v1/merchants/${box.sb.merchant.id}/payment/PAY-1`);
    expect(res.status).toBe(401);
    expect((await res.json()).message).toBe('Missing or wrong Basic credentials for this merchant');
  });

  it('in the server companion: an OTP sent as a number is not in the message nor in toJSON()', async () => {
    const sandbox = await startSandbox();
    try {
      const { id, clientId, clientSecret } = sandbox.merchant;
      const gateway = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: sandbox.url });
      const error = await gateway.payments
        .authenticate({ authenticateUrl: gateway.authenticateUrl('a'.repeat(32)), referenceId: 'PAY-1', otp: 654321 as never })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'invalid_request', message: 'otp is invalid: expected string' });
      expect(JSON.stringify(error)).not.toContain('654321');
      expect(String(error)).not.toContain('654321');
      expect(sandbox.requests()).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });
});

describe('issueMessage', () => {
  it("keeps the schemas' own messages, which say what is wrong and never the value", () => {
    const ok = {
      intent: 'sale',
      payer: { payment_type: 'CC', funding_instrument: { credit_card_nonce: { nonce: '11111111-1111-4111-8111-111111111111' } } },
      transaction: { amount: { currency: 'EUR', total: '1.00' } },
    };
    const messages = (body: unknown) => issueMessage(v.safeParse(PaymentRequestSchema, body).issues![0]);
    expect(messages({ ...ok, custom: [] })).toBe('custom: must be an object, not an array');
    for (const funding of [
      {},
      { credit_card_nonce: 5 },
      { credit_card_nonce: { nonce: '11111111-1111-4111-8111-111111111111' }, credit_card_token: { credit_card_id: 'c' } },
    ]) {
      const message = messages({ ...ok, payer: { ...ok.payer, funding_instrument: funding } });
      expect(message, JSON.stringify(funding)).toMatch(
        /^payer\.funding_instrument: .*exactly one of credit_card, credit_card_token, credit_card_nonce/,
      );
    }
  });

  it("keeps a long field name short: an unknown key is the sender's text", () => {
    const schema = v.strictObject({ a: v.optional(v.string()) });
    const issue = v.safeParse(schema, { ['k'.repeat(5000)]: 1 }).issues![0];
    const message = issueMessage(issue);
    expect(message.length).toBeLessThan(140);
    expect(message).toMatch(/^k+… is not an allowed field$/);
  });
});
