// docs/servers.md's Hono app in a worker: the page's blocks (the routes, the Hono app) bundled with the
// package's build as a merchant's worker is, and run in Cloudflare's workerd through miniflare. Every
// route answers as on node:http against the real sandbox (the worker's calls to it go out through
// miniflare's outbound service, here Node's fetch, which trusts the test's certificate), and the
// sandbox's own notifications reach onPayment in the worker. `npm run build` first.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Payment } from '../../src/server';
import { readmeBlock } from '../readme';
import { testCards } from '../setup/sandbox';
import { AUTH, expectDripRefusedAtOnce, expectRoutesAnswerAsOnNode, useStack } from './servers';

const stack = useStack();
const ROOT = new URL('../../', import.meta.url).pathname;
let mf: Miniflare;

/** The merchant's own module, for a worker: its gateway, and an order saved by a call to the shop's own service (recorded here). */
const shop = (options: Record<string, unknown>) => `import { createGateway } from 'payframe/server';
export const gateway = createGateway(${JSON.stringify(options)});
export const payerOf = (request) => request.headers.get('x-payer') ?? undefined;
export const payWithCvv = ({ cvv, body }) =>
  gateway.payments.create({ intent: 'sale', amount: { currency: 'EUR', total: String(body.total) }, card: { ...${JSON.stringify(card())}, cvv } });
export async function saveOrder(payment) {
  await fetch('https://orders.invalid/', { method: 'POST', body: JSON.stringify(payment) });
}
`;
const card = () => ({
  number: testCards.approved.number,
  expireMonth: testCards.approved.expireMonth,
  expireYear: testCards.approved.expireYear,
});

beforeAll(async () => {
  const dir = join(ROOT, 'reports/readme', `servers-edge-${process.pid}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const { id, clientId, clientSecret } = stack.sandbox.merchant;
  writeFileSync(join(dir, 'shop.mjs'), shop({ merchantId: id, clientId, clientSecret, baseUrl: stack.sandbox.url, timeoutMs: 5000 }));
  writeFileSync(join(dir, 'routes.mjs'), readmeBlock('servers/routes.mjs'));
  writeFileSync(join(dir, 'hono.mjs'), readmeBlock('servers/hono.mjs'));
  writeFileSync(join(dir, 'worker.mjs'), "export { app as default } from './hono.mjs';\n");
  // A worker has no process.env: its secret comes in at build time here (a binding, in a real worker).
  const bundle = await build({
    entryPoints: [join(dir, 'worker.mjs')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    define: { 'process.env.NOTIFY_AUTHORIZATION': JSON.stringify(AUTH) },
    logLevel: 'silent',
  });
  mf = new Miniflare({
    modules: true,
    script: bundle.outputFiles[0]!.text,
    compatibilityDate: '2026-01-01',
    outboundService: async (request: Request) => {
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
      if (new URL(request.url).hostname === 'orders.invalid') {
        const payment = JSON.parse(new TextDecoder().decode(body)) as Payment;
        stack.paid.set(payment.reference_id, payment);
        return new Response(null, { status: 204 }) as never;
      }
      const answer = await fetch(request.url, { method: request.method, headers: [...request.headers], body });
      return new Response(await answer.arrayBuffer(), { status: answer.status, headers: [...answer.headers] }) as never;
    },
  });
  // The front server hands each request to the worker, its body streamed.
  stack.serve(
    getRequestListener(async (request) => {
      const answer = await mf.dispatchFetch(request.url, {
        method: request.method,
        headers: [...request.headers],
        body: request.body as never,
        duplex: 'half',
      } as never);
      return new Response(answer.body as never, { status: answer.status, headers: [...answer.headers] });
    }),
  );
}, 60_000);
afterAll(() => mf?.dispose());

describe('docs/servers.md: Hono in workerd', () => {
  it("answers every route as on node:http; the sandbox's notifications reach onPayment in the worker", async () => {
    await expectRoutesAnswerAsOnNode(stack, 'docs: Hono in workerd', { events: false });
    expect(stack.paid.size).toBeGreaterThanOrEqual(2);
  });

  it('refuses a notification dripped without Authorization at once', async () => {
    await expectDripRefusedAtOnce(stack.base, undefined, 8000);
  });
});
