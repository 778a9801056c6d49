// A payment service that quotes everything it is sent (the review "TEXT leaking"): a real HTTP server
// on loopback that answers every request with its method, path, headers, decoded Basic credentials and
// body, each digit string of the body rendered again (spaced, dashed, in Arabic-Indic and Devanagari
// digits, as a number), in its message, its error name, its other fields and keys, a plain-text page or
// a redirect's address. Every call path of the gateway, its handlers, and the frame's nonce call run
// against it; no CVV, OTP, client secret (or its Basic form) or card number may come out of them.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway, type GatewayEvent } from '../../src/server';
import { PayframeError } from '../../src/shared/errors';
import { fromErrorInfo, toErrorInfo } from '../../src/protocol/transfer';
import { checkCard, requestNonce } from '../../src/nonce';

const CLIENT_ID = 'shop-echo';
const CLIENT_SECRET = 'sk_echo+Zq/81x=';
const BASIC = btoa(`${CLIENT_ID}:${CLIENT_SECRET}`);
const CARD = '4111111111111111';
const CVV = '739';
const VAULT_CVV = '0482';
const OTP = '582913';
const SESSION = '0123456789abcdef0123456789abcdef';

type Kind = 'refusal' | 'named' | 'bearer' | 'schema' | 'text' | 'redirect';
let kind: Kind = 'refusal';
let status = 400;
/** What the service answered since the test began: it must hold what was sent (else the search below proves nothing). */
let answered = '';

const digitsIn = (block: number) => (d: string) => d.replace(/\d/g, (c) => String.fromCharCode(block + Number(c)));
const arabic = digitsIn(0x660);
const devanagari = digitsIn(0x966);

