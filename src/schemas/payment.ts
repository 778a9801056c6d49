import * as v from 'valibot';
import {
  checkedAmount,
  CurrencySchema,
  DecimalAmountSchema,
  FreeObjectSchema,
  IntentSchema,
  RequestExpireMonthSchema,
  RequestExpireYearSchema,
  RequestTransactionTypeSchema,
  ResponseIntentSchema,
  ResponseTransactionTypeSchema,
  TimestampSchema,
} from './common';
import { PayerInfoSchema, ResponseCardSchema, ResponsePayerInfoSchema, ResponsePhoneSchema } from './payer';

const text = v.string();
const id = v.pipe(v.string(), v.minLength(1));
const cvv2 = v.pipe(v.string(), v.regex(/^\d{3,4}$/, 'cvv2 must be 3 or 4 digits'));
/** Where a payer's browser is sent: an absolute http(s) URL, never `javascript:` or `data:`. */
const absoluteUrl = v.pipe(v.string(), v.url('must be an absolute URL'), v.regex(/^https?:\/\//i, 'must be an http(s) URL'));

// ---- request: funding instrument (exactly one of three forms) ----

export const FullCardSchema = v.strictObject({
  number: v.pipe(v.string(), v.regex(/^\d{12,19}$/, 'number must be 12 to 19 digits')),
  expire_month: RequestExpireMonthSchema,
  expire_year: RequestExpireYearSchema,
  cvv2: v.optional(cvv2),
  name: v.optional(text),
  /** `true` when the card is a card kept on file by the merchant. */
  stored: v.optional(v.boolean()),
});
export const SavedCardRefSchema = v.strictObject({ credit_card_id: id, cvv2: v.optional(cvv2) });
export const NonceRefSchema = v.strictObject({ nonce: v.pipe(v.string(), v.uuid('nonce must be a UUID')), name: v.optional(text) });

export const FundingInstrumentSchema = v.union(
  [
    v.strictObject({ credit_card: FullCardSchema }),
    v.strictObject({ credit_card_token: SavedCardRefSchema }),
    v.strictObject({ credit_card_nonce: NonceRefSchema }),
  ],
  'funding_instrument must hold exactly one of credit_card, credit_card_token, credit_card_nonce',
);
export type FundingInstrument = v.InferOutput<typeof FundingInstrumentSchema>;

/** `payer.browser_info` (optional, inside `payer`: the payer's browser, its screen and language), filled in the browser and passed on by the server. */
export const BrowserInfoSchema = v.strictObject({
  accept_header: v.optional(text),
  color_depth: v.optional(v.pipe(v.number(), v.finite())),
  java_enabled: v.optional(v.boolean()),
  javascript_enabled: v.optional(v.boolean()),
  language: v.optional(text),
  screen_height: v.optional(text),
  screen_width: v.optional(text),
  timezone_offset: v.optional(v.pipe(v.number(), v.finite())),
  user_agent: v.optional(text),
  ip: v.optional(text),
  channel: v.optional(v.literal('Web')),
});
export type BrowserInfo = v.InferOutput<typeof BrowserInfoSchema>;

// ---- request: payment ----

export const ItemSchema = v.strictObject({
  sku: v.optional(text),
  name: v.optional(text),
  description: v.optional(text),
  quantity: v.optional(text),
  price: v.optional(text),
  shipping: v.optional(text),
  currency: v.optional(CurrencySchema),
  url: v.optional(text),
  image: v.optional(text),
  tangible: v.optional(v.picklist(['true', 'false'])),
});
export type Item = v.InferOutput<typeof ItemSchema>;

export const RequestAmountSchema = checkedAmount(
  v.strictObject({
    currency: CurrencySchema,
    total: DecimalAmountSchema,
    details: v.optional(v.strictObject({ subtotal: v.optional(text), shipping: v.optional(text) })),
  }),
);

export const RequestTransactionSchema = v.strictObject({
  type: v.optional(RequestTransactionTypeSchema),
  amount: RequestAmountSchema,
  description: v.optional(text),
  items: v.optional(v.array(ItemSchema)),
  shipping_address: v.optional(v.strictObject({ recipient_name: v.optional(text) })),
  soft_descriptor: v.optional(v.strictObject({ text: v.optional(text), city: v.optional(text) })),
  invoice_number: v.optional(text),
  /** Where the redirect page sends the payer back, with `?payment-session-id=<id>`. */
  return_url: v.optional(absoluteUrl),
  cancel_url: v.optional(absoluteUrl),
});

export const PaymentRequestSchema = v.strictObject({
  intent: IntentSchema,
  merchant_initiated: v.optional(v.boolean()),
  previous_payment_id: v.optional(id),
  payer: v.strictObject({
    payment_type: v.literal('CC'),
    funding_instrument: FundingInstrumentSchema,
    payer_info: v.optional(PayerInfoSchema),
    browser_info: v.optional(BrowserInfoSchema),
  }),
  payee: v.optional(v.strictObject({ email: v.optional(text), merchant_id: v.optional(text) })),
  transaction: RequestTransactionSchema,
  custom: v.optional(FreeObjectSchema),
  capture_delay: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0))),
  metadata: v.optional(FreeObjectSchema),
});
export type PaymentRequest = v.InferOutput<typeof PaymentRequestSchema>;

