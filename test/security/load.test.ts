/**
 * Issue 12, "Load": many calls at once against the real sandbox over HTTPS. 200 mixed captures, voids
 * and refunds on one payment keep every rule of the state machine (at most one capture, a void only
 * before it, refunds within what was captured); 1,000 tokenisations at once each end in a nonce or a
 * typed error, and none is lost. Generous deadlines: the test counts outcomes, it does not time them.
 */
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src';
import { isPayframeError, type PayframeError } from '../../src/shared/errors';
import { type SandboxHandle, startSandbox, testCards } from '../setup/sandbox';
import { createGateway, type Gateway } from '../../src/server';
import { cardOf, mintToken, payWithNonce } from '../client/helpers';

let sandbox: SandboxHandle;
let gateway: Gateway;
let patient: Agent;
beforeAll(async () => {
  // 200 TLS handshakes at once on a loaded machine outlast the default 10 s a silent connection gets (seen
  // as `network` refusals at a load average of 20): this test counts outcomes, not the sandbox's limits.
  // fetch's own 10 s to connect is the client's side of the same (a `network` refusal in a loaded run).
  sandbox = await startSandbox({ idleTimeoutMs: 120_000 });
  const { id, clientId, clientSecret } = sandbox.merchant;
  patient = new Agent({ connect: { timeout: 120_000 } });
  const fetch = ((url, init) => undiciFetch(url as string, { ...init, dispatcher: patient } as never)) as typeof globalThis.fetch;
  gateway = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: sandbox.url, timeoutMs: 120_000, fetch });
});
afterAll(async () => {
  await patient.close();
  await sandbox.close();
});

/** A record's amount in cents (capture, void and refund records all carry one). */
const cents = (record: { transaction?: { amount?: { total: string } } }) => Math.round(Number(record.transaction?.amount?.total) * 100);

describe('200 concurrent captures, voids and refunds on one payment', () => {
  it('keep every rule: one capture or one void, refunds only after the capture and within it; each record readable', async () => {
    const auth = await gateway.payments.create({
      intent: 'auth',
      amount: { currency: 'EUR', total: '100.00' },
      card: cardOf(testCards.approved),
    });
    const id = auth.reference_id;
    // A capture in ten (of 60.00 or of the whole), a void in ten, the rest refunds of 1.00 to 5.00: together
    // far more than any capture, so that the refunds run into the captured amount.
    type Call = { kind: 'capture' | 'void' | 'refund'; amount?: string };
    const calls: Call[] = Array.from({ length: 200 }, (_, i) =>
      i % 10 === 0
        ? { kind: 'capture', amount: i % 20 === 0 ? undefined : '60.00' }
        : i % 10 === 1
          ? { kind: 'void' }
          : { kind: 'refund', amount: `${1 + (i % 5)}.00` },
    );
    const before = sandbox.requests().length;

    const outcomes = await Promise.allSettled(
      calls.map(({ kind, amount }) => {
        const options = amount === undefined ? {} : { amount: { currency: 'EUR', total: amount } };
        return kind === 'capture'
          ? gateway.payments.capture(id, options)
          : kind === 'void'
            ? gateway.payments.void(id)
            : gateway.payments.refund(id, options);
      }),
    );

    const won = (kind: Call['kind']) => outcomes.flatMap((o, i) => (o.status === 'fulfilled' && calls[i]!.kind === kind ? [o.value] : []));
    const [captures, voids, refunds] = [won('capture'), won('void'), won('refund')];
    // Nothing lost: every call settled, each success a record and each failure a typed refusal of the state machine.
    expect(outcomes).toHaveLength(200);
    const reasons = new Set(
      outcomes.flatMap((o) =>
        o.status === 'rejected' ? [`${(o.reason as PayframeError).code} ${(o.reason as PayframeError).reason}`] : [],
      ),
    );
    expect(
      [...reasons].every((r) =>
        /^conflict (?:ALREADY_CAPTURED|VOID_NOT_ALLOWED|INVALID_STATE|REFUND_EXCEEDS_AMOUNT|ALREADY_REFUNDED)$/.test(r),
      ),
      [...reasons].join(),
    ).toBe(true);
    expect(captures.length + voids.length).toBe(1);
    if (voids.length === 1) expect(refunds).toEqual([]);
    const captured = captures.length === 1 ? cents(captures[0]!) : 0;
    const refunded = refunds.reduce((sum, r) => sum + cents(r), 0);
    expect(refunded).toBeLessThanOrEqual(captured);

    const final = await gateway.payments.get(id);
    expect(final.state).toBe(voids.length === 1 ? 'voided' : refunded === captured ? 'refunded' : 'captured');
    for (const record of [...captures, ...voids, ...refunds]) {
      const read = await gateway.payments.get(record.id);
      expect([read.id, read.reference_id, read.state, cents(read)]).toEqual([record.id, id, record.state, cents(record)]);
    }
    // Every call reached the service once: a POST is never repeated (the service has no idempotency key).
    const posts = sandbox
      .requests()
      .slice(before)
      .filter((r) => r.method === 'POST' && r.path.startsWith(`/v1/merchants/${sandbox.merchant.id}/payment/${id}/`));
    expect(posts).toHaveLength(200);
    // The run did reach the rules: refunds after the capture, until the next one would go past it.
    if (captures.length === 1) expect([refunds.length > 0, reasons.has('conflict REFUND_EXCEEDS_AMOUNT')]).toEqual([true, true]);
  }, 180_000);
});

