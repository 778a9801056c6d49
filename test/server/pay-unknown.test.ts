// handlers.pay when nobody knows yet what became of a payment (the adversarial review of the merged
// outcome path): a 5xx after the service may have charged, and a failed read while the page asks, are
// `checking` to the page, never a refusal it would show as "not paid" with Pay on again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, memoryStore, type PayframeStore } from '../../src/server';
import { startSandbox, testCards, type SandboxHandle } from '../setup/sandbox';
import { EUR, nonceFor } from './helpers';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({});
});
afterAll(async () => sandbox?.close());

const charges = () => sandbox.requests().filter((r) => r.method === 'POST' && /\/payment$/.test(r.path)).length;
const serviceError = () =>
  new Response(JSON.stringify({ code: '9999', name: 'INTERNAL_ERROR', message: 'internal', eventId: 'e1' }), {
    status: 500,
    headers: { 'content-type': 'application/json' },
  });

/** A gateway whose fetch lets `bend` answer for the service (undefined: the service's own answer). */
function shop(store: PayframeStore, bend: (url: string, init: RequestInit | undefined, real: Response) => Response | undefined) {
  const { id, clientId, clientSecret } = sandbox.merchant;
  const fetcher: typeof fetch = async (url, init) => {
    const real = await fetch(url, init);
    return bend(String(url), init, real) ?? real;
  };
  const gateway = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: sandbox.url, timeoutMs: 5000, fetch: fetcher, store });
  const pay = gateway.handlers.pay({ payment: () => ({ intent: 'sale', amount: EUR('21.50'), order: 'O-1' }), owner: () => 'me' });
  const post = async (attempt: string) =>
    pay(
      new Request('https://shop.example/pay', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ attempt, nonce: await nonceFor({ sandbox, gateway } as never, testCards.approved as never) }),
      }),
    );
  const ask = (attempt: string) => pay(new Request(`https://shop.example/pay?attempt=${attempt}`));
  return { post, ask };
}

describe('handlers.pay, an outcome nobody knows yet', () => {
  it('answers checking to a 500 that came after the service charged, and keeps the attempt open', async () => {
    const store = memoryStore();
    let once = true;
    const { post, ask } = shop(store, (url, init) => {
      if (!once || init?.method !== 'POST' || !/\/payment$/.test(url)) return undefined;
      once = false;
      return serviceError();
    });
    const before = charges();
    const attempt = crypto.randomUUID();
    const first = await post(attempt);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ status: 'checking' });
    expect(charges() - before).toBe(1);
    expect((await store.attempts.get(attempt))?.status).toBe('open');
    expect(await (await ask(attempt)).json()).toEqual({ status: 'checking' });
    // The same press sent again charges nothing.
    expect(await (await post(attempt)).json()).toEqual({ status: 'checking' });
    expect(charges() - before).toBe(1);
  });

  it('answers checking while reading the service fails, the attempt still open', async () => {
    const store = memoryStore();
    let reference = '';
    let failReads = false;
    const { post, ask } = shop(store, (url, init, real) => {
      if (init?.method === 'POST' && /\/payment$/.test(url)) {
        // The service charged; its answer never reaches the shop.
        void real.json().then((body: { reference_id: string }) => (reference = body.reference_id));
        throw new TypeError('fetch failed', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) });
      }
      if (failReads && (init?.method ?? 'GET') === 'GET' && /\/payment\//.test(url)) return serviceError();
      return undefined;
    });
    const attempt = crypto.randomUUID();
    expect(await (await post(attempt)).json()).toEqual({ status: 'checking' });
    await expect.poll(() => reference).not.toBe('');
    const kept = (await store.attempts.get(attempt))!;
    // Its notification was handled (what handlers.notification's finish writes): the invoice names the payment.
    await store.notifications.claim('N-1');
    await store.notifications.finish('N-1', { referenceId: reference, invoiceNumber: kept.invoiceNumber });
    failReads = true;
    const asked = await ask(attempt);
    expect(asked.status).toBe(200);
    expect(await asked.json()).toEqual({ status: 'checking' });
    failReads = false;
    expect(await (await ask(attempt)).json()).toMatchObject({ status: 'approved', referenceId: reference });
  });
});
