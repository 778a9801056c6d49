import { beforeAll, describe, expect, it } from 'vitest';
import { PayframeError, readSavedCard, type SavedCardsAnswer } from '../../src/server';
import { EUR, fullCard, testCards, useSandbox } from './helpers';

// handlers.savedCards: the payer's page lists, removes and makes default only the session's payer's own cards.
const ctx = useSandbox();
const mastercard = { ...testCards.approved, number: '5555555555554444' };
const amex = { ...testCards.approved, number: '378282246310005', expireMonth: 3, expireYear: 2031 };

/** The merchant's own sessions: a cookie names the shopper, the shopper has a vault payer id (or none yet). */
const sessions = new Map<string, string | undefined>();
let handler: ReturnType<typeof ctx.gateway.handlers.savedCards>;
const ada = { payerId: '', ids: [] as string[] };
const bob = { payerId: '', ids: [] as string[] };

async function keep(who: { payerId: string; ids: string[] }, email: string, cards: (typeof testCards.approved)[]) {
  for (const card of cards) {
    const payment = await ctx.gateway.payments.create({
      intent: 'auth',
      amount: EUR('5.00'),
      card: fullCard(card),
      payer: { email, name: email },
    });
    who.payerId = payment.payer!.payer_info!.id!;
    who.ids.push(readSavedCard(payment).savedCardId!);
  }
}

beforeAll(async () => {
  await keep(ada, 'ada-kept@example.com', [testCards.approved, mastercard, amex]);
  await keep(bob, 'bob-kept@example.com', [mastercard]);
  sessions.set('ada', ada.payerId).set('bob', bob.payerId).set('new', undefined);
  handler = ctx.gateway.handlers.savedCards({
    payerOf: (request) => {
      const session = /(?:^|;\s*)session=(\w+)/.exec(request.headers.get('cookie') ?? '')?.[1];
      if (session === undefined || !sessions.has(session)) throw new PayframeError('unauthorized', 'sign in first');
      return sessions.get(session);
    },
  });
});

const as = (session: string | undefined, method = 'GET', body?: unknown, type = 'application/json') =>
  handler(
    new Request('https://shop.example/account/cards', {
      method,
      headers: { ...(session ? { cookie: `session=${session}` } : {}), ...(body === undefined ? {} : { 'content-type': type }) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
const cardsOf = async (session: string) => ((await (await as(session)).json()) as SavedCardsAnswer).cards;
const changes = () => ctx.sandbox.requests().filter((r) => r.method === 'PUT' || r.method === 'DELETE').length;

describe('handlers.savedCards', () => {
  it('GET answers only what the page may show, the default first, never cached', async () => {
    const response = await as('ada');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      cards: [
        { id: ada.ids[0], brand: 'visa', last4: '1111', expireMonth: 12, expireYear: 2034, isDefault: true },
        { id: ada.ids[1], brand: 'mastercard', last4: '4444', expireMonth: 12, expireYear: 2034, isDefault: false },
        { id: ada.ids[2], brand: 'american-express', last4: '0005', expireMonth: 3, expireYear: 2031, isDefault: false },
      ],
    });
    // Nothing else the vault holds: no BIN, no payer, no name.
    expect(text).not.toMatch(/411111|555555|PAYER-|ada-kept|bin/);
    expect(await cardsOf('new')).toEqual([]);
  });

  it("POST default makes one of the payer's own cards the default; POST remove removes it; each answers the cards after it", async () => {
    const made = await as('ada', 'POST', { action: 'default', cardId: ada.ids[2] });
    expect(made.status).toBe(200);
    const after = ((await made.json()) as SavedCardsAnswer).cards;
    expect(after.map((c) => [c.id, c.isDefault])).toEqual([
      [ada.ids[2], true],
      [ada.ids[0], false],
      [ada.ids[1], false],
    ]);
    // The payer's own name and email went with the card (setDefaultCard), not the page's.
    expect(ctx.sandbox.requests().at(-2)).toMatchObject({
      method: 'PUT',
      body: { email: 'ada-kept@example.com', default_card: ada.ids[2] },
    });

    const removed = await as('ada', 'POST', { action: 'remove', cardId: ada.ids[1] });
    expect(removed.status).toBe(200);
    expect(((await removed.json()) as SavedCardsAnswer).cards.map((c) => c.id)).toEqual([ada.ids[2], ada.ids[0]]);
    const pay = ctx.gateway.payments.create({ intent: 'sale', amount: EUR('1.00'), card: { savedCardId: ada.ids[1]!, cvv: '123' } });
    await expect(pay).rejects.toMatchObject({ code: 'not_found' });
  });

  it("a second payer trying the first one's card ids: 404, nothing sent to change them, nothing changed", async () => {
    const before = await cardsOf('ada');
    const sent = changes();
    for (const cardId of [...ada.ids, 'CARD-NONE']) {
      for (const action of ['remove', 'default']) {
        const response = await as('bob', 'POST', { action, cardId });
        expect(response.status, `${action} ${cardId}`).toBe(404);
        expect(await response.json()).toEqual({ error: { code: 'not_found', message: 'no such card among yours' } });
      }
    }
    // A shopper with no payer yet gets the same.
    expect((await as('new', 'POST', { action: 'remove', cardId: ada.ids[0] })).status).toBe(404);
    expect(changes()).toBe(sent);
    expect(await cardsOf('ada')).toEqual(before);
    expect((await cardsOf('bob')).map((c) => c.id)).toEqual(bob.ids);
  });

  it('takes the payer from the session only: a payer id in the body is refused, no session is 401', async () => {
    const sent = changes();
    const smuggled = await as('bob', 'POST', { action: 'remove', cardId: ada.ids[0], payerId: ada.payerId });
    expect(smuggled.status).toBe(400);
    expect(await smuggled.json()).toMatchObject({ error: { code: 'invalid_request', message: 'payerId is not an allowed field' } });
    const anonymous = await as(undefined, 'POST', { action: 'remove', cardId: ada.ids[0] });
    expect(anonymous.status).toBe(401);
    expect((await as(undefined)).status).toBe(401);
    expect(changes()).toBe(sent);
  });

  it('refuses what is not a JSON action: 400 naming the field, 415, 405 with Allow', async () => {
    const refused = async (response: Response, status: number) => {
      expect(response.status).toBe(status);
      return ((await response.json()) as { error: { message: string } }).error.message;
    };
    expect(await refused(await as('ada', 'POST', { action: 'delete', cardId: ada.ids[0] }), 400)).toBe('action: must be remove or default');
    expect(await refused(await as('ada', 'POST', { action: 'remove' }), 400)).toBe('cardId is required');
    expect(await refused(await as('ada', 'POST', { action: 'remove', cardId: '../x' }), 400)).toBe('cardId: must be a card id');
    expect(await refused(await as('ada', 'POST', `action=remove&cardId=${ada.ids[0]}`, 'application/x-www-form-urlencoded'), 415)).toMatch(
      /application\/json/,
    );
    const del = await as('ada', 'DELETE');
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('GET, POST');
  });

  it('refuses a payerOf that is not a function, or that answers no id', async () => {
    expect(() => ctx.gateway.handlers.savedCards({} as never)).toThrow(expect.objectContaining({ code: 'invalid_config' }));
    const odd = ctx.gateway.handlers.savedCards({ payerOf: () => 42 as never });
    const response = await odd(new Request('https://shop.example/account/cards'));
    expect(response.status).toBe(500);
  });
});
