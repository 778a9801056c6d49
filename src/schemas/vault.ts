/**
 * The vault beyond lookups (the service's public documentation; docs/saved-cards.md): removing a payer's card and
 * updating a payer (its default card) both answer the bare JSON string "DONE"; a card is verified
 * without charging it by a payment whose total is zero.
 */
import * as v from 'valibot';
import { minorUnits } from './amount';
import { CurrencySchema } from './common';
import { PaymentRequestSchema, RequestTransactionSchema } from './payment';

/** The answer of `DELETE …/payer/{id}/card/{card}` and `PUT …/payer/{id}`: nothing else means it was done. */
export const DoneSchema = v.literal('DONE');

const id = v.pipe(v.string(), v.minLength(1, 'must not be blank'));

/**
 * `PUT …/payer/{payer_id}`: the service's documentation sends all three fields. A field left out is
 * left unchanged in the sandbox (docs/service-decisions.md); at least one is required.
 */
export const PayerUpdateRequestSchema = v.pipe(
  v.strictObject({
    email: v.optional(v.pipe(v.string(), v.email('must be an email address'))),
    name: v.optional(v.string()),
    default_card: v.optional(id),
  }),
  v.check((body) => Object.values(body).some((value) => value !== undefined), 'give at least one of email, name, default_card'),
);
export type PayerUpdateRequest = v.InferOutput<typeof PayerUpdateRequestSchema>;

/** Zero in a currency's own precision: "0", "0.0", "0.00", never more decimals than the currency has. */
export const ZeroAmountSchema = v.pipe(
  v.strictObject({
    currency: CurrencySchema,
    total: v.pipe(v.string(), v.regex(/^0(\.0{1,4})?$/, 'total of a verification must be zero')),
  }),
  v.check((a) => (a.total.split('.')[1]?.length ?? 0) <= minorUnits(a.currency), 'total has more decimals than its currency allows'),
);

/**
 * A card verification: a payment whose total is zero (the one place a zero total is sent). The
 * cardholder is there (no merchant-started verification), and nothing is captured: `auth` only.
 */
export const VerificationRequestSchema = v.strictObject({
  ...PaymentRequestSchema.entries,
  intent: v.literal('auth', 'intent of a verification must be auth'),
  merchant_initiated: v.optional(v.literal(false, 'a verification is started by the cardholder: merchant_initiated must be false')),
  previous_payment_id: v.optional(v.never('previous_payment_id is only for merchant-initiated payments')),
  transaction: v.strictObject({ ...RequestTransactionSchema.entries, amount: ZeroAmountSchema }),
});
export type VerificationRequest = v.InferOutput<typeof VerificationRequestSchema>;
