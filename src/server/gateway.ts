import { PayframeError } from '../errors';
import { checkBaseUrl, isPathSegment } from '../url';
import {
  amountProblem, AuthenticateRequestSchema, CaptureRequestSchema, CardListSchema, ClientTokenSchema, PayerRecordSchema, PaymentSchema,
  ReducedRecordSchema, VaultCardSchema, VoidRequestSchema,
  type CardList, type ClientToken, type PayerRecord, type Payment, type ReducedRecord, type VaultCard,
} from '../schemas';
import { createHandlers, type Handlers } from './handlers';
import { buildPaymentRequest, type Money, type PaymentInput } from './payment-input';
import { checked, createTransport, segment, type RetryOptions } from './transport';

export interface GatewayOptions {
  merchantId: string;
  clientId: string;
  clientSecret: string;
  /** `https:`, e.g. `https://api.ompay.com` or the local sandbox's `url`; plain `http:` only on a loopback host (the sandbox's `httpUrl`). */
  baseUrl: string;
  /** Per attempt. Default 15 000 ms. */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
  retry?: RetryOptions;
}

/** `amount` omitted captures (or refunds) whatever remains; its currency only checks the precision. */
export interface CaptureOptions {
  amount?: Money;
  invoiceNumber?: string;
  custom?: Record<string, unknown>;
}
export type RefundOptions = CaptureOptions;
export interface VoidOptions {
  invoiceNumber?: string;
  custom?: Record<string, unknown>;
}
export interface AuthenticateInput {
  /** `result.authenticate_url` of the pending payment: must be on the gateway's origin. */
  authenticateUrl: string;
  referenceId: string;
  otp: string;
}

export interface GatewayCore {
  /** Spec 4.1: a client token for the checkout page (mint a fresh one per page load). */
  clientToken(): Promise<ClientToken>;
  payments: {
    /** Spec 4.3. A declined payment is returned, not thrown: read it with `readPayment`. */
    create(input: PaymentInput): Promise<Payment>;
    get(referenceId: string): Promise<Payment>;
    session(sessionId: string): Promise<Payment>;
    capture(referenceId: string, options?: CaptureOptions): Promise<ReducedRecord>;
    void(referenceId: string, options?: VoidOptions): Promise<ReducedRecord>;
    refund(referenceId: string, options?: RefundOptions): Promise<ReducedRecord>;
    authenticate(input: AuthenticateInput): Promise<Payment>;
  };
  payers: {
    byEmail(email: string): Promise<PayerRecord>;
    byId(payerId: string): Promise<PayerRecord>;
    cards(payerId: string): Promise<CardList>;
    card(payerId: string, cardId: string): Promise<VaultCard>;
  };
  /** The authenticate URL of a payment session on this gateway's origin. */
  authenticateUrl(sessionId: string): string;
}

export interface Gateway extends GatewayCore {
  /** Ready `Request -> Response` handlers for the merchant's own routes. */
  handlers: Handlers;
}

const config = (message: string) => new PayframeError('invalid_config', message);

