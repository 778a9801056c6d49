import * as v from 'valibot';
import { PayframeError } from '../shared/errors';
import type { PendingPayment } from '../protocol/wire';
import type { Payment, PaymentState, ReducedRecord } from '../schemas';
import { PendingPaymentSchema } from './wire';

/**
 * What happened to a payment, in the terms a merchant acts on. `payments.create` returns a declined
 * payment instead of throwing: it is a record to keep, and these readers tell the outcome.
 *
 * - `approved`: the issuer approved it (`state` says where it is now: authorised, captured, and
 *   later voided, refunded or cancelled).
 * - `pending`: the payer must pass an OTP check: send them to `redirectUrl`, or post the OTP to
 *   `authenticateUrl` (see `payments.authenticate`).
 * - `declined`: `code` and `text` say why (1005 Do not honor, 1051 Insufficient funds, ...).
 */
export type PaymentOutcome =
  | {
      status: 'approved';
      state: Exclude<PaymentState, 'pending' | 'declined'>;
      referenceId: string;
      code: string;
      text: string | undefined;
    }
  | {
      status: 'pending';
      state: 'pending';
      referenceId: string;
      code: string;
      text: string | undefined;
      redirectUrl: string | undefined;
      authenticateUrl: string | undefined;
      sessionId: string | undefined;
    }
  | { status: 'declined'; state: 'declined'; referenceId: string; code: string; text: string | undefined };

type AnyRecord = Payment | ReducedRecord;

export function readPayment(payment: AnyRecord): PaymentOutcome {
  const { state, reference_id: referenceId, result } = payment;
  const base = { referenceId, code: result.code, text: result.description ?? result.message };
  if (state === 'pending') {
    const authenticateUrl = result.authenticate_url;
    const redirectUrl = result.redirect_url;
    return { status: 'pending', state, ...base, redirectUrl, authenticateUrl, sessionId: sessionIdOf(authenticateUrl ?? redirectUrl) };
  }
  if (state === 'declined') return { status: 'declined', state, ...base };
  return { status: 'approved', state, ...base };
}

/**
 * Whether the issuer approved the payment, whatever happened since: a voided, refunded or cancelled
 * (uncaptured for seven days) payment is still approved. Read `state` for where it is now; to ship
 * goods, check `state === 'captured'` (or `'authorised'` before a capture).
 */
export const isApproved = (payment: AnyRecord) => readPayment(payment).status === 'approved';
export const isPending = (payment: AnyRecord) => payment.state === 'pending';
export const isDeclined = (payment: AnyRecord) => payment.state === 'declined';

/** The payment session id: the last path segment of `authenticate_url` or `redirect_url`. */
export function sessionIdOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const last = new URL(url).pathname.split('/').pop();
    return last ? decodeURIComponent(last) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What to save after the first payment of a card that will be kept (the interface document's 4.3): `previousPaymentId`
 * for later merchant-initiated payments, `savedCardId` for payments on the saved card.
 */
export function readSavedCard(payment: Payment): { previousPaymentId: string; savedCardId: string | undefined } {
  return { previousPaymentId: payment.reference_id, savedCardId: payment.payer?.funding_instrument?.credit_card?.id };
}

/**
 * What the checkout page needs to finish a pending payment (`handlePending` in `payframe`): the ids,
 * the redirect URL and whether the service offers the OTP call for it (`otp`: the payment has an
 * `authenticate_url`), nothing else (no card data, no `authenticate_url` itself: the OTP goes through
 * the merchant's own server). `invalid_request` for a payment that is not pending.
 */
export function toPending(payment: Payment): PendingPayment {
  const outcome = readPayment(payment);
  if (outcome.status !== 'pending') throw new PayframeError('invalid_request', `the payment is ${payment.state}, not pending`);
  const pending = v.safeParse(PendingPaymentSchema, {
    referenceId: outcome.referenceId,
    sessionId: outcome.sessionId,
    redirectUrl: outcome.redirectUrl,
    otp: outcome.authenticateUrl !== undefined,
  });
  // The page follows redirectUrl only to this session's page: an answer naming two sessions is the service's fault.
  if (!pending.success || sessionIdOf(pending.output.redirectUrl) !== pending.output.sessionId) {
    throw new PayframeError('invalid_response', 'the pending payment has no usable redirect_url or payment session id', {
      body: payment.result,
    });
  }
  return pending.output;
}
