// payframe's routes behind Express 4 and 5 with their body parsers in front, in every order, against the
// real sandbox: each answers as on node:http (test/server/servers.ts says what), the sandbox's own
// notifications reach onPayment, and a body a parser cannot give back answers 500 with how to mount it.
import express5 from 'express';
import express4 from 'express-4';
import { describe, expect, it } from 'vitest';
import { toNodeListener } from '../../src/server';
import { AUTH, expectDripRefusedAtOnce, expectRoutesAnswerAsOnNode, nodeApp, PATHS, useStack } from './servers';

const stack = useStack();
const EXPRESSES = [
  ['Express 4.22', express4],
  ['Express 5', express5],
] as const;
type Parser = 'json' | 'urlencoded' | 'raw';

/** Each order of the three parsers (raw() for every type, so that it takes what the others leave). */
const ORDERS: Parser[][] = [
  ['json', 'urlencoded', 'raw'],
  ['json', 'raw', 'urlencoded'],
  ['urlencoded', 'json', 'raw'],
  ['urlencoded', 'raw', 'json'],
  ['raw', 'json', 'urlencoded'],
  ['raw', 'urlencoded', 'json'],
];

/** An app made the usual way: the parsers first (as express-generator writes them), then payframe's routes. */
/** express() of either version, as its docs use it (the package ships no types). */
type Express = typeof express5;
function app(express: Express, parsers: Parser[], options: { extended?: boolean } = { extended: false }) {
  const made = express();
  for (const parser of parsers) {
    made.use(parser === 'raw' ? express.raw({ type: '*/*' }) : parser === 'json' ? express.json() : express.urlencoded(options));
  }
  for (const [name, path] of Object.entries(PATHS)) made.all(path, toNodeListener(stack.routes[name as keyof typeof PATHS]));
  return made;
}

describe('payframe routes behind Express body parsers', () => {
  it('answer on node:http (the reference)', async () => {
    stack.serve(nodeApp(stack));
    await expectRoutesAnswerAsOnNode(stack, 'node:http');
  });

  for (const [name, express] of EXPRESSES) {
    it(`answer as on node:http on ${name}, with json(), urlencoded() and raw() in each order`, async () => {
      for (const order of ORDERS) {
        stack.serve(app(express, order));
        await expectRoutesAnswerAsOnNode(stack, `${name}: ${order.join(', ')}`);
      }
      // No parser at all, and urlencoded() as each version defaults it (Express 4: extended, with qs).
      stack.serve(app(express, []));
      await expectRoutesAnswerAsOnNode(stack, `${name}: no parser`);
      stack.serve(app(express, ['urlencoded', 'json'], {}));
      await expectRoutesAnswerAsOnNode(stack, `${name}: urlencoded() as it defaults`);
      // text() for every type: every body kept as a string, given back as the UTF-8 it came in.
      const texts = express();
      texts.use(express.text({ type: '*/*' }));
      for (const [route, path] of Object.entries(PATHS)) texts.all(path, toNodeListener(stack.routes[route as keyof typeof PATHS]));
      stack.serve(texts);
      await expectRoutesAnswerAsOnNode(stack, `${name}: text() for every type`);
    }, 60_000);

    it(`answers 500, and tells onEvent how to mount the route, for a form it cannot give back (${name})`, async () => {
      stack.serve(app(express, ['urlencoded'], { extended: true }));
      const before = stack.events.length;
      const response = await fetch(`${stack.base}${PATHS.notification}`, {
        method: 'POST',
        headers: { authorization: AUTH, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'pg_signature=f00d&pg_payload[a]=b',
      });
      expect(response.status).toBe(500);
      expect((await response.json()).error).toEqual({ code: 'server_error', message: 'the server failed' });
      const [event, ...more] = stack.events.slice(before);
      expect(more).toEqual([]);
      expect(event).toMatchObject({ type: 'notification', outcome: 'failed', status: 500, error: { code: 'server_error' } });
      expect(event!.message).toContain("mount payframe's routes before the body parsers");
      expect(event!.message).toContain('docs/servers.md');
    });

    it(`refuses a notification dripped without Authorization at once, mounted before the parsers (${name})`, async () => {
      const made = express();
      made.post(PATHS.notification, toNodeListener(stack.routes.notification));
      made.use(express.urlencoded({ extended: false }));
      stack.serve(made);
      await expectDripRefusedAtOnce(stack.base);
    });
  }

  it('tells onEvent of a notification over 64 KiB, refused 413 by toNodeListener', async () => {
    stack.serve(nodeApp(stack));
    const before = stack.events.length;
    const response = await fetch(`${stack.base}${PATHS.notification}`, {
      method: 'POST',
      headers: { authorization: AUTH, 'content-type': 'application/x-www-form-urlencoded' },
      body: `pg_signature=${'a'.repeat(70_000)}`,
    });
    expect([response.status, response.headers.get('connection'), (await response.json()).error.code]).toEqual([
      413,
      'close',
      'invalid_request',
    ]);
    expect(stack.events.slice(before)).toEqual([
      expect.objectContaining({
        type: 'notification',
        outcome: 'refused',
        status: 413,
        message: expect.stringContaining('over 65536 bytes'),
      }),
    ]);
    // A route that reads no body still refuses one too large.
    const token = await fetch(`${stack.base}${PATHS.clientToken}`, { method: 'POST', body: 'x'.repeat(70_000) });
    expect(token.status).toBe(413);
  });

  it('refuses a notification dripped without Authorization at once on node:http', async () => {
    stack.serve(nodeApp(stack));
    const before = stack.events.length;
    const head = await expectDripRefusedAtOnce(stack.base);
    expect(head.toLowerCase()).toContain('connection: close');
    expect(stack.events.slice(before)).toEqual([expect.objectContaining({ type: 'notification', outcome: 'refused', status: 401 })]);
  });
});