/** Basic credentials of RFC 7617, encoded from UTF-8 without Node's Buffer. */
function basic(clientId: string, clientSecret: string): string {
  const bytes = new TextEncoder().encode(`${clientId}:${clientSecret}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

export function createGateway(options: GatewayOptions): Gateway {
  for (const key of ['merchantId', 'clientId', 'clientSecret'] as const) {
    if (typeof options?.[key] !== 'string' || options[key] === '') throw config(`${key} is required`);
  }
  if (!isPathSegment(options.merchantId)) throw config('merchantId must be a merchant id (not blank, not . or ..)');
  const base = checkBaseUrl(options.baseUrl);
  const timeoutMs = options.timeoutMs ?? 15_000;
  // Timers cannot wait longer than 2^31 - 1 ms.
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0 && timeoutMs <= 2_147_483_647)) throw config('timeoutMs must be a positive number of milliseconds');
  const { limit = 2, backoffMs = 300 } = options.retry ?? {};
  if (!(Number.isInteger(limit) && limit >= 0)) throw config('retry.limit must be a whole number, 0 or more');
  if (!(Number.isFinite(backoffMs) && backoffMs >= 0)) throw config('retry.backoffMs must be a number, 0 or more');
  const call = createTransport({
    base,
    authorization: basic(options.clientId, options.clientSecret),
    timeoutMs,
    fetch: options.fetch,
    retry: options.retry,
  });
  const merchant = `merchants/${segment('merchantId', options.merchantId)}`;
  const payment = (referenceId: string) => `${merchant}/payment/${segment('referenceId', referenceId)}`;
  const authenticatePrefix = new URL('v1/authenticate/', base);

  /** The capture and refund bodies: the amount is checked against its currency before sending. */
  const actionBody = (options: CaptureOptions = {}) => {
    const { amount } = options;
    if (amount !== undefined) {
      const problem = amountProblem(amount?.total, String(amount?.currency));
      if (problem) throw new PayframeError('invalid_request', `amount.total ${problem}`);
    }
    return checked(CaptureRequestSchema, { amount: amount?.total, invoice_number: options.invoiceNumber, custom: options.custom });
  };

  const core: GatewayCore = {
    clientToken: () =>
      call('POST', `${merchant}/client_token`, ClientTokenSchema, { json: { grant_type: 'client_credentials' } }),
    payments: {
      create: async (input) => call('POST', `${merchant}/payment`, PaymentSchema, { json: buildPaymentRequest(input) }),
      get: async (referenceId) => call('GET', payment(referenceId), PaymentSchema),
      session: async (sessionId) => call('GET', `${merchant}/payment/session/${segment('sessionId', sessionId)}`, PaymentSchema),
      capture: async (referenceId, options) =>
        call('POST', `${payment(referenceId)}/capture`, ReducedRecordSchema, { json: actionBody(options) }),
      void: async (referenceId, options = {}) =>
        call('POST', `${payment(referenceId)}/void`, ReducedRecordSchema, {
          json: checked(VoidRequestSchema, { invoice_number: options.invoiceNumber, custom: options.custom }),
        }),
      refund: async (referenceId, options) =>
        call('POST', `${payment(referenceId)}/refund`, ReducedRecordSchema, { json: actionBody(options) }),
      authenticate: async ({ authenticateUrl, referenceId, otp }) => {
        const sessionId = sessionOnOrigin(authenticateUrl, authenticatePrefix);
        return call('POST', `authenticate/${segment('sessionId', sessionId)}`, PaymentSchema, {
          json: checked(AuthenticateRequestSchema, { reference_id: referenceId, otp }),
        });
      },
    },
    payers: {
      byEmail: async (email) => {
        if (typeof email !== 'string' || !email.includes('@')) throw new PayframeError('invalid_request', 'email must be an email address');
        return call('GET', `${merchant}/payer`, PayerRecordSchema, { searchParams: { email } });
      },
      byId: async (payerId) => call('GET', `${merchant}/payer/${segment('payerId', payerId)}`, PayerRecordSchema),
      cards: async (payerId) => call('GET', `${merchant}/payer/${segment('payerId', payerId)}/card`, CardListSchema),
      card: async (payerId, cardId) =>
        call('GET', `${merchant}/payer/${segment('payerId', payerId)}/card/${segment('cardId', cardId)}`, VaultCardSchema),
    },
    authenticateUrl: (sessionId) => new URL(segment('sessionId', sessionId), authenticatePrefix).href,
  };
  return { ...core, handlers: createHandlers(core) };
}

/**
 * The Basic credentials go only to the configured origin: a URL from a response (or from anyone
 * else) is accepted only on that origin (its scheme included), under `/v1/authenticate/<id>`.
 */
function sessionOnOrigin(authenticateUrl: unknown, prefix: URL): string {
  let url: URL | undefined;
  let rest = '';
  try {
    url = new URL(String(authenticateUrl));
    if (url.pathname.startsWith(prefix.pathname)) rest = decodeURIComponent(url.pathname.slice(prefix.pathname.length));
  } catch {
    url = undefined;
  }
  // The same origin as the checked base URL: https, or http on loopback in the sandbox's development mode.
  const safe = url && url.origin === prefix.origin && !url.username && !url.password
    && !url.search && !url.hash && /^[^/]+$/.test(rest);
  if (!safe) throw new PayframeError('unsafe_url', 'authenticateUrl must be on the gateway origin, under /v1/authenticate/');
  return rest;
}
