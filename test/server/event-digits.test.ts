// No event of onEvent keeps a run of digits a card number could be, in any field: a notification's
// kind and ids as posted, a call's path and message built from a merchant's id, a handler's error.
import { describe, expect, it } from 'vitest';
import { createGateway, type GatewayEvent } from '../../src/server';
import { SERVICE_ID } from '../../src/shared/errors';
import { refusal, useSandbox } from './helpers';

const ctx = useSandbox();
const AUTH = 'Bearer digits-notify';
const PANS = ['4111111111111111', '4111 1111 1111 1111', '5105-1051-0510-5100'];

/** The ids the service hands out, which the rule keeps whole (random hex may hold twelve digits in a row). */
const UUID = new RegExp(SERVICE_ID, 'gi');

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

  it('keeps the ids the service hands out whole: a UUID, a payment id and a session id holding twelve digits in a row', async () => {
    const events: GatewayEvent[] = [];
    const gateway = createGateway({ ...ctx.options, onEvent: (e) => events.push(e) });
    // Ids of the service's shapes that random hex made with a run of digits (one in 75 payment ids is so).
    const ids = ['123e4567-e89b-12d3-a456-426614174000', 'PAY-C227A036460353722D92D89E', '91e6ada2c1bc3bd190408247740088e4'];
    await refusal(gateway.payments.get(ids[0]!), 'not_found');
    await refusal(gateway.payments.get(ids[1]!), 'not_found');
    await refusal(gateway.payments.session(ids[2]!), 'not_found');
    expect(events.map((e) => (e as { path: string }).path)).toEqual(ids.map((id) => expect.stringContaining(id)));
    expect(events.map((e) => e.message)).toEqual(ids.map((id) => expect.stringContaining(id)));
  });
});
