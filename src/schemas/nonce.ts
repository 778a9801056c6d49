import * as v from 'valibot';
import { ResponseExpireMonthSchema, ResponseExpireYearSchema, TimestampSchema } from './common';

/** The interface document's 4.2: card details exchanged for a nonce (the service's rules for each field). */
export const NonceRequestSchema = v.strictObject({
  number: v.pipe(v.string(), v.regex(/^\d{12,19}$/, 'number must be 12 to 19 digits')),
  expire_month: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(12)),
  expire_year: v.pipe(v.number(), v.integer(), v.minValue(1000), v.maxValue(9999)),
  cvv2: v.optional(v.pipe(v.string(), v.regex(/^\d{3,4}$/, 'cvv2 must be 3 or 4 digits'))),
});
export type NonceRequest = v.InferOutput<typeof NonceRequestSchema>;

/** The interface document's 2.2. */
export const CardNonceSchema = v.looseObject({
  brand_code: v.string(),
  credit_card_nonce: v.pipe(v.string(), v.uuid()),
  last4: v.pipe(v.string(), v.regex(/^\d{4}$/)),
  type: v.string(),
  expire_month: ResponseExpireMonthSchema,
  expire_year: ResponseExpireYearSchema,
  expires_on: TimestampSchema,
  issued_on: TimestampSchema,
});
export type CardNonce = v.InferOutput<typeof CardNonceSchema>;

export const NonceResponseSchema = v.looseObject({ data: CardNonceSchema });
export type NonceResponse = v.InferOutput<typeof NonceResponseSchema>;