function answer(
  method: string,
  url: string,
  authorization: string,
  raw: string,
): { status: number; type: string; body: string; location?: string } {
  const pair = authorization.startsWith('Basic ') ? Buffer.from(authorization.slice(6), 'base64').toString() : '';
  const digits = [...raw.matchAll(/"(\d{3,19})"/g)].map((m) => m[1]!);
  const renderings = digits.flatMap((d) => [d.split('').join(' '), d.split('').join('-'), arabic(d), devanagari(d), String(Number(d))]);
  const quoted = `${method} ${url} authorization: ${authorization} (${pair}) body: ${raw} ${renderings.join(' ')}`;
  const echo = { request: quoted, numbers: digits.map(Number), ...Object.fromEntries(digits.map((d) => [d, pair])) };
  const name = kind === 'named' ? `DECLINED_${digits.join('_')}` : kind === 'bearer' ? 'Bearer token_expired' : 'INVALID_REQUEST';
  const json = (value: unknown) => ({ status, type: 'application/json', body: JSON.stringify(value) });
  if (kind === 'schema') return json({ data: echo });
  if (kind === 'text') return { status, type: 'text/plain', body: `cannot process ${quoted}` };
  if (kind === 'redirect') return { status, type: 'text/plain', body: quoted, location: `/v1/elsewhere/${encodeURIComponent(quoted)}` };
  return json({ code: `4000 ${quoted}`, name, message: `cannot process ${quoted}`, eventId: randomUUID(), echo });
}

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const a = answer(req.method ?? '', req.url ?? '', req.headers.authorization ?? '', Buffer.concat(chunks).toString());
      answered += `${a.location ?? ''} ${a.body}\n`;
      res.writeHead(a.status, { 'content-type': a.type, ...(a.location ? { location: a.location } : {}) }).end(a.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** Each secret found in `text`, in any rendering the echo makes (UUIDs aside: their digits are the service's). */
function leaks(text: string): string[] {
  const folded = text
    .replace(/\b[\da-f]{8}(?:-[\da-f]{4}){3}-[\da-f]{12}\b/gi, 'UUID')
    .replace(/[\u0660-\u0669\u0966-\u096f]/g, (d) => String(d.charCodeAt(0) - (d.charCodeAt(0) >= 0x966 ? 0x966 : 0x660)));
  const found: string[] = [];
  for (const secret of [CLIENT_SECRET, BASIC]) {
    if ([secret, encodeURIComponent(secret)].some((form) => text.includes(form))) found.push(secret);
  }
  for (const secret of [CARD, CVV, VAULT_CVV, OTP]) {
    const forms = [secret, String(Number(secret))].map((f) => new RegExp(`(?<!\\d)${f.split('').join('[\\s._/-]{0,3}')}(?!\\d)`));
    if (forms.some((form) => form.test(folded))) found.push(secret);
  }
  return found;
}

/** Every text an error shows: its message, its JSON, its stack, and all it holds (body, cause). */
const textsOf = (error: unknown) =>
  [String(error), JSON.stringify(error), (error as Error).stack ?? '', inspect(error, { depth: 10 })].join('\n');

const events: GatewayEvent[] = [];
let gateway: Gateway;
beforeAll(() => {
  gateway = createGateway({
    merchantId: 'm-1',
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    baseUrl: base,
    retries: 0,
    timeoutMs: 5000,
    onEvent: (e) => void events.push(e),
  });
});

const amount = { currency: 'EUR', total: '10.00' };
/** Every call path of the gateway, and the secrets it sends besides the credentials. */
const paths: [string, () => Promise<unknown>, string[]][] = [
  ['clientToken', () => gateway.clientToken(), []],
  [
    'payments.create with a card',
    () => gateway.payments.create({ intent: 'sale', amount, card: { number: CARD, expireMonth: 12, expireYear: 2034, cvv: CVV } }),
    [CARD, CVV],
  ],
  ['payments.create with a nonce', () => gateway.payments.create({ intent: 'sale', amount, card: { nonce: randomUUID() } }), []],
  [
    'payments.create with a saved card and its CVV',
    () => gateway.payments.create({ intent: 'sale', amount, card: { savedCardId: 'CARD-1', cvv: VAULT_CVV } }),
    [VAULT_CVV],
  ],
  [
    'payments.authenticate with an OTP',
    () => gateway.payments.authenticate({ authenticateUrl: gateway.authenticateUrl(SESSION), referenceId: 'PAY-1', otp: OTP }),
    [OTP],
  ],
  ['payments.capture', () => gateway.payments.capture('PAY-1'), []],
  ['payments.refund', () => gateway.payments.refund('PAY-1'), []],
  ['payments.void', () => gateway.payments.void('PAY-1'), []],
  ['payments.get', () => gateway.payments.get('PAY-1'), []],
  ['payments.session', () => gateway.payments.session(SESSION), []],
  ['payers.byEmail', () => gateway.payers.byEmail('jane@example.com'), []],
  ['payers.byId', () => gateway.payers.byId('PAYER-1'), []],
  ['payers.cards', () => gateway.payers.cards('PAYER-1'), []],
  ['payers.card', () => gateway.payers.card('PAYER-1', 'CARD-1'), []],
];
const modes: [Kind, number][] = [
  ['refusal', 400],
  ['named', 422],
  ['bearer', 401],
  ['schema', 200],
  ['text', 502],
  ['redirect', 307],
];

describe('a service that quotes the request: the gateway, on the server', () => {
  for (const [mode, code] of modes) {
    it.each(paths)(`${mode} (HTTP ${code}): %s throws an error holding none of what it sent`, async (_, run, sent) => {
      kind = mode;
      status = code;
      answered = '';
      const from = events.length;
      const error = await run().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(PayframeError);
      expect(leaks(answered).sort()).toEqual([CLIENT_SECRET, BASIC, ...sent].sort()); // the service did quote it all
      expect(leaks(textsOf(error))).toEqual([]);
      const logged = events.slice(from);
      expect(logged.length).toBeGreaterThan(0);
      expect(leaks(JSON.stringify(logged) + inspect(logged, { depth: 10 }))).toEqual([]);
      // The event is built from fields: the service's own words never, whatever its name became.
      for (const event of logged) expect(JSON.stringify(event)).not.toContain('cannot process');
    });
  }

  it('keeps the service text, scrubbed, in the error body on the server; its name only in its shape', async () => {
    kind = 'named';
    status = 400;
    answered = '';
    const error = (await gateway.payments
      .create({ intent: 'sale', amount, card: { number: CARD, expireMonth: 12, expireYear: 2034, cvv: CVV } })
      .catch((e: unknown) => e)) as PayframeError;
    expect(error).toMatchObject({ code: 'invalid_request', status: 400, reason: undefined, resultCode: undefined });
    expect(error.message).toBe('POST /v1/merchants/m-1/payment: HTTP 400');
    expect((error.body as { message: string }).message).toMatch(
      /^cannot process POST \/v1\/merchants\/m-1\/payment authorization: Basic \[scrubbed\]/,
    );
  });
});

describe('a service that quotes the request: the handlers, to the page', () => {
  const cases: [string, () => Promise<Response>, string[]][] = [
    ['clientToken', () => gateway.handlers.clientToken()(new Request('https://shop.example/token', { method: 'POST' })), []],
    [
      'authenticate',
      () =>
        gateway.handlers.authenticate()(
          new Request('https://shop.example/otp', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ referenceId: 'PAY-1', sessionId: SESSION, otp: OTP }),
          }),
        ),
      [OTP],
    ],
    [
      'cvv',
      () =>
        gateway.handlers.cvv({
          frameOrigin: 'https://frames.example',
          handle: ({ cvv }) => gateway.payments.create({ intent: 'sale', amount, card: { savedCardId: 'CARD-1', cvv } }),
        })(
          new Request('https://shop.example/cvv', {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: 'https://frames.example' },
            body: JSON.stringify({ cvv: VAULT_CVV }),
          }),
        ),
      [VAULT_CVV],
    ],
  ];
  for (const [mode, code] of [
    ['refusal', 400],
    ['named', 409],
    ['refusal', 401],
    ['text', 502],
  ] as const) {
    it.each(cases)(`${mode} (HTTP ${code}): handlers.%s answers the page the code and payframe's words alone`, async (_, run, sent) => {
      kind = mode;
      status = code;
      answered = '';
      const response = await run();
      const text = await response.text();
      expect(leaks(answered)).toEqual(expect.arrayContaining([CLIENT_SECRET, BASIC, ...sent]));
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(leaks(text)).toEqual([]);
      expect(text).not.toMatch(/cannot process|authorization|\/v1\//);
      const { error } = JSON.parse(text) as { error: Record<string, unknown> };
      expect(Object.keys(error).every((key) => ['code', 'message', 'reason'].includes(key))).toBe(true);
      // A 502 to a payment's POST (handlers.authenticate, cvv) leaves its outcome open: payframe's own words for that.
      expect(error['message']).toMatch(
        /^the payment service( refused the request| refused it in the payment's present state| failed or refused this server|'s answer was lost: the payment's outcome is being checked; do not pay again)$/,
      );
      if (error['reason'] !== undefined) expect(error['reason']).toMatch(/^[A-Z_]+$/);
    });
  }
});

