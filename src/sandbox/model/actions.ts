import {
  amountProblem,
  fromMinor,
  toMinor,
  type AuthenticateRequest,
  type CaptureRequest,
  type NotificationKind,
  type RefundRequest,
  type VoidRequest,
} from '../../schemas';
import { OTP, RESULT_TEXT } from './cards';
import { fail } from '../errors';
import { approve, changed, findPayment, itemsOf, notifyOutcome, paymentView, refresh, type Ctx } from './payments';
import { newPaymentId, type ChildRecord, type PaymentRecord } from './state';

// Every function here checks, then commits, with no await in between: racing calls cannot both pass.

const KIND = { captured: 'capture', voided: 'void', refunded: 'refund' } as const;

/**
 * The payment to act on. A capture, void or refund record (readable by its id) is not one: the refusal
 * is a state-machine one (a void of it is VOID_NOT_ALLOWED, as for anything but an authorisation), and names the payment.
 */
function actedOn(ctx: Ctx, id: string, refusal: 'INVALID_STATE' | 'VOID_NOT_ALLOWED' = 'INVALID_STATE'): PaymentRecord {
  const c = ctx.store.children.get(id);
  if (c && c.merchantId === ctx.merchantId) {
    fail(refusal, `${id} is a ${KIND[c.state]} record, not a payment; act on its payment ${c.referenceId}`);
  }
  return findPayment(ctx, id);
}

function amountIn(p: PaymentRecord, amount: string | undefined, fallbackMinor: number): number {
  if (amount === undefined) return fallbackMinor;
  const problem = amountProblem(amount, p.currency);
  if (problem) return fail('INVALID_AMOUNT', `amount ${problem}`);
  return toMinor(amount, p.currency);
}

function child(
  ctx: Ctx,
  p: PaymentRecord,
  state: ChildRecord['state'],
  amountMinor: number,
  body: CaptureRequest | VoidRequest,
): ChildRecord {
  const record: ChildRecord = {
    id: newPaymentId(),
    merchantId: p.merchantId,
    referenceId: p.id,
    state,
    currency: p.currency,
    amountMinor,
    createdAt: ctx.clock.nowMs(),
  };
  if (body.invoice_number !== undefined) record.invoiceNumber = body.invoice_number;
  if (body.custom !== undefined) record.custom = body.custom;
  if (state === 'voided') record.items = itemsOf(p);
  ctx.store.children.set(record.id, record);
  return record;
}

/**
 * The reduced record of the interface document's 2.4. The result text is `description` on capture and refund records, as
 * the live service's examples show, and `message` on a void record (no example; the interface allows both).
 */
export function childView(ctx: Ctx, c: ChildRecord) {
  const invoice = c.invoiceNumber ?? '';
  const code = c.denied ? '1005' : '0000';
  return {
    id: c.id,
    reference_id: c.referenceId,
    state: c.denied ? 'declined' : c.state,
    result: { code, [c.state === 'voided' ? 'message' : 'description']: RESULT_TEXT[code]! },
    transaction: {
      amount: { currency: c.currency, total: fromMinor(c.amountMinor, c.currency) },
      mode: 'TEST',
      invoice_number: invoice,
      ...(c.items ? { items: c.items } : {}),
    },
    create_time: ctx.clock.iso(c.createdAt),
    custom: c.custom ?? {},
    ...(c.state === 'captured' ? { chargeback: 'N' } : {}),
  };
}

/** How long a deferred capture or refund waits, on the sandbox's clock, before the acquirer settles it. */
export const DEFER_MS = 24 * 3600_000;

/** Each action's kinds: completed, denied, deferred (the service documents no deferred void). */
const KINDS: Record<ChildRecord['state'], [NotificationKind, NotificationKind, NotificationKind?]> = {
  captured: ['PAYMENT.CAPTURE.COMPLETED', 'PAYMENT.CAPTURE.DENIED', 'PAYMENT.CAPTURE.DEFERRED'],
  voided: ['PAYMENT.AUTHORIZATION.VOIDED', 'PAYMENT.AUTHORIZATION.VOID.DENIED'],
  refunded: ['PAYMENT.REFUND.COMPLETED', 'PAYMENT.REFUND.DENIED', 'PAYMENT.REFUND.DEFERRED'],
};

/**
 * Notifies an accepted action as its test amount says (the last two digits of its amount in minor
 * units; a void's is the payment's): `…91` deferred, then completed DEFER_MS later; `…92` denied at
 * once; `…93` deferred, then denied; anything else completed. A denial runs `undo`, which puts the
 * payment back as it was before the action. A void has no deferred kind: `…91` completes, `…93` is denied.
 */
function settle(ctx: Ctx, p: PaymentRecord, record: ChildRecord, undo: () => void): void {
  const [completed, denied, deferred] = KINDS[record.state];
  const cents = record.amountMinor % 100;
  const deny = cents === 92 || cents === 93;
  const end = (at: number) => {
    if (deny) {
      undo();
      record.denied = true;
    }
    changed(ctx, p, deny ? denied : completed, childView(ctx, record), at);
  };
  if (deferred === undefined || (cents !== 91 && cents !== 93)) return end(record.createdAt);
  changed(ctx, p, deferred, childView(ctx, record), record.createdAt);
  const at = record.createdAt + DEFER_MS;
  (p.unsettled ??= []).push({ at, state: record.state, run: () => end(at) });
  ctx.store.due.add(at, p.id);
}

