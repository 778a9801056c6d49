/**
 * `handlers.pay()`: the checkout page's Pay, and what became of it, on any instance of the merchant's
 * server. Each attempt (one press of Pay, named by the page) is begun in the gateway's store before its
 * payment request leaves, under an invoice number of its own; so a lost answer, a restart or another
 * process can always tell what became of it, and no attempt is ever charged twice.
 */
import type { PayAnswer } from '../../protocol/wire';
import type { PaymentCommon } from '../calls/payment-input';
import { configError, PayframeError } from '../../shared/errors';
import type { ServiceCalls } from '../calls/calls';
import { answerOf, outcomeOf, settleAttempt } from '../calls/attempts';
import { hostedSessionId } from '../calls/hosted-calls';
import { type Attempt, NOT_RECEIVED, type PayframeStore } from '../store/store';
import { guarded, type Handler, jsonResponse, methodNotAllowed, readJsonObject, refusalResponse } from './respond';

/** The payment of one attempt, as the merchant's server sets it: everything but the card and the invoice number. */
export type PayPayment = Omit<PaymentCommon, 'invoiceNumber'> & {
  /** Your order this attempt pays: kept with the attempt, handed to `onPayment` with it. */
  order?: string;
};

export interface PayOptions {
  /**
   * The payment this checkout makes (amount, intent, payer, return address, ...), from your session and
   * your order, never from the page's amounts: `body` is what the page posted besides its nonce and
   * attempt. A `PayframeError` it throws is the page's refusal, and nothing is begun.
   */
  payment: (request: Request, body: Record<string, unknown>) => PayPayment | Promise<PayPayment>;
  /**
   * Whose attempt this is (your session of the payer): an attempt is answered to its owner only, and
   * only a caller with a session may close an attempt the store does not have (`none`). Without it,
   * knowing an attempt's id is enough to read its outcome, and an unknown one is answered `checking`.
   */
  owner?: (request: Request) => string | undefined | Promise<string | undefined>;
  /** The invoice number of a new attempt; default `PF-` and a random UUID. Must be new each time: the store refuses one it has. */
  invoiceNumber?: (attempt: string) => string;
  /**
   * Whether the page may choose the service's own payment page instead of the hosted fields: it posts
   * `{ attempt, hostedPage: true }` (no nonce), the attempt is begun as any other, a session of the
   * page is made for it (`payment(...)` must then set `returnUrl`, your `handlers.hostedReturn()` route),
   * and the answer is `{ status: 'hosted', hostedPageLink }` (docs/hosted-page.md). Default false.
   */
  hostedPage?: boolean;
}

/** The page's id for a press of Pay: a UUID, or any id of 8 to 128 word characters. */
const ATTEMPT = /^[\w-]{8,128}$/;

function readAttempt(value: unknown): string {
  if (typeof value !== 'string' || !ATTEMPT.test(value))
    throw new PayframeError('invalid_request', 'attempt must be an id of 8 to 128 letters, digits, - or _');
  return value;
}

/**
 * Errors after which the payment request surely made no payment: the attempt is closed `void`. Not
 * `timeout` (a 408 may come after the service acted) nor `server_error`: those leave the attempt open.
 */
const NOT_CHARGED = new Set<string>([
  'invalid_request',
  'invalid_card',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'network',
  'rate_limited',
]);

/**
 * Whether a payment request that threw surely made no payment (refused, or never sent): only then may
 * an order be dropped or its payer told "not paid". Anything else may have charged: check it.
 */
export function isSurelyNotCharged(error: unknown): boolean {
  return error instanceof PayframeError && NOT_CHARGED.has(error.code);
}

/** What the pay route's parts share. */
interface PayContext {
  gateway: ServiceCalls;
  store: PayframeStore;
  report: (status: number, error: unknown) => void;
}

/** A session of the service's page for the attempt: it moves no money, so any failure closes the attempt `void`. */
async function toHostedPage(ctx: PayContext, invoice: string, input: PaymentCommon): Promise<Response> {
  let link: string;
  try {
    if (typeof input.returnUrl !== 'string') throw configError('payment must set returnUrl for the hosted page', 'pay');
    link = (await ctx.gateway.hostedPayments.create({ ...input, returnUrl: input.returnUrl, invoiceNumber: invoice })).hosted_page_link;
    // The page's session, kept with the attempt: a payer who never pays leaves it to expire, and `none` is then proven.
    await ctx.store.attempts.record(invoice, { status: 'open', outcome: { hostedSessionId: hostedSessionId(link) } });
  } catch (error) {
    // Nobody has the link of a session whose answer was lost: nothing can be charged for this attempt.
    await ctx.store.attempts.record(invoice, { status: 'void' });
    throw error;
  }
  return jsonResponse(200, { status: 'hosted', hostedPageLink: link } satisfies PayAnswer);
}

