import { configError, PayframeError } from '../../shared/errors';
import { type CallOptions, checkCallOptions } from '../../shared/call';
import { checkBaseUrl, isPathSegment } from '../../shared/url';
import {
  amountProblem,
  amountRefusal,
  AuthenticateRequestSchema,
  CaptureRequestSchema,
  CardListSchema,
  ClientTokenSchema,
  PayerRecordSchema,
  PaymentSchema,
  ReducedRecordSchema,
  SavedCardSchema,
  VoidRequestSchema,
  type CardList,
  type ClientToken,
  type PayerRecord,
  type Payment,
  type ReducedRecord,
  type SavedCard,
} from '../../schemas';
import type { EventListener } from '../events';
import type { PayframeStore } from '../store/store';
import { buildPaymentRequest, type Money, type PaymentInput } from './payment-input';
import { settle, type SettleOptions, type SettleRef, type Settlement } from './settle';
import { checked, createTransport, segment, type RequestOptions } from './transport';
import { createPayerCalls, type PayerCalls, type VerifyInput } from './payer-calls';

export interface GatewayOptions extends CallOptions {
  merchantId: string;
  clientId: string;
  clientSecret: string;
  /** `https:`, e.g. `https://api.ompay.com` or the local sandbox's `url`; plain `http:` only on a loopback host (the sandbox's `httpUrl`). */
  baseUrl: string;
  fetch?: typeof globalThis.fetch;
  /**
   * Told what happened, for the merchant's log: an event for every call to the service (method, path,
   * status, duration, the error) and for every 5xx a handler answers (the cause the page is not told).
   * Events hold no card data, secret, token, nonce or OTP (a handler event's `thrown` is your own code's
   * exception, as thrown: what it holds is yours). A listener that throws is ignored.
   * In one line: `onEvent: (event) => console.log('payframe:', event.message)`.
   */
  onEvent?: EventListener;
  /**
   * What the gateway keeps so that no outcome is lost: the attempts of `handlers.pay`, the
   * notifications handled, the invoice numbers they named. `handlers.notification`, `payments.settle`,
   * `handlers.pay`, `handlers.authenticate` and `settleOpen` all use it. Default `memoryStore()`: this
   * process's memory, for tests and one process only (a restart forgets it; a second process does not
   * see it). With more than one process, or to survive a restart, a store on your database (docs/stores.md).
   */
  store?: PayframeStore;
}

/**
 * `amount` omitted captures (or refunds) whatever remains. Given, its currency must be the payment's:
 * the service's body carries the decimal alone (the interface document's 4.6, 4.8), so the gateway reads the payment first
 * (one GET) and refuses another currency before anything is posted.
 */
export interface CaptureOptions extends RequestOptions {
  amount?: Money;
  invoiceNumber?: string;
  custom?: Record<string, unknown>;
}
export type RefundOptions = CaptureOptions;
export interface VoidOptions extends RequestOptions {
  invoiceNumber?: string;
  custom?: Record<string, unknown>;
}
export interface AuthenticateInput {
  /** `result.authenticate_url` of the pending payment: must be on the gateway's origin. */
  authenticateUrl: string;
  referenceId: string;
  otp: string;
}

/** Every call of the service the gateway makes (`Gateway` is these and the handlers built on them): public because `Gateway` extends it. */
export interface ServiceCalls {
  /**
   * The interface document's 4.1: a client token for the checkout page (mint a fresh one per page load). Answers the
   * service's object `{ accessToken, tokenType, expiresOn, issuedOn }`, which `createClient`'s
   * `authorization` takes as is.
   */
  clientToken(options?: RequestOptions): Promise<ClientToken>;
  payments: {
    /** The interface document's 4.3. A declined payment is returned, not thrown: read it with `readPayment`. */
    create(input: PaymentInput, options?: RequestOptions): Promise<Payment>;
    get(referenceId: string, options?: RequestOptions): Promise<Payment>;
    session(sessionId: string, options?: RequestOptions): Promise<Payment>;
    capture(referenceId: string, options?: CaptureOptions): Promise<ReducedRecord>;
    void(referenceId: string, options?: VoidOptions): Promise<ReducedRecord>;
    refund(referenceId: string, options?: RefundOptions): Promise<ReducedRecord>;
    authenticate(input: AuthenticateInput, options?: RequestOptions): Promise<Payment>;
    /**
     * What became of a payment you could not tell yet (docs/outcomes.md): read by its `referenceId`, a
     * pending one's `sessionId`, or the `invoiceNumber` of one whose answer was lost (found once its
     * notification was handled, or an attempt of `handlers.pay` named it: the gateway's store says).
     * Reads only; never pays.
     */
    settle(ref: SettleRef, options?: SettleOptions): Promise<Settlement>;
    /**
     * Verifies a card and keeps it in the vault without charging it: a payment of a zero total, the
     * only one payframe sends (payer-calls.ts). A declined card is returned, not thrown.
     */
    verify(input: VerifyInput, options?: RequestOptions): Promise<Payment>;
  };
  /** Payer lookups (the interface document's 4.10), and the vault's changes: `removeCard`, `update`, `setDefaultCard` (payer-calls.ts). */
  payers: PayerCalls & {
    byEmail(email: string, options?: RequestOptions): Promise<PayerRecord>;
    byId(payerId: string, options?: RequestOptions): Promise<PayerRecord>;
    cards(payerId: string, options?: RequestOptions): Promise<CardList>;
    card(payerId: string, cardId: string, options?: RequestOptions): Promise<SavedCard>;
  };
  /** The authenticate URL of a payment session on this gateway's origin. */
  authenticateUrl(sessionId: string): string;
}

