// The small fixes of the review "TEXT leaking": the shapes kept of a service's identifiers, the CVV
// handler's reason and digit folding, a merchant's network error on the page, and the scrub itself.
// test/security/echo.test.ts runs every call path against a service that quotes its requests.
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox';
import { createGateway, type GatewayEvent } from '../../src/server';
import { rendersCvv } from '../../src/server/routes/cvv';
import { scrubAnswerText, scrubText, secretsOf } from '../../src/server/scrub';
import { PayframeError } from '../../src/shared/errors';

const CARD = '4111111111111111';
const FRAMES = 'https://frames.example';

/** A gateway whose service (a stand-in `fetch`) refuses every call with `body`; its events are recorded. */
function refusing(body: unknown, status = 400) {
  const events: GatewayEvent[] = [];
  const fetch = (async () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })) as typeof globalThis.fetch;
  const gateway = createGateway({
    merchantId: 'm-1',
    clientId: 'c',
    clientSecret: 's3cret-value',
    baseUrl: 'http://127.0.0.1:9',
    retries: 0,
    fetch,
    onEvent: (e) => void events.push(e),
  });
  return { gateway, events };
}

describe("the shapes kept of a service's identifiers cannot carry a card number", () => {
  it.each([`DECLINED${CARD}`, `CARD_${CARD.match(/.{4}/g)!.join('_')}`, 'A1B2C3D4E5F6G7H8I9J0K1L2'])(
    'a name %s is no reason: not in the error, the event, the page',
    async (name) => {
      const { gateway, events } = refusing({ code: '4000', name, message: 'refused', eventId: `ev-${CARD}` });
      const error = (await gateway.payments.get('PAY-1').catch((e: unknown) => e)) as PayframeError;
      expect(error).toMatchObject({ code: 'invalid_request', status: 400, reason: undefined, eventId: undefined });
      const page = await gateway.handlers.clientToken()(new Request('https://shop.example/t', { method: 'POST' }));
      const texts = [JSON.stringify(error), error.stack, JSON.stringify(events), await page.text()].join('\n');
      expect(texts.replace(/\D/g, ' ')).not.toMatch(/\d{12}/);
      expect(texts).not.toContain(name);
    },
  );

  it('keeps an identifier and a UUID event id as they are', async () => {
    const eventId = '0f8e2c1a-3b4d-4e5f-8a9b-012345678901';
    const { gateway, events } = refusing({ code: '5110', name: 'REFUND_EXCEEDS_AMOUNT', message: 'no', eventId }, 409);
    await expect(gateway.payments.refund('PAY-1')).rejects.toMatchObject({
      message: 'POST /v1/merchants/m-1/payment/PAY-1/refund: REFUND_EXCEEDS_AMOUNT',
      reason: 'REFUND_EXCEEDS_AMOUNT',
      resultCode: '5110',
      eventId,
      body: { code: '5110', name: 'REFUND_EXCEEDS_AMOUNT', message: 'no', eventId },
    });
    expect(events[0]).toMatchObject({ error: { reason: 'REFUND_EXCEEDS_AMOUNT', resultCode: '5110', eventId } });
  });
});

describe('handlers.cvv', () => {
  const post = (cvv: string) =>
    new Request('https://shop.example/cvv', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: FRAMES },
      body: JSON.stringify({ cvv }),
    });

  it('answers a reason `handle` gives only in its shape', async () => {
    const { gateway } = refusing({});
    const handler = gateway.handlers.cvv({
      frameOrigin: FRAMES,
      handle: () => {
        throw new PayframeError('invalid_card', 'Wrong security code: 0 4 2.', { reason: 'CVV 042 WRONG' });
      },
    });
    const response = await handler(post('042'));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: 'invalid_card', message: 'the payment was refused' } });
  });

  it.each([
    ['Arabic-Indic', '٠٤٢'],
    ['Persian', '۰۴۲'],
    ['Devanagari', '०४२'],
    ['fullwidth', '０４２'],
    ['Arabic-Indic, spaced', '٠ ٤ ٢'],
  ])('finds the CVV in %s digits', (_, rendering) => {
    expect(rendersCvv(`said: ${rendering}`, '042')).toBe(true);
    expect(rendersCvv('order ٧٧١٩ refused', '042')).toBe(false);
  });

  it("answers a network error of the merchant's own, even worded as payframe words its own, with the generic words", async () => {
    const { gateway } = refusing({});
    const handler = gateway.handlers.cvv({
      frameOrigin: FRAMES,
      handle: () => {
        throw new PayframeError('network', 'ledger: the connection failed');
      },
    });
    const response = await handler(post('042'));
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: { code: 'network', message: 'the payment service failed or refused this server' } });
  });
});

