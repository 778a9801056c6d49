import { afterAll, beforeAll } from 'vitest';
import { startSandbox, testCards, type SandboxHandle, type SandboxOptions, type TestCard } from '../setup/sandbox';

/** A sandbox per test file, started before its tests and closed after them. */
export function useSandbox(options: SandboxOptions = {}) {
  const box = {} as { sb: SandboxHandle };
  beforeAll(async () => {
    box.sb = await startSandbox(options);
  });
  afterAll(async () => {
    await box.sb?.close();
  });
  return box;
}

export const basic = (sb: SandboxHandle, secret = sb.merchant.clientSecret) =>
  `Basic ${Buffer.from(`${sb.merchant.clientId}:${secret}`).toString('base64')}`;

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A JSON call with the first merchant's Basic credentials unless `auth` says otherwise. */
export async function call<T = any>(
  sb: SandboxHandle,
  method: string,
  path: string,
  body?: unknown,
  init: { auth?: string | null; headers?: Record<string, string>; raw?: string } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...init.headers };
  const auth = init.auth === undefined ? basic(sb) : init.auth;
  if (auth) headers['authorization'] = auth;
  const payload = init.raw ?? (body === undefined ? undefined : JSON.stringify(body));
  if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
    headers['content-type'] = 'application/json';
  const res = await fetch(`${sb.url}${path}`, { method, headers, body: payload, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* html or empty */
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

export const m = (sb: SandboxHandle) => `/v1/merchants/${sb.merchant.id}`;

export function cardOf(card: TestCard, extra: Record<string, unknown> = {}) {
  return {
    number: card.number,
    expire_month: card.expireMonth,
    expire_year: card.expireYear,
    cvv2: card.cvv,
    name: 'Ada Lovelace',
    ...extra,
  };
}

export function paymentBody(funding: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const { transaction, ...rest } = extra as { transaction?: Record<string, unknown> };
  return {
    intent: 'auth',
    payer: { payment_type: 'CC', funding_instrument: funding, payer_info: { email: 'ada@example.com', name: 'Ada Lovelace' } },
    transaction: { amount: { currency: 'EUR', total: '10.00' }, invoice_number: 'INV-1', ...transaction },
    ...rest,
  };
}

/** Creates a payment by full card details; returns the response body. */
export async function pay(sb: SandboxHandle, card: TestCard = testCards.approved, extra: Record<string, unknown> = {}) {
  const res = await call(sb, 'POST', `${m(sb)}/payment`, paymentBody({ credit_card: cardOf(card) }, extra));
  if (res.status !== 200) throw new Error(`payment creation answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The error body must be `{ code, name, message, eventId }` with this status and name. */
export function expectRefusal(res: Answer, status: number, name: string, code?: string) {
  const body = res.body as Record<string, unknown>;
  const got = { status: res.status, name: body?.['name'], ...(code ? { code: body?.['code'] } : {}) };
  const want = { status, name, ...(code ? { code } : {}) };
  if (JSON.stringify(got) !== JSON.stringify(want))
    throw new Error(`expected ${JSON.stringify(want)}, got ${res.status} ${JSON.stringify(body)}`);
  if (typeof body['message'] !== 'string' || !/^[0-9a-f-]{36}$/.test(String(body['eventId']))) {
    throw new Error(`not an error body: ${JSON.stringify(body)}`);
  }
}

export async function clientToken(sb: SandboxHandle): Promise<string> {
  const res = await call(sb, 'POST', `${m(sb)}/client_token`, { grant_type: 'client_credentials' });
  return res.body.accessToken;
}

export async function nonceFor(sb: SandboxHandle, card: TestCard = testCards.approved): Promise<string> {
  const token = await clientToken(sb);
  const res = await call(
    sb,
    'POST',
    `${m(sb)}/credit-card-nonce`,
    { number: card.number, expire_month: card.expireMonth, expire_year: card.expireYear, cvv2: card.cvv },
    { auth: `Bearer ${token}` },
  );
  return res.body.data.credit_card_nonce;
}
