import * as v from 'valibot';

/**
 * A notification (IPN) as the service posts it, once `pg_payload` is decoded (base64 of JSON): which
 * event, and a snapshot of the entity when it happened. The kinds the service documents are listed;
 * another kind of the same shape is read too (the service may add kinds), and its resource is read
 * from the service like any other.
 */
export const NOTIFICATION_KINDS = [
  'PAYMENT.AUTHORIZATION.CREATED',
  'PAYMENT.AUTHORIZATION.DENIED',
  'PAYMENT.SALE.COMPLETED',
  'PAYMENT.AUTHORIZATION.VOIDED',
  'PAYMENT.AUTHORIZATION.VOID.DENIED',
  'PAYMENT.CAPTURE.COMPLETED',
  'PAYMENT.CAPTURE.DENIED',
  'PAYMENT.CAPTURE.DEFERRED',
  'PAYMENT.REFUND.COMPLETED',
  'PAYMENT.REFUND.DENIED',
  'PAYMENT.REFUND.DEFERRED',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** An id as an event may carry it: letters, digits, `.`, `_`, `-`; never long enough to hide a card number's digits alone. */
const IdSchema = v.pipe(v.string(), v.regex(/^[\w.-]{1,128}$/, 'must be an id'));

export const NotificationSchema = v.object({
  id: IdSchema,
  create_time: v.string(),
  resource_type: v.picklist(['payment', 'subscription', 'account_updater']),
  kind: v.pipe(v.string(), v.regex(/^[A-Z][A-Z0-9_.]{1,63}$/, 'must be an event kind such as PAYMENT.SALE.COMPLETED')),
  /** What the service says the entity was: read, never believed (the handler reads the payment itself). */
  resource: v.looseObject({ reference_id: v.optional(IdSchema) }),
});
export type Notification = v.InferOutput<typeof NotificationSchema>;
