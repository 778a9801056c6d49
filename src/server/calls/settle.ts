/**
 * `payments.settle`: what became of a payment the merchant could not tell yet, from what it saved. The
 * service has no lookup by invoice number: a payment whose answer was lost is found through the
 * attempt of `handlers.pay` that begun it, or the notification that carries its invoice number: the
 * gateway's store remembers both.
 */
import type { Payment } from '../../schemas';
import { configError, PayframeError } from '../../shared/errors';
import type { NotificationStore, PayframeStore } from '../store/store';
import { type PaymentOutcome, readPayment } from '../readers';
import type { RequestOptions } from './transport';

/** What the merchant saved of a payment: its reference id, a pending one's session id, or the invoice number it sent. */
export type SettleRef = { referenceId: string } | { sessionId: string } | { invoiceNumber: string };

export interface SettleOptions extends RequestOptions {
  /**
   * @deprecated The gateway's own store (`createGateway({ store })`) is read without it. Still taken:
   * a notification store handed to `handlers.notification({ store })` by hand.
   */
  store?: NotificationStore;
}

/**
 * The payment's outcome as the service has it now (`pending` while the payer may still finish), or
 * `unknown`: no payment is known yet for this invoice number (its notification has not come: ask again).
 */
export type Settlement = (PaymentOutcome & { payment: Payment }) | { status: 'unknown'; invoiceNumber: string };

type Read = { get(id: string, o?: RequestOptions): Promise<Payment>; session(id: string, o?: RequestOptions): Promise<Payment> };

export async function settle(read: Read, ref: SettleRef, own: PayframeStore, options: SettleOptions = {}): Promise<Settlement> {
  const { store, signal } = options ?? {};
  const r = (ref ?? {}) as Partial<Record<'referenceId' | 'sessionId' | 'invoiceNumber', unknown>>;
  const given = (['referenceId', 'sessionId', 'invoiceNumber'] as const).filter((k) => r[k] !== undefined);
  if (given.length !== 1 || typeof r[given[0]!] !== 'string') {
    throw new PayframeError('invalid_request', 'settle takes exactly one of referenceId, sessionId or invoiceNumber, as a string');
  }
  let payment: Payment;
  if (typeof r.referenceId === 'string') payment = await read.get(r.referenceId, { signal });
  else if (typeof r.sessionId === 'string') payment = await read.session(r.sessionId, { signal });
  else {
    const invoiceNumber = r.invoiceNumber as string;
    if (store !== undefined && typeof store.referenceOf !== 'function')
      throw configError('store must have referenceOf(invoiceNumber)', 'settle');
    const referenceId = store
      ? await store.referenceOf?.(invoiceNumber)
      : ((await own.attempts.byInvoice(invoiceNumber))?.referenceId ?? (await own.notifications.referenceOf?.(invoiceNumber)));
    if (referenceId === undefined) return { status: 'unknown', invoiceNumber };
    payment = await read.get(referenceId, { signal });
  }
  return { ...readPayment(payment), payment };
}
