// docs/saved-cards.md's server block run as written (against this build's dist/: `npm run build` first),
// pointed at a sandbox of the test's own: a card saved without paying, the shopper's route, a renewal.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox, testCards } from '../setup/sandbox';
import { createGateway, readPayment } from '../../src/server';
import { readmeBlock } from '../readme';

const root = new URL('../..', import.meta.url).pathname;
let sandbox: SandboxHandle;
let block: Record<string, any>;

/** The block as an ES module inside the package (so `payframe/server` is this build), on the test's sandbox. */
async function load(code: string, url: string) {
  expect(code).toContain('http://127.0.0.1:8443');
  const dir = join(root, 'reports/readme');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `saved-cards-${process.pid}-${Date.now()}.mjs`);
  writeFileSync(file, code.replaceAll('http://127.0.0.1:8443', url));
  return import(pathToFileURL(file).href);
}

async function nonce(card: { number: string; expireMonth: number; expireYear: number; cvv: string }) {
  const { id, clientId, clientSecret } = sandbox.merchant;
  const token = await createGateway({ merchantId: id, clientId, clientSecret, baseUrl: sandbox.httpUrl! }).clientToken();
  const response = await fetch(`${sandbox.httpUrl}/v1/merchants/${id}/credit-card-nonce`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ number: card.number, expire_month: card.expireMonth, expire_year: card.expireYear, cvv2: card.cvv }),
  });
  return ((await response.json()) as { data: { credit_card_nonce: string } }).data.credit_card_nonce;
}

const request = (sid: string | undefined, method = 'GET', body?: unknown) =>
  new Request('https://shop.example/account/cards', {
    method,
    headers: { ...(sid ? { cookie: `sid=${sid}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });

beforeAll(async () => {
  sandbox = await startSandbox({ plainHttp: true });
  block = await load(readmeBlock('server/saved-cards.mjs'), sandbox.httpUrl!);
  block.sessions.set('s-ada', 'ada').set('s-bob', 'bob');
  block.shoppers.set('ada', { email: 'ada-doc@example.com' }).set('bob', { email: 'bob-doc@example.com' });
});
afterAll(() => sandbox?.close());

describe('docs/saved-cards.md: server/saved-cards.mjs', () => {
  it("saves cards without paying, lists and changes only the shopper's own, and renews on the default", async () => {
    expect(await (await block.savedCards(request('s-ada'))).json()).toEqual({ cards: [] });
    expect((await block.savedCards(request(undefined))).status).toBe(401);

    expect(await block.saveCard('ada', await nonce(testCards.approved))).toEqual({ saved: true });
    expect(await block.saveCard('ada', await nonce({ ...testCards.approved, number: '5555555555554444' }))).toEqual({ saved: true });
    expect(await block.saveCard('ada', await nonce(testCards.declined))).toEqual({ saved: false, code: '1005' });
    expect(await block.saveCard('bob', await nonce(testCards.approved))).toEqual({ saved: true });
    const cards = (await (await block.savedCards(request('s-ada'))).json()).cards;
    expect(cards.map((c: any) => [c.brand, c.last4, c.isDefault])).toEqual([
      ['visa', '1111', true],
      ['mastercard', '4444', false],
    ]);
    // No money moved: nothing was captured.
    expect(
      sandbox
        .requests()
        .filter((r) => r.method === 'POST' && r.path.endsWith('/payment'))
        .every((r) => (r.body as any).transaction.amount.total === '0.00'),
    ).toBe(true);

    // Bob cannot touch Ada's cards.
    expect((await block.savedCards(request('s-bob', 'POST', { action: 'remove', cardId: cards[0].id }))).status).toBe(404);
    const made = await block.savedCards(request('s-ada', 'POST', { action: 'default', cardId: cards[1].id }));
    expect((await made.json()).cards.map((c: any) => [c.last4, c.isDefault])).toEqual([
      ['4444', true],
      ['1111', false],
    ]);

    const renewal = await block.renew('ada', '9.99');
    expect(readPayment(renewal)).toMatchObject({ status: 'approved', state: 'captured' });
    expect(renewal.payer.funding_instrument.credit_card.id).toBe(cards[1].id);

    const removed = await block.savedCards(request('s-ada', 'POST', { action: 'remove', cardId: cards[1].id }));
    expect((await removed.json()).cards.map((c: any) => [c.last4, c.isDefault])).toEqual([['1111', true]]);
    expect(readPayment(await block.renew('ada', '9.99')).status).toBe('approved');
  });
});