describe('1,000 concurrent tokenisations', () => {
  it('each ends in a nonce or a typed error, twins share one nonce, and no answer is lost', async () => {
    let authorizations = 0;
    const client = createClient({
      merchantId: sandbox.merchant.id,
      baseUrl: sandbox.url,
      timeoutMs: 120_000,
      authorization: () => (authorizations++, mintToken(sandbox)),
    });
    // 800 distinct cards (CVVs 100-899), 100 exact twins of some of them (a double click), 100 invalid ones.
    const cards = Array.from({ length: 1000 }, (_, i) =>
      i < 800
        ? { ...cardOf(testCards.approved), cvv: String(100 + i) }
        : i < 900
          ? { ...cardOf(testCards.approved), cvv: String(100 + (i - 800) * 7) }
          : { ...cardOf(testCards.approved), number: '4111111111111112' },
    );
    // Some answers fail on the way: the client retries them (a spare nonce expires unused).
    sandbox.injectFault({ kind: 'error', method: 'POST', path: `/v1/merchants/${sandbox.merchant.id}/credit-card-nonce`, times: 50 });

    const outcomes = await Promise.allSettled(cards.map((card) => client.tokenize(card)));

    expect(outcomes).toHaveLength(1000);
    const failures = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [[i, o.reason] as const] : []));
    for (const [, reason] of failures) expect(isPayframeError(reason), String(reason)).toBe(true);
    expect(failures.filter(([i]) => i >= 900).map(([, e]) => (e as PayframeError).code)).toEqual(Array(100).fill('invalid_card'));
    // The valid ones: a nonce each, unless the retries ran out on an injected 500 (a typed server_error).
    const others = failures.filter(([i]) => i < 900).map(([, e]) => (e as PayframeError).code);
    expect(others.every((code) => code === 'server_error')).toBe(true);
    const nonces = outcomes.slice(0, 900).map((o) => (o.status === 'fulfilled' ? o.value.nonce : undefined));
    for (let i = 800; i < 900; i++) if (nonces[i] && nonces[(i - 800) * 7]) expect(nonces[i]).toBe(nonces[(i - 800) * 7]);
    const distinct = new Set(nonces.slice(0, 800).filter(Boolean));
    expect(distinct.size).toBe(nonces.slice(0, 800).filter(Boolean).length);
    expect(distinct.size).toBeGreaterThan(700);
    expect(authorizations).toBe(1);
    // The nonces are real: a sample pays.
    for (const nonce of [...distinct].filter((_, i) => i % 100 === 0))
      expect((await payWithNonce(sandbox, nonce!)).body.state).toBe('captured');
  }, 180_000);
});