describe("a service that quotes the request: the frame's nonce call, to the page", () => {
  it("the frame's error transfer passes a reason, result code and event id only in their shapes", () => {
    const quoted = new PayframeError('invalid_request', 'refused', {
      status: 400,
      reason: `DECLINED${CARD}`,
      resultCode: `4000 ${CVV}`,
      eventId: `ev-${CARD}`,
    });
    expect(toErrorInfo(quoted)).toEqual({
      code: 'invalid_request',
      message: 'refused',
      status: 400,
      reason: undefined,
      resultCode: undefined,
      eventId: undefined,
      fields: undefined,
    });
    const plain = new PayframeError('conflict', 'refused', {
      status: 409,
      reason: 'SESSION_EXPIRED',
      resultCode: '4098',
      eventId: '0f8e2c1a-3b4d-4e5f-8a9b-012345678901',
    });
    expect(toErrorInfo(plain)).toMatchObject({
      reason: 'SESSION_EXPIRED',
      resultCode: '4098',
      eventId: '0f8e2c1a-3b4d-4e5f-8a9b-012345678901',
    });
  });

  it.each(['refusal', 'named', 'text'] as const)(
    "%s: form.tokenize()'s error tells the code, the shaped reason and payframe's words, never the service's text",
    async (mode) => {
      kind = mode;
      status = 400;
      answered = '';
      const card = checkCard({ number: CARD, expireMonth: 12, expireYear: 2034, cvv: CVV });
      const thrown = await requestNonce({
        base: `${base}/`,
        merchantId: 'm-1',
        token: 'client-token-1',
        card,
        retries: 0,
        signal: new AbortController().signal,
      }).catch((e: unknown) => e);
      expect(leaks(answered)).toEqual(expect.arrayContaining([CARD, CVV]));
      // What the frame posts, and the error the page's script gets from it.
      const info = toErrorInfo(thrown);
      const error = fromErrorInfo(info);
      const page = [JSON.stringify(info), textsOf(error)].join('\n');
      expect(leaks(page)).toEqual([]);
      expect(page).not.toMatch(/cannot process|DECLINED|client-token-1/);
      expect(error.toJSON()).toEqual({
        name: 'PayframeError',
        code: 'invalid_request',
        status: 400,
        message: `POST /v1/merchants/m-1/credit-card-nonce: ${mode === 'refusal' ? 'INVALID_REQUEST' : 'HTTP 400'}`,
        reason: mode === 'refusal' ? 'INVALID_REQUEST' : undefined,
        resultCode: undefined,
        eventId: mode === 'text' ? undefined : expect.stringMatching(/^[\da-f-]{36}$/),
        fields: undefined,
      });
    },
  );
});
