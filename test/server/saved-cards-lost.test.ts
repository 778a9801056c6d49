// A change of the payer's cards whose answer was lost (the sandbox's `lose` fault: the vault changes,
// the answer never comes) is read again from the payer's cards: the page is told it was done, not
// "the connection failed", and a second press does not meet "no such card among yours".
import { beforeAll, describe, expect, it } from 'vitest';
import { readSavedCard, type SavedCardsAnswer } from '../../src/server';
import { EUR, fullCard, testCards, useSandbox } from './helpers';

const ctx = useSandbox();
const mastercard = { ...testCards.approved, number: '5555555555554444' };
const amex = { ...testCards.approved, number: '378282246310005', expireMonth: 3, expireYear: 2031 };
const payer = { id: '', cards: [] as string[] };
let handler: ReturnType<typeof ctx.gateway.handlers.savedCards>;

beforeAll(async () => {
  for (const card of [testCards.approved, mastercard, amex]) {
    const payment = await ctx.gateway.payments.create({
      intent: 'auth',
      amount: EUR('5.00'),
      card: fullCard(card),
      payer: { email: 'lost-answers@example.com', name: 'Lost Answers' },
    });
    payer.id = payment.payer!.payer_info!.id!;
    payer.cards.push(readSavedCard(payment).savedCardId!);
  }
  handler = ctx.gateway.handlers.savedCards({ payerOf: () => payer.id });
});

const press = (action: 'remove' | 'default', cardId: string) =>
  handler(
    new Request('https://shop.example/account/cards', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action, cardId }),
    }),
  );
const lose = (method: 'DELETE' | 'PUT') =>
  ctx.sandbox.injectFault({ kind: 'lose', method, path: `/v1/merchants/${ctx.sandbox.merchant.id}/payer/${payer.id}` });

describe('handlers.savedCards after a lost answer', () => {
  it('a removal the service made answers the cards without it', async () => {
    const [, , removed] = payer.cards;
    lose('DELETE');
    const response = await press('remove', removed!);
    expect(response.status).toBe(200);
    const { cards } = (await response.json()) as SavedCardsAnswer;
    expect(cards.map((c) => c.id)).not.toContain(removed);
    expect((await ctx.gateway.payers.cards(payer.id)).credit_cards.map((c) => c.id)).not.toContain(removed);
  });

  it('a new default the service made answers the cards with it first', async () => {
    const [, second] = payer.cards;
    lose('PUT');
    const response = await press('default', second!);
    expect(response.status).toBe(200);
    const { cards } = (await response.json()) as SavedCardsAnswer;
    expect(cards[0]).toMatchObject({ id: second, isDefault: true });
  });

  it('a change that did not happen (the request dropped before the service acted) is still the failure', async () => {
    const [first] = payer.cards;
    ctx.sandbox.injectFault({ kind: 'drop', method: 'DELETE', path: `/v1/merchants/${ctx.sandbox.merchant.id}/payer/${payer.id}` });
    const response = await press('remove', first!);
    expect(response.status).toBe(502);
    expect((await ctx.gateway.payers.cards(payer.id)).credit_cards.map((c) => c.id)).toContain(first);
  });
});