export function capture(ctx: Ctx, id: string, body: CaptureRequest) {
  const p = actedOn(ctx, id);
  if (p.state === 'cancelled') fail('AUTHORISATION_EXPIRED', 'The authorisation was not captured within seven days and is cancelled');
  if (p.state === 'captured' || p.state === 'refunded') fail('ALREADY_CAPTURED', 'This payment has already been captured');
  if (p.state !== 'authorised') fail('INVALID_STATE', `A payment in state ${p.state} cannot be captured`);
  const minor = amountIn(p, body.amount, p.amountMinor);
  if (minor > p.amountMinor) fail('CAPTURE_EXCEEDS_AMOUNT', 'The capture amount is above the authorised amount');
  p.state = 'captured';
  p.capturedMinor = minor;
  const record = child(ctx, p, 'captured', minor, body);
  const view = childView(ctx, record);
  settle(ctx, p, record, () => {
    p.state = 'authorised';
    p.capturedMinor = 0;
  });
  return view;
}

export function voidPayment(ctx: Ctx, id: string, body: VoidRequest) {
  const p = actedOn(ctx, id, 'VOID_NOT_ALLOWED');
  if (p.state === 'cancelled') fail('AUTHORISATION_EXPIRED', 'The authorisation was not captured within seven days and is cancelled');
  if (p.state !== 'authorised') fail('VOID_NOT_ALLOWED', `Only an authorisation can be voided; this payment is ${p.state}`);
  p.state = 'voided';
  const record = child(ctx, p, 'voided', p.amountMinor, body);
  const view = childView(ctx, record);
  settle(ctx, p, record, () => (p.state = 'authorised'));
  return view;
}

export function refund(ctx: Ctx, id: string, body: RefundRequest) {
  const p = actedOn(ctx, id);
  if (p.state === 'refunded') fail('ALREADY_REFUNDED', 'This payment has been refunded in full');
  if (p.state !== 'captured') fail('INVALID_STATE', `A payment in state ${p.state} cannot be refunded`);
  if (p.unsettled?.some((s) => s.state === 'captured')) fail('INVALID_STATE', 'The capture is deferred: refund once it has completed');
  const remaining = p.capturedMinor - p.refundedMinor;
  const minor = amountIn(p, body.amount, remaining);
  if (minor > remaining) fail('REFUND_EXCEEDS_AMOUNT', 'The refunds would exceed the captured amount');
  p.refundedMinor += minor;
  if (p.refundedMinor === p.capturedMinor) p.state = 'refunded';
  const record = child(ctx, p, 'refunded', minor, body);
  const view = childView(ctx, record);
  settle(ctx, p, record, () => {
    p.refundedMinor -= minor;
    if (p.state === 'refunded') p.state = 'captured';
  });
  return view;
}

/** The payment behind a session, whoever asks (the redirect page has no merchant credentials). */
export function paymentOfSession(ctx: Omit<Ctx, 'merchantId'>, sessionId: string): PaymentRecord {
  const id = ctx.store.sessions.get(sessionId);
  const p = id ? ctx.store.payments.get(id) : undefined;
  if (!p) return fail('NOT_FOUND', 'No payment session with this id');
  return refresh({ ...ctx, merchantId: p.merchantId }, p);
}

/**
 * Finishes a pending payment with an OTP. The session is used up by any answer: a right OTP
 * approves, a wrong one declines (1202).
 */
export function completeOtp(ctx: Ctx, p: PaymentRecord, otp: string): void {
  if (p.state !== 'pending' || p.sessionUsed) fail('SESSION_EXPIRED', 'This payment session has expired or has been used');
  p.sessionUsed = true;
  if (otp !== OTP) {
    p.state = 'declined';
    p.result = { code: '1202', description: RESULT_TEXT['1202']! };
    notifyOutcome(ctx, p);
    return;
  }
  const now = ctx.clock.nowMs();
  approve(ctx, p, now);
  const message = RESULT_TEXT['0000']!;
  p.actions = { authorization: { id: p.id, state: 'authorised', code: '0000', message } };
  // The capture of an authenticated sale is a record of its own, readable by the id the actions give.
  if (p.intent === 'sale')
    p.actions.capture = { id: child(ctx, p, 'captured', p.amountMinor, {}).id, state: 'captured', code: '0000', message };
  notifyOutcome(ctx, p, now);
}

export function authenticate(ctx: Ctx, p: PaymentRecord, body: AuthenticateRequest) {
  if (body.reference_id !== p.id) fail('INVALID_REQUEST', 'reference_id is not the payment of this session');
  if (p.state === 'pending' && !p.sessionUsed && p.otpFlow === 'redirect') {
    fail('AUTHENTICATE_NOT_SUPPORTED', "This card's acquirer does not support OTP through this endpoint; send the payer to redirect_url");
  }
  completeOtp(ctx, p, body.otp);
  return paymentView(ctx, p, 'action');
}
