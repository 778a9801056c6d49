/**
 * The hosted payment page's two routes on the merchant's server: one makes a session and sends the
 * payer to the service's page, the other is the page the payer returns to. The return settles the order
 * through the same `onPayment` the notification route calls, so whichever comes first settles it, and a
 * payer who never returns is settled by the notification alone.
 */
import type { HostedPageAnswer } from '../../protocol/wire';
import type { Payment } from '../../schemas';
import { configError, PayframeError } from '../../shared/errors';
import { urlOf } from '../../shared/url-of';
import type { ServiceCalls } from '../calls/calls';
import { hostedSessionId, type HostedPaymentInput, type HostedSettlement } from '../calls/hosted-calls';
import { guarded, type Handler, jsonResponse } from './respond';
import { outcomeOf } from '../calls/attempts';
import type { Attempt, PayframeStore } from '../store/store';

export interface HostedPageOptions {
  /**
   * The session for this request: the order's amount, its `invoiceNumber` (one per attempt: the
   * notification names it) and the `returnUrl` your `handlers.hostedReturn()` route serves. Read the
   * order from your own session, never from the page's word about amounts.
   */
  order: (request: Request) => HostedPaymentInput | Promise<HostedPaymentInput>;
  /** Told of the session before the payer leaves: keep `invoiceNumber` and `sessionId` with the order. */
  onSession?: (session: HostedPageAnswer, request: Request) => void | Promise<void>;
}

export interface HostedReturnOptions {
  /**
   * Settles your order with the payment the page made: the same function as the notification route's
   * `onPayment` (an order is settled twice with the same payment: make it idempotent). `attempt` is the
   * attempt of `handlers.pay({ hostedPage: true })` that sent the payer, with its outcome written, or
   * undefined for a session made otherwise. Called once the payment has an outcome, approved or
   * declined; not while it is pending, nor for a session never paid.
   */
  onPayment: (payment: Payment, attempt: Attempt | undefined) => void | Promise<void>;
  /** The page the payer sees: from the settlement (`open`, `expired`, or the payment's outcome). */
  render: (settlement: HostedSettlement, request: Request) => Response | Promise<Response>;
}

const wantsJson = (request: Request) => (request.headers.get('accept') ?? '').includes('application/json');

export function hostedPageHandler(gateway: ServiceCalls, options: HostedPageOptions, report: (s: number, e: unknown) => void): Handler {
  if (typeof options?.order !== 'function') throw configError('order must be a function (request) => the hosted payment', 'hostedPage');
  if (options.onSession !== undefined && typeof options.onSession !== 'function')
    throw configError('onSession must be a function (session, request) => void', 'hostedPage');
  return guarded(
    'POST',
    async (request) => {
      const made = await gateway.hostedPayments.create(await options.order(request));
      const answer: HostedPageAnswer = {
        hostedPageLink: made.hosted_page_link,
        sessionId: hostedSessionId(made.hosted_page_link),
        invoiceNumber: made.invoice_number,
      };
      await options.onSession?.(answer, request);
      // A form's POST is sent on (303: the payer's browser GETs the page); a page's fetch reads where to go.
      if (wantsJson(request)) return jsonResponse(200, answer);
      return new Response(null, { status: 303, headers: { location: answer.hostedPageLink, 'cache-control': 'no-store' } });
    },
    report,
  );
}

export function hostedReturnHandler(
  gateway: ServiceCalls,
  store: PayframeStore,
  options: HostedReturnOptions,
  report: (s: number, e: unknown) => void,
): Handler {
  if (typeof options?.onPayment !== 'function') throw configError('onPayment must be a function (payment) => void', 'hostedReturn');
  if (typeof options.render !== 'function')
    throw configError('render must be a function (settlement, request) => Response', 'hostedReturn');
  return guarded(
    'GET',
    async (request) => {
      const sessionId = urlOf(request.url)?.searchParams.get('payment-session-id');
      if (!sessionId || !/^[\w-]{1,128}$/.test(sessionId))
        throw new PayframeError('invalid_request', 'the return address must carry payment-session-id');
      const settlement = await gateway.hostedPayments.settle(sessionId);
      if ('payment' in settlement && settlement.status !== 'pending') {
        const invoice = settlement.payment.transaction?.invoice_number;
        // The attempt this payment settles, in the same store the pay and notification routes write.
        const attempt = invoice === undefined ? undefined : await store.attempts.record(invoice, outcomeOf(settlement.payment));
        await options.onPayment(settlement.payment, attempt);
      }
      return options.render(settlement, request);
    },
    report,
  );
}