describe("a connection of the gateway's own that failed, to the page", () => {
  it("is told in payframe's words made from the error's fields: an untrusted certificate, with what to do", async () => {
    // src/sandbox's own startSandbox: a certificate made at its start, which this run does not trust.
    const sandbox = await startSandbox();
    try {
      const { id, clientId, clientSecret } = sandbox.merchant;
      const gateway = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: sandbox.url });
      const response = await gateway.handlers.clientToken()(new Request('https://shop.example/t', { method: 'POST' }));
      expect(response.status).toBe(502);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('network');
      expect(error.message).toMatch(
        /^the service's TLS certificate is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\); for the local sandbox, .*NODE_EXTRA_CA_CERTS/,
      );
    } finally {
      await sandbox.close();
    }
  });
});

describe('the scrub', () => {
  const secrets = secretsOf(`Basic ${btoa('c:s3cret+/x')}`, {
    funding_instrument: { credit_card: { number: CARD, cvv2: '0739' } },
    otp: '582913',
  });

  it('takes the credentials and the secret fields of the body, nothing else', () => {
    expect(secrets).toEqual([btoa('c:s3cret+/x'), 's3cret+/x', CARD, '0739', '582913']);
    expect(secretsOf(`Basic ${btoa('c:s')}`, { invoice_number: '123', amount: '10.00' })).toEqual([btoa('c:s'), 's']);
  });

  it('removes every rendering, and leaves other numbers, UUIDs and prose alone', () => {
    const text = `cvv 0739, 739, 7-3-9, ٠٧٣٩; card ${CARD.match(/.{4}/g)!.join(' ')} ٤١١١١١١١١١١١١١١١; otp 582913; secret s3cret+/x s3cret%2B%2Fx; basic ${btoa('c:s3cret+/x')}`;
    expect(scrubText(text, secrets)).toBe(
      'cvv [scrubbed], [scrubbed], [scrubbed], [scrubbed]; card [scrubbed] [scrubbed]; otp [scrubbed]; secret [scrubbed] [scrubbed]; basic [scrubbed]',
    );
    const kept = 'amount 17390, order 7391, event 0f8e2c1a-3b4d-4e5f-8a9b-0c1d2e739a5b, invalid request';
    expect(scrubText(kept, secrets)).toBe(kept);
  });

  it('scrubs a 1 MiB refusal quickly, and drops what is nested deeper than 64 levels: still a typed error', async () => {
    const deep = `${'['.repeat(200_000)}"0739"${']'.repeat(200_000)}`;
    const long = JSON.stringify({ code: '4000', name: 'INVALID_REQUEST', message: `cvv 0739 ${'x 7 3 9 '.repeat(120_000)}` });
    for (const body of [deep, long]) {
      const fetch = (async () =>
        new Response(body, { status: 400, headers: { 'content-type': 'application/json' } })) as typeof globalThis.fetch;
      const gateway = createGateway({ merchantId: 'm-1', clientId: 'c', clientSecret: 's', baseUrl: 'http://127.0.0.1:9', fetch });
      const started = performance.now();
      const error = await gateway.payments
        .create({ intent: 'sale', amount: { currency: 'EUR', total: '1.00' }, card: { savedCardId: 'CARD-1', cvv: '0739' } })
        .catch((e: unknown) => e);
      expect(performance.now() - started).toBeLessThan(5000); // a scrub quadratic in the body takes minutes
      expect(error).toMatchObject({ code: 'invalid_request', status: 400 });
      expect(JSON.stringify((error as PayframeError).body)).not.toMatch(/0739|7 3 9/);
    }
  });

  it('scrubs a JSON answer value by value: its texts, its keys and its numbers, and keeps it JSON', () => {
    const scrubbed = JSON.parse(scrubAnswerText(JSON.stringify({ cvv2: 739, message: 'cvv 0739', [CARD]: 'x', amount: 17.39 }), secrets));
    expect(scrubbed).toEqual({ cvv2: '[scrubbed]', message: 'cvv [scrubbed]', '[scrubbed]': 'x', amount: 17.39 });
  });
});