/** The interface document's 4.6 and 4.8: `amount` optional (see docs/server.md: omitted means the whole remaining amount). */
export const CaptureRequestSchema = v.strictObject({
  amount: v.optional(DecimalAmountSchema),
  invoice_number: v.optional(text),
  custom: v.optional(FreeObjectSchema),
});
export type CaptureRequest = v.InferOutput<typeof CaptureRequestSchema>;
export const RefundRequestSchema = CaptureRequestSchema;
export type RefundRequest = CaptureRequest;
export const VoidRequestSchema = v.strictObject({ invoice_number: v.optional(text), custom: v.optional(FreeObjectSchema) });
export type VoidRequest = v.InferOutput<typeof VoidRequestSchema>;

/** The interface document's 4.9. */
export const AuthenticateRequestSchema = v.strictObject({
  reference_id: id,
  otp: v.pipe(v.string(), v.regex(/^\d{4,8}$/, 'otp must be 4 to 8 digits')),
});
export type AuthenticateRequest = v.InferOutput<typeof AuthenticateRequestSchema>;

// ---- responses ----

export const PaymentStateSchema = v.picklist(['authorised', 'captured', 'voided', 'refunded', 'pending', 'declined', 'cancelled']);
export type PaymentState = v.InferOutput<typeof PaymentStateSchema>;

const ActionSchema = v.looseObject({ id: text, state: text, code: text, message: v.optional(text) });

/** The interface document's 2.7: some responses carry `description`, others `message`. */
export const ResultSchema = v.looseObject({
  code: v.pipe(v.string(), v.regex(/^\d{4}$/)),
  description: v.optional(text),
  message: v.optional(text),
  authorisation_code: v.optional(text),
  redirect_url: v.optional(text),
  authenticate_url: v.optional(text),
  actions: v.optional(v.looseObject({ capture: v.optional(ActionSchema), authorization: v.optional(ActionSchema) })),
});
export type Result = v.InferOutput<typeof ResultSchema>;

export const ResponseItemSchema = v.looseObject({
  sku: v.optional(text),
  name: v.optional(text),
  description: v.optional(text),
  quantity: v.optional(v.union([text, v.number()])),
  price: v.optional(text),
  unit_price: v.optional(text),
  shipping: v.optional(text),
  currency: v.optional(text),
  url: v.optional(text),
  image: v.optional(text),
  /** string `true`/`false` in requests, boolean in responses: read as boolean. */
  tangible: v.optional(
    v.union([
      v.boolean(),
      v.pipe(
        v.picklist(['true', 'false']),
        v.transform((t) => t === 'true'),
      ),
    ]),
  ),
});

const ResponseAmountSchema = v.looseObject({ currency: text, total: text, details: v.optional(v.looseObject({})) });

export const ResponseTransactionSchema = v.looseObject({
  type: v.optional(ResponseTransactionTypeSchema),
  mode: v.optional(text),
  amount: v.optional(ResponseAmountSchema),
  description: v.optional(text),
  items: v.optional(v.array(ResponseItemSchema)),
  shipping_address: v.optional(v.looseObject({ recipient_name: v.optional(text), phone: v.optional(ResponsePhoneSchema) })),
  soft_descriptor: v.optional(v.looseObject({ text: v.optional(text), city: v.optional(text) })),
  invoice_number: v.optional(text),
  return_url: v.optional(text),
  cancel_url: v.optional(text),
});

/** The interface document's 2.4: payment record, returned on creation and retrieval. */
export const PaymentSchema = v.looseObject({
  id,
  reference_id: id,
  state: PaymentStateSchema,
  result: ResultSchema,
  intent: v.optional(ResponseIntentSchema),
  payer: v.optional(
    v.looseObject({
      payment_type: v.optional(text),
      funding_instrument: v.optional(v.looseObject({ credit_card: v.optional(ResponseCardSchema) })),
      payer_info: v.optional(ResponsePayerInfoSchema),
    }),
  ),
  transaction: v.optional(ResponseTransactionSchema),
  custom: v.optional(v.nullable(FreeObjectSchema)),
  risk_check: v.optional(v.boolean()),
  three_d: v.optional(v.nullable(FreeObjectSchema)),
  create_time: TimestampSchema,
  subscriptions: v.optional(v.unknown()),
  delayed_capture_time: v.optional(TimestampSchema),
  chargeback: v.optional(text),
});
export type Payment = v.InferOutput<typeof PaymentSchema>;

/** The interface document's 2.4: the reduced record of a capture, void or refund. */
export const ReducedRecordSchema = v.looseObject({
  id,
  reference_id: id,
  state: PaymentStateSchema,
  result: ResultSchema,
  transaction: v.optional(
    v.looseObject({
      amount: v.optional(ResponseAmountSchema),
      mode: v.optional(text),
      invoice_number: v.optional(text),
      items: v.optional(v.array(ResponseItemSchema)),
    }),
  ),
  create_time: TimestampSchema,
  custom: v.optional(v.nullable(FreeObjectSchema)),
  chargeback: v.optional(text),
});
export type ReducedRecord = v.InferOutput<typeof ReducedRecordSchema>;
