// client.tokenize loads the card rules at its first call; a chunk that does not load is a typed
// error, and the next call tries again.
import { afterEach, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('../../src/client/tokenize');
  vi.resetModules();
});

it('reports a chunk that did not load as network, and loads it again at the next call', async () => {
  vi.resetModules();
  let fail = true;
  vi.doMock('../../src/client/tokenize', async (original) => {
    if (fail) throw new TypeError('Failed to fetch dynamically imported module');
    return original();
  });
  const { createClient } = await import('../../src/client/client');
  const client = createClient({ merchantId: 'm', baseUrl: 'https://gw.example', authorization: 'token' });
  const card = { number: '4111', expireMonth: 1, expireYear: 2030, cvv: '1' };
  await expect(client.tokenize(card)).rejects.toMatchObject({ code: 'network', message: 'tokenize: the card rules did not load' });
  fail = false;
  vi.resetModules();
  await expect(client.tokenize(card)).rejects.toMatchObject({ code: 'invalid_card' });
});