/** The payment request of a begun attempt, and its outcome written to the attempt before the page hears it. */
async function charge(ctx: PayContext, begun: Omit<Attempt, 'updatedAt'>, input: PaymentCommon, nonce: string): Promise<Response> {
  const invoice = begun.invoiceNumber;
  let made;
  try {
    made = await ctx.gateway.payments.create({ ...input, card: { nonce }, invoiceNumber: invoice } as never);
  } catch (error) {
    // Refused, or never sent: no payment was made. Closed, so that asking again answers `none`.
    if (isSurelyNotCharged(error)) {
      await ctx.store.attempts.record(invoice, { status: 'void' });
      throw error;
    }
    // Anything else (its answer lost, a 5xx after the service may have acted): the service may have
    // charged. The attempt stays open, and the page is told `checking`, never a refusal.
    ctx.report(504, error);
    return jsonResponse(200, { status: 'checking' } satisfies PayAnswer);
  }
  const known = { ...begun, ...outcomeOf(made), updatedAt: Date.now() };
  // The payment is made: a store that fails to write it now still answers the page what it became
  // (the notification and settleOpen write it later).
  const after = await ctx.store.attempts.record(invoice, outcomeOf(made)).catch((error: unknown) => (ctx.report(503, error), known));
  return jsonResponse(200, answerOf(after ?? known) satisfies PayAnswer);
}

export function payHandler(
  gateway: ServiceCalls,
  store: PayframeStore,
  options: PayOptions,
  report: (status: number, error: unknown) => void,
): Handler {
  const { payment, owner, invoiceNumber = () => `PF-${crypto.randomUUID()}` } = options ?? ({} as PayOptions);
  if (typeof payment !== 'function') throw configError('payment must be a function (request, body) => the payment without its card', 'pay');
  if (owner !== undefined && typeof owner !== 'function') throw configError('owner must be a function (request) => your session id', 'pay');
  if (typeof invoiceNumber !== 'function') throw configError('invoiceNumber must be a function (attempt) => a new invoice number', 'pay');
  const ctx: PayContext = { gateway, store, report };
  const ownerOf = async (request: Request) => {
    const who = await owner?.(request);
    if (who !== undefined && (typeof who !== 'string' || who === '')) throw configError('owner must answer a string or undefined', 'pay');
    return who;
  };
  /** The attempt as its owner may read it, settled from the service while it is open. */
  const answer = async (attempt: Attempt, who: string | undefined): Promise<Response> => {
    if (attempt.owner !== undefined && attempt.owner !== who) {
      return refusalResponse(403, { code: 'forbidden', message: 'this checkout did not make this attempt' });
    }
    const read = { get: gateway.payments.get, hostedSettle: gateway.hostedPayments.settle };
    // A read that fails (the service down a moment) leaves the attempt as kept: `checking` while it is
    // open, never a refusal the page would show as "not paid".
    const kept = await settleAttempt(read, store, attempt).catch((error: unknown) => (report(503, error), attempt));
    return jsonResponse(200, answerOf(kept) satisfies PayAnswer);
  };

  const post = guarded(
    'POST',
    async (request) => {
      const { nonce, attempt: id, hostedPage: onPage, ...rest } = await readJsonObject(request);
      const attempt = readAttempt(id);
      const hosted = onPage === true;
      if (hosted && options.hostedPage !== true)
        throw new PayframeError('invalid_request', 'this pay route does not offer the hosted page (handlers.pay({ hostedPage: true }))');
      if (!hosted && (typeof nonce !== 'string' || nonce === ''))
        throw new PayframeError('invalid_request', 'nonce must be the card nonce the page got');
      const who = await ownerOf(request);
      const kept = await store.attempts.get(attempt);
      if (kept) return answer(kept, who); // asked again: what the first became, and nothing charged
      const { order, ...input } = await payment(request, rest);
      const begun = { attempt, invoiceNumber: invoiceNumber(attempt), owner: who, order, status: 'open' as const, createdAt: Date.now() };
      const taken = await store.attempts.begin(begun);
      if (!taken.taken) return answer(taken.attempt, who); // the same attempt at the same moment, or closed by a GET
      if (hosted) return toHostedPage(ctx, begun.invoiceNumber, input as PaymentCommon);
      return charge(ctx, begun, input as PaymentCommon, nonce as string);
    },
    report,
  );

  const get = guarded(
    'GET',
    async (request) => {
      const attempt = readAttempt(new URL(request.url).searchParams.get('attempt') ?? undefined);
      const who = await ownerOf(request);
      const kept = await store.attempts.get(attempt);
      if (kept) return answer(kept, who);
      // Closing an attempt is a write: only for a payer the shop knows (`owner`), and kept only as long as
      // its POST could still arrive (NOT_RECEIVED). Anyone else hears `checking`: an absence proves nothing.
      if (who === undefined) return jsonResponse(200, { status: 'checking' } satisfies PayAnswer);
      // Not begun: closed now, atomically, so that a POST of it still on its way charges nothing. Only then is `none` true.
      const closed = await store.attempts.begin({
        attempt,
        invoiceNumber: invoiceNumber(attempt),
        owner: who,
        status: 'void',
        outcome: { ...NOT_RECEIVED },
        createdAt: Date.now(),
      });
      if (!closed.taken) return answer(closed.attempt, who);
      return jsonResponse(200, { status: 'none' } satisfies PayAnswer);
    },
    report,
  );

  return async (request) => {
    if (request.method === 'POST') return post(request);
    if (request.method === 'GET') return get(request);
    return methodNotAllowed('GET, POST');
  };
}
