// No event of onEvent keeps a run of digits a card number could be, in any field: a notification's
// kind and ids as posted, a call's path and message built from a merchant's id, a handler's error.
import { describe, expect, it } from 'vitest';
import { createGateway, type GatewayEvent } from '../../src/server';
import { refusal, useSandbox } from './helpers';

const ctx = useSandbox();
const AUTH = 'Bearer digits-notify';
const PANS = ['4111111111111111', '4111 1111 1111 1111', '5105-1051-0510-5100'];

/** A UUID, which the rule keeps whole (its groups may hold digits that meet once the dashes go). */
const UUID = /\b[\da-f]{8}(?:-[\da-f]{4}){3}-[\da-f]{12}\b/gi;

/** Every text of the events but their UUIDs, with separators between digits taken out: no 12 digits may stand together. */
function expectNoDigitRun(events: GatewayEvent[]) {
  expect(events.length).toBeGreaterThan(0);
  for (const event of events) {
    const text = JSON.stringify(event)
      .replace(UUID, 'uuid')
      .replace(/(?<=\d)[\s./_-]{1,3}(?=\d)/g, '');
    expect(text, text).not.toMatch(/\d{12}/);
  }
}

const form = (payload: unknown) =>
  new URLSearchParams({ pg_signature: 'f00d', pg_payload: Buffer.from(JSON.stringify(payload)).toString('base64') }).toString();

describe('onEvent events: no card-number run of digits in any field', () => {
  it('masks the kind and ids a notification posted, keeping the last four', async () => {
    const events: GatewayEvent[] = [];
    const gateway = createGateway({ ...ctx.options, onEvent: (e) => events.push(e) });
    const handler = gateway.handlers.notification({ authorization: AUTH, onPayment: () => {} });
    for (const pan of PANS) {
      const response = await handler(
        new Request('https://shop.example/ipn', {
          method: 'POST',
          headers: { authorization: AUTH, 'content-type': 'application/x-www-form-urlencoded' },
          body: form({
            id: `WH-${pan}`,
            create_time: new Date().toISOString(),
            resource_type: 'payment',
            kind: `PAYMENT.SALE.${pan.replace(/\D/g, '')}`,
            resource: { reference_id: `ORDER${pan.replace(/\D/g, '')}` },
          }),
        }),
      );
      expect(response.status).toBeGreaterThanOrEqual(400);
    }
    expectNoDigitRun(events);
    expect(events.map((e) => e.message).join('\n')).toContain('****1111');
  });

  it("masks a merchant's id in a call's path and message, and in the error", async () => {
    const events: GatewayEvent[] = [];
    const gateway = createGateway({ ...ctx.options, onEvent: (e) => events.push(e) });
    await refusal(gateway.payments.get('ORDER4111111111111111'), 'not_found');
    await refusal(gateway.payments.get('PAY-5555555555554444-x'), 'not_found');
    expectNoDigitRun(events);
    const [first] = events;
    expect(first).toMatchObject({ type: 'call', method: 'GET', status: 404 });
    expect((first as { path: string }).path).toMatch(/\/payment\/ORDER\*\*\*\*1111$/);
  });

  it('keeps a UUID whole (the service names its event ids so), and masks a card number in the shape of a payment id', async () => {
    const events: GatewayEvent[] = [];
    const gateway = createGateway({ ...ctx.options, onEvent: (e) => events.push(e) });
    await refusal(gateway.payments.get('123e4567-e89b-12d3-a456-426614174000'), 'not_found');
    expect((events[0] as { path: string }).path).toContain('123e4567-e89b-12d3-a456-426614174000');
    await refusal(gateway.payments.get('PAY-4111111111111111ABCDEF12'), 'not_found');
    await refusal(gateway.payments.get('pay-5105105105105100aaaaaaaa'), 'not_found');
    expectNoDigitRun(events);
  });
});
