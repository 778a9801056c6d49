/**
 * The hosted payment page's sessions: a payment waiting for its card. The page (http/hosted/) takes the
 * card and pays through `createPayment`, so what it makes is a payment like any other.
 */
import { toMinor, type HostedPaymentRequest, type HostedSessionState, type PaymentRequest } from '../../schemas';
import { fail } from '../errors';
import { createPayment, refresh, type Ctx } from './payments';
import { hex, type HostedSessionRecord, type PaymentRecord, type Store } from './state';

/** A session nobody paid is `expired` an hour after its creation, on the sandbox's clock. */
export const HOSTED_MS = 3600_000;

/** The card as the page read it: checked there, before `payHosted`. */
export interface HostedCard {
  number: string;
  expireMonth: number;
  expireYear: number;
  cvv: string;
  name: string;
}

export function createHostedSession(ctx: Ctx, body: HostedPaymentRequest): HostedSessionRecord {
  const { amount } = body.transaction;
  // A verification (a zero total) keeps a card without a payer's purchase: not what a checkout page is for.
  if (toMinor(amount.total, amount.currency) === 0) fail('INVALID_AMOUNT', 'A hosted payment takes a total above zero');
  const session: HostedSessionRecord = {
    id: hex(16),
    merchantId: ctx.merchantId,
    invoiceNumber: body.transaction.invoice_number ?? `HPP-${hex(8).toUpperCase()}`,
    createdAt: ctx.clock.nowMs(),
    request: body,
  };
  ctx.store.hostedSessions.set(session.id, session);
  return session;
}

/** A session by id, whoever asks (the page has no merchant credentials). */
export function hostedSessionOf(store: Store, id: string): HostedSessionRecord {
  const session = store.hostedSessions.get(id);
  if (!session) return fail('NOT_FOUND', 'No hosted payment session with this id');
  return session;
}

/** The payment the page made, brought up to date on the sandbox's clock. */
export function hostedPayment(ctx: Omit<Ctx, 'merchantId'>, session: HostedSessionRecord): PaymentRecord | undefined {
  const p = session.paymentId === undefined ? undefined : ctx.store.payments.get(session.paymentId);
  return p && refresh({ ...ctx, merchantId: p.merchantId }, p);
}

/** `processing` while its payment waits for the payer's OTP; `used` once that payment has an outcome. */
export function hostedState(ctx: Omit<Ctx, 'merchantId'>, session: HostedSessionRecord): HostedSessionState {
  const p = hostedPayment(ctx, session);
  if (p) return p.state === 'pending' ? 'processing' : 'used';
  return ctx.clock.nowMs() >= session.createdAt + HOSTED_MS ? 'expired' : 'pending';
}

export function hostedView(ctx: Omit<Ctx, 'merchantId'>, session: HostedSessionRecord) {
  const state = hostedState(ctx, session);
  return { session_id: session.id, session_state: state, ...(session.paymentId ? { reference_id: session.paymentId } : {}) };
}

/** Pays a pending session with the card typed on its page: one payment per session, declined or not. */
export function payHosted(ctx: Omit<Ctx, 'merchantId'>, session: HostedSessionRecord, card: HostedCard): PaymentRecord {
  const state = hostedState(ctx, session);
  if (state !== 'pending') fail('SESSION_EXPIRED', state === 'expired' ? 'This payment page has expired' : 'This payment page was used');
  const { request } = session;
  const body: PaymentRequest = {
    intent: request.intent,
    payer: {
      payment_type: 'CC',
      funding_instrument: {
        credit_card: { number: card.number, expire_month: card.expireMonth, expire_year: card.expireYear, cvv2: card.cvv, name: card.name },
      },
      ...(request.payer.payer_info ? { payer_info: request.payer.payer_info } : {}),
    },
    transaction: { ...request.transaction, invoice_number: session.invoiceNumber },
    ...(request.custom ? { custom: request.custom } : {}),
    ...(request.metadata ? { metadata: request.metadata } : {}),
    ...(request.capture_delay !== undefined ? { capture_delay: request.capture_delay } : {}),
  };
  const view = createPayment({ ...ctx, merchantId: session.merchantId }, body);
  const p = ctx.store.payments.get(view.id)!;
  p.hostedSessionId = session.id;
  session.paymentId = p.id;
  return p;
}
