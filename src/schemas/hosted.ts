import * as v from 'valibot';
import { FreeObjectSchema, IntentSchema } from './common';
import { PayerInfoSchema } from './payer';
import { BrowserInfoSchema, RequestTransactionSchema } from './payment';

const text = v.string();

/**
 * `POST …/hosted-payment`: a payment's payer and transaction without a card (the payer types it on the
 * service's page), and a `return_url` the payer comes back to. No merchant-initiated form: a payer is there.
 */
export const HostedPaymentRequestSchema = v.strictObject({
  intent: IntentSchema,
  payer: v.strictObject({
    payment_type: v.literal('CC'),
    payer_info: v.optional(PayerInfoSchema),
    browser_info: v.optional(BrowserInfoSchema),
  }),
  payee: v.optional(v.strictObject({ email: v.optional(text), merchant_id: v.optional(text) })),
  transaction: v.strictObject({ ...RequestTransactionSchema.entries, return_url: RequestTransactionSchema.entries.return_url.wrapped }),
  custom: v.optional(FreeObjectSchema),
  capture_delay: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0))),
  metadata: v.optional(FreeObjectSchema),
});
export type HostedPaymentRequest = v.InferOutput<typeof HostedPaymentRequestSchema>;

/** The creation's answer: the invoice number the payment will carry, and where to send the payer. */
export const HostedPaymentSchema = v.looseObject({
  invoice_number: v.pipe(text, v.minLength(1)),
  hosted_page_link: v.pipe(text, v.url(), v.regex(/^https?:\/\//i, 'hosted_page_link must be an http(s) URL')),
});
export type HostedPayment = v.InferOutput<typeof HostedPaymentSchema>;

export const HostedSessionStateSchema = v.picklist(['pending', 'processing', 'used', 'expired']);
export type HostedSessionState = v.InferOutput<typeof HostedSessionStateSchema>;

/**
 * `GET …/hosted-payment/session/{id}`. `reference_id` (the payment the page made) once the payer has
 * paid: not in the service's docs, our choice (docs/service-decisions.md, "Hosted payment page").
 */
export const HostedSessionSchema = v.looseObject({
  session_id: v.pipe(text, v.minLength(1)),
  session_state: HostedSessionStateSchema,
  reference_id: v.optional(v.pipe(text, v.minLength(1))),
});
export type HostedSession = v.InferOutput<typeof HostedSessionSchema>;