/** Basic credentials of RFC 7617, encoded from UTF-8 without Node's Buffer. */
function basic(clientId: string, clientSecret: string): string {
  const bytes = new TextEncoder().encode(`${clientId}:${clientSecret}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

/** The checked options' calls, and the gateway's origin (the handlers' default frame origin). */
export function createCalls(options: GatewayOptions, store: PayframeStore): { core: ServiceCalls; base: URL } {
  for (const key of ['merchantId', 'clientId', 'clientSecret'] as const) {
    if (typeof options?.[key] !== 'string' || options[key] === '') throw configError(`${key} is required`);
  }
  if (!isPathSegment(options.merchantId)) throw configError('merchantId must be a merchant id (not blank, not . or ..)');
  if (options.onEvent !== undefined && typeof options.onEvent !== 'function')
    throw configError('onEvent must be a function (event) => void');
  const base = checkBaseUrl(options.baseUrl);
  const call = createTransport({
    base,
    authorization: basic(options.clientId, options.clientSecret),
    ...checkCallOptions(options),
    fetch: options.fetch,
    onEvent: options.onEvent,
  });
  const merchant = `merchants/${segment('merchantId', options.merchantId)}`;
  const payment = (referenceId: string) => `${merchant}/payment/${segment('referenceId', referenceId)}`;
  const authenticatePrefix = new URL('v1/authenticate/', base);
  const vault = createPayerCalls(call, merchant);

  /**
   * Capture and refund: the amount is checked against its currency, and the currency against the
   * payment's, before anything is posted.
   */
  const action = async (kind: 'capture' | 'refund', referenceId: string, options: CaptureOptions | undefined) => {
    const { amount, signal, invoiceNumber, custom } = options ?? {};
    if (amount !== undefined) {
      const problem = amountProblem(amount?.total, String(amount?.currency));
      if (problem) throw new PayframeError('invalid_request', amountRefusal(problem, 'amount'));
    }
    const json = checked(CaptureRequestSchema, { amount: amount?.total, invoice_number: invoiceNumber, custom });
    const path = `${payment(referenceId)}/${kind}`;
    if (amount !== undefined) {
      const currency = (await call('GET', payment(referenceId), PaymentSchema, { signal })).transaction?.amount?.currency;
      if (currency !== undefined && currency.toUpperCase() !== amount.currency) {
        throw new PayframeError('invalid_request', `amount.currency must be the payment's currency, ${currency.toUpperCase()}`);
      }
    }
    return call('POST', path, ReducedRecordSchema, { json, signal });
  };

  const core: ServiceCalls = {
    // The body the service's own documentation sends: this literal text, as application/json.
    clientToken: (options) =>
      call('POST', `${merchant}/client_token`, ClientTokenSchema, {
        jsonText: "'grant_type=client_credentials'",
        signal: options?.signal,
        changesNothing: true,
      }),
    payments: {
      create: async (input, options) =>
        call('POST', `${merchant}/payment`, PaymentSchema, { json: buildPaymentRequest(input), signal: options?.signal }),
      get: async (referenceId, options) => call('GET', payment(referenceId), PaymentSchema, { signal: options?.signal }),
      session: async (sessionId, options) =>
        call('GET', `${merchant}/payment/session/${segment('sessionId', sessionId)}`, PaymentSchema, { signal: options?.signal }),
      capture: async (referenceId, options) => action('capture', referenceId, options),
      void: async (referenceId, options) =>
        call('POST', `${payment(referenceId)}/void`, ReducedRecordSchema, {
          json: checked(VoidRequestSchema, { invoice_number: options?.invoiceNumber, custom: options?.custom }),
          signal: options?.signal,
        }),
      refund: async (referenceId, options) => action('refund', referenceId, options),
      authenticate: async ({ authenticateUrl, referenceId, otp }, options) => {
        const sessionId = sessionOnOrigin(authenticateUrl, authenticatePrefix);
        return call('POST', `authenticate/${segment('sessionId', sessionId)}`, PaymentSchema, {
          json: checked(AuthenticateRequestSchema, { reference_id: referenceId, otp }),
          signal: options?.signal,
        });
      },
      settle: async (ref, options) => settle(core.payments, ref, store, options),
      verify: vault.verify,
    },
    payers: {
      ...vault.payers,
      byEmail: async (email, options) => {
        if (typeof email !== 'string' || !email.includes('@')) throw new PayframeError('invalid_request', 'email must be an email address');
        return call('GET', `${merchant}/payer`, PayerRecordSchema, { searchParams: { email }, signal: options?.signal });
      },
      byId: async (payerId, options) =>
        call('GET', `${merchant}/payer/${segment('payerId', payerId)}`, PayerRecordSchema, { signal: options?.signal }),
      cards: async (payerId, options) =>
        call('GET', `${merchant}/payer/${segment('payerId', payerId)}/card`, CardListSchema, { signal: options?.signal }),
      card: async (payerId, cardId, options) =>
        call('GET', `${merchant}/payer/${segment('payerId', payerId)}/card/${segment('cardId', cardId)}`, SavedCardSchema, {
          signal: options?.signal,
        }),
    },
    authenticateUrl: (sessionId) => new URL(segment('sessionId', sessionId), authenticatePrefix).href,
  };
  return { core, base };
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
  const safe = url && url.origin === prefix.origin && !url.username && !url.password && !url.search && !url.hash && /^[^/]+$/.test(rest);
  if (!safe) throw new PayframeError('unsafe_url', 'authenticateUrl must be on the gateway origin, under /v1/authenticate/');
  return rest;
}
