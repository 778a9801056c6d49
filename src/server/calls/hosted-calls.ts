/**
 * The service's hosted payment page (docs/hosted-page.md): a session made by the merchant's server, a
 * page of the service where the payer types the card, and the payer's return. The card never touches
 * the merchant's page or server.
 */
import {
  HostedPaymentRequestSchema,
  HostedPaymentSchema,
  HostedSessionSchema,
  type HostedPayment,
  type HostedSession,
  type Payment,
} from '../../schemas';
import { PayframeError, requestError } from '../../shared/errors';
import { urlOf } from '../../shared/url-of';
import { readPayment, type PaymentOutcome } from '../readers';
import { commonBody, type PaymentCommon } from './payment-input';
import { checked, segment, type Call, type RequestOptions } from './transport';

/** A payment's details without its card; `returnUrl` is required: where the service sends the payer back. */
export type HostedPaymentInput = Omit<PaymentCommon, 'returnUrl'> & { returnUrl: string };

/**
 * What became of a hosted page's session: `open` while the payer may still pay on it (nothing charged
 * yet), `expired` when nobody paid within its hour (nothing charged, ever), else its payment's outcome.
 */
export type HostedSettlement =
  | { status: 'open'; session: HostedSession }
  | { status: 'expired'; session: HostedSession }
  | (PaymentOutcome & { payment: Payment; session: HostedSession });

export interface HostedPaymentCalls {
  /**
   * Makes a session of the service's payment page: answers `{ invoice_number, hosted_page_link }`; send
   * the payer to the link. It moves no money: a lost answer leaves at most an unused session, which expires.
   */
  create(input: HostedPaymentInput, options?: RequestOptions): Promise<HostedPayment>;
  /** `{ session_id, session_state, reference_id? }`: `pending`, `processing`, `used` or `expired`. */
  session(sessionId: string, options?: RequestOptions): Promise<HostedSession>;
  /** The session, and its payment read from the service once it has one. Reads only; never pays. */
  settle(sessionId: string, options?: RequestOptions): Promise<HostedSettlement>;
}

/** The session id of a `hosted_page_link`: its last path segment (docs/service-decisions.md, "Hosted payment page"). */
export function hostedSessionId(link: string): string {
  const id = urlOf(link)?.pathname.split('/').pop();
  if (!id) throw new PayframeError('invalid_response', 'hosted_page_link does not end with its session id');
  return decodeURIComponent(id);
}

export function createHostedCalls(
  call: Call,
  merchant: string,
  get: (id: string, o?: RequestOptions) => Promise<Payment>,
): HostedPaymentCalls {
  const session: HostedPaymentCalls['session'] = (sessionId, options) =>
    call('GET', `${merchant}/hosted-payment/session/${segment('sessionId', sessionId)}`, HostedSessionSchema, { signal: options?.signal });
  return {
    create: async (input, options) => {
      if (typeof input?.returnUrl !== 'string') throw requestError('returnUrl is required: where the payer comes back');
      const { payer_info, browser_info, transaction, ...rest } = commonBody(input);
      const json = checked(HostedPaymentRequestSchema, {
        intent: input.intent,
        payer: { payment_type: 'CC', payer_info, browser_info },
        transaction,
        ...rest,
      });
      return call('POST', `${merchant}/hosted-payment`, HostedPaymentSchema, { json, signal: options?.signal, changesNothing: true });
    },
    session,
    settle: async (sessionId, options) => {
      const read = await session(sessionId, options);
      if (read.reference_id === undefined) {
        if (read.session_state === 'expired') return { status: 'expired', session: read };
        if (read.session_state === 'pending') return { status: 'open', session: read };
        throw new PayframeError('invalid_response', `a ${read.session_state} hosted payment session must name its reference_id`);
      }
      const payment = await get(read.reference_id, options);
      return { ...readPayment(payment), payment, session: read };
    },
  };
}
