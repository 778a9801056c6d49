// docs/servers.md run as written (on this build's dist/: `npm run build` first): the routes made once,
// then mounted on real Express 5, Fastify 5, Koa 3 and Hono (on Node), and as a Next.js App Router route
// handler. Each answers every route as node:http does, against the real sandbox, whose own notifications
// reach onPayment; and a notification dripped without its Authorization is refused at once.
// Next.js itself is not installed (the framework and its build are far heavier than the rest of the
// suite): its route module is called as Next calls it, with a Fetch Request and a context, here behind
// @hono/node-server's Node-to-Fetch bridge.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GatewayEvent } from '../../src/server';
import { readmeBlock } from '../readme';
import { testCards } from '../setup/sandbox';
import { AUTH, expectDripRefusedAtOnce, expectRoutesAnswerAsOnNode, PATHS, useStack } from './servers';
import { EUR, fullCard } from './helpers';

const stack = useStack();
const ROOT = new URL('../../', import.meta.url).pathname;
const dir = join(ROOT, 'reports/readme', `servers-${process.pid}-${Date.now()}`);

/** The merchant's own module the routes import: a gateway on the test's sandbox (the package's build), and what onPayment saves. */
const SHOP = `import { createGateway } from 'payframe/server';
const shop = globalThis.__payframeServersDocs;
export const gateway = createGateway(shop.options);
export const payerOf = (request) => request.headers.get('x-payer') ?? undefined;
export const payWithCvv = ({ cvv, body }) =>
  gateway.payments.create({ intent: 'sale', amount: { currency: 'EUR', total: String(body.total) }, card: { ...shop.card, cvv } });
export const saveOrder = (payment) => void shop.paid.set(payment.reference_id, payment);
`;

function write(file: string, code: string) {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), code);
}
const load = (file: string) => import(pathToFileURL(join(dir, file)).href);

beforeAll(() => {
  const { id, clientId, clientSecret } = stack.sandbox.merchant;
  const { number, expireMonth, expireYear } = testCards.approved;
  (globalThis as Record<string, unknown>).__payframeServersDocs = {
    options: {
      merchantId: id,
      clientId,
      clientSecret,
      baseUrl: stack.sandbox.url,
      timeoutMs: 5000,
      onEvent: (e: GatewayEvent) => stack.events.push(e),
    },
    paid: stack.paid,
    card: { number, expireMonth, expireYear },
  };
  process.env.NOTIFY_AUTHORIZATION = AUTH;
  write('shop.mjs', SHOP);
  write('routes.mjs', readmeBlock('servers/routes.mjs'));
  write('express.mjs', readmeBlock('servers/express.mjs'));
  write('fastify.mjs', readmeBlock('servers/fastify.mjs'));
  write('koa.mjs', readmeBlock('servers/koa.mjs'));
  write('hono.mjs', readmeBlock('servers/hono.mjs'));
  write('app/ipn/route.mjs', readmeBlock('servers/next-route.mjs'));
});

describe('docs/servers.md', () => {
  it('Express 5: every route as on node:http, the parsers after them', async () => {
    stack.serve((await load('express.mjs')).app);
    await expectRoutesAnswerAsOnNode(stack, 'docs: Express');
    await expectDripRefusedAtOnce(stack.base);
  });

  it('Fastify 5: every route as on node:http, a form notification included (no 415)', async () => {
    const { app } = await load('fastify.mjs');
    await app.ready();
    stack.serve((req, res) => app.routing(req, res));
    await expectRoutesAnswerAsOnNode(stack, 'docs: Fastify');
    await expectDripRefusedAtOnce(stack.base);
    await app.close();
  });

  it('Koa 3: every route as on node:http', async () => {
    stack.serve((await load('koa.mjs')).app.callback());
    await expectRoutesAnswerAsOnNode(stack, 'docs: Koa');
    await expectDripRefusedAtOnce(stack.base);
  });

  it('Hono on Node: every route as on node:http', async () => {
    stack.serve(getRequestListener((await load('hono.mjs')).app.fetch));
    await expectRoutesAnswerAsOnNode(stack, 'docs: Hono');
    await expectDripRefusedAtOnce(stack.base);
  });

  it("Next.js route handler: the service's notifications reach onPayment, refusals reach onEvent", async () => {
    const route = await load('app/ipn/route.mjs');
    expect(Object.keys(route)).toEqual(['POST']);
    stack.serve(getRequestListener((request: Request) => route.POST(request, { params: Promise.resolve({}) })));
    const payment = await stack.gateway.payments.create({ intent: 'sale', amount: EUR('9.00'), card: fullCard(testCards.approved) });
    await stack.sandbox.notificationsIdle();
    expect(stack.paid.get(payment.reference_id)?.state).toBe('captured');
    const before = stack.events.length;
    const bad = await fetch(`${stack.base}${PATHS.notification}`, {
      method: 'POST',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(bad.status).toBe(415);
    expect(stack.events.slice(before)).toEqual([expect.objectContaining({ type: 'notification', outcome: 'refused', status: 415 })]);
    await expectDripRefusedAtOnce(stack.base);
  });
});
