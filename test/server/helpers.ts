import { inspect } from 'node:util';
import { afterAll, beforeAll, expect } from 'vitest';
import { PayframeError, type ErrorCode } from '../../src/shared/errors';
import { startSandbox, testCards } from '../setup/sandbox';
import { createGateway, type Gateway, type GatewayOptions } from '../../src/server';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
export { testCards };

/** Every error the file's tests produce, searched for secrets when the file ends (emptied as a file starts: files share a worker, vitest.config.ts). */
const seen: unknown[] = [];

/** A running sandbox and a gateway on it, for the whole test file. */
export function useSandbox(options: Partial<GatewayOptions> = {}) {
  const ctx = {} as { sandbox: Sandbox; gateway: Gateway; options: GatewayOptions };
  beforeAll(async () => {
    seen.length = 0;
    ctx.sandbox = await startSandbox();
    const { id, clientId, clientSecret } = ctx.sandbox.merchant;
    ctx.options = { merchantId: id, clientId, clientSecret, baseUrl: ctx.sandbox.url, timeoutMs: 5000, ...options };
    ctx.gateway = createGateway(ctx.options);
  });
  afterAll(async () => {
    expectNoSecrets(seen, [ctx.sandbox.merchant.clientSecret, basicOf(ctx.options)]);
    await ctx.sandbox?.close();
  });
  return ctx;
}

export const basicOf = (o: { clientId: string; clientSecret: string }) => btoa(`${o.clientId}:${o.clientSecret}`);

/** Awaits a refusal, checks its code, and keeps it for the secrets check. */
export async function refusal(promise: Promise<unknown> | (() => unknown), code: ErrorCode): Promise<PayframeError> {
  let error: unknown;
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (e) {
    error = e;
  }
  seen.push(error);
  expect(error).toBeInstanceOf(PayframeError);
  expect((error as PayframeError).code, (error as Error).message).toBe(code);
  return error as PayframeError;
}

/** Card numbers and CVVs used by the tests: none may appear in any error's text. */
const cardSecrets = [...Object.values(testCards).map((c) => c.number), '7391'];
export const CVV = '7391';

export function expectNoSecrets(errors: unknown[], secrets: string[]) {
  for (const error of errors) {
    const texts = [String(error), JSON.stringify(error), inspect(error, { depth: 8 })];
    for (const text of texts) {
      for (const secret of [...secrets, ...cardSecrets]) {
        const escaped = secret.replace(/[.*+?^${}()|[\]\\/=-]/g, '\\$&');
        expect(new RegExp(`(?<!\\w)${escaped}(?!\\w)`).test(text), `${secret} in ${text}`).toBe(false);
      }
    }
  }
}

/** A nonce as the checkout page would get it: client token, then the nonce endpoint with Bearer. */
export async function nonceFor(
  ctx: { sandbox: Sandbox; gateway: Gateway },
  card: { number: string; expireMonth: number; expireYear: number; cvv: string },
) {
  const token = await ctx.gateway.clientToken();
  const response = await fetch(`${ctx.sandbox.url}/v1/merchants/${ctx.sandbox.merchant.id}/credit-card-nonce`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ number: card.number, expire_month: card.expireMonth, expire_year: card.expireYear, cvv2: card.cvv }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { credit_card_nonce: string } }).data.credit_card_nonce;
}

export const fullCard = (card: { number: string; expireMonth: number; expireYear: number }, cvv = CVV) => ({
  number: card.number,
  expireMonth: card.expireMonth,
  expireYear: card.expireYear,
  cvv,
});

export const EUR = (total: string) => ({ currency: 'EUR', total });
