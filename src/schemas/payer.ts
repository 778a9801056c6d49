import * as v from 'valibot';
import { RequestCountryCodeSchema, ResponseCountryCodeSchema, ResponseExpireMonthSchema, ResponseExpireYearSchema } from './common';

const text = v.string();

/** The interface document's 2.5: phone. */
export const PhoneSchema = v.strictObject({ country_code: v.optional(text), number: v.optional(text) });
export const ResponsePhoneSchema = v.looseObject({ country_code: v.optional(text), number: v.optional(text) });

/** The interface document's 2.5: billing address (request form: country code in any case). */
export const AddressSchema = v.strictObject({
  line1: v.optional(text),
  line2: v.optional(text),
  city: v.optional(text),
  country_code: v.optional(RequestCountryCodeSchema),
  postal_code: v.optional(text),
  state: v.optional(text),
  phone: v.optional(PhoneSchema),
});
export const ResponseAddressSchema = v.looseObject({
  line1: v.optional(text),
  line2: v.optional(text),
  city: v.optional(text),
  country_code: v.optional(ResponseCountryCodeSchema),
  postal_code: v.optional(text),
  state: v.optional(text),
  phone: v.optional(ResponsePhoneSchema),
});

export const PayerInfoSchema = v.strictObject({
  email: v.optional(v.pipe(text, v.email('payer_info.email must be an email address'))),
  name: v.optional(text),
  billing_address: v.optional(AddressSchema),
});
export type PayerInfo = v.InferOutput<typeof PayerInfoSchema>;

export const ResponsePayerInfoSchema = v.looseObject({
  id: v.optional(text),
  email: v.optional(text),
  name: v.optional(text),
  ip: v.optional(text),
  billing_address: v.optional(ResponseAddressSchema),
});

/** `bin_data` of a saved card: all strings. */
export const BinDataSchema = v.looseObject({
  bin: v.optional(text),
  country_code: v.optional(text),
  country_name: v.optional(text),
  bank_name: v.optional(text),
  card_scheme: v.optional(text),
  card_type: v.optional(text),
  card_category: v.optional(text),
});
export type BinData = v.InferOutput<typeof BinDataSchema>;

/** `funding_instrument.credit_card` in a response, and a saved card record (never number or cvv2). */
export const ResponseCardSchema = v.looseObject({
  id: v.optional(text),
  type: v.optional(text),
  expire_month: v.optional(ResponseExpireMonthSchema),
  expire_year: v.optional(ResponseExpireYearSchema),
  name: v.optional(text),
  cvv_check: v.optional(text),
  avs_check: v.optional(text),
  last4: v.optional(text),
  bin: v.optional(text),
  is_default: v.optional(v.boolean()),
  bin_data: v.optional(BinDataSchema),
});
export type ResponseCard = v.InferOutput<typeof ResponseCardSchema>;

/** A saved card as the card lookups return it: id, bin and last4 are always there. */
export const SavedCardSchema = v.looseObject({
  ...ResponseCardSchema.entries,
  id: text,
  last4: text,
  bin: text,
});
export type SavedCard = v.InferOutput<typeof SavedCardSchema>;

/** The interface document's 4.10: payer by email or by id. */
export const PayerRecordSchema = v.looseObject({
  payer_info: ResponsePayerInfoSchema,
  funding_instrument: v.looseObject({ credit_cards: v.array(SavedCardSchema) }),
});
export type PayerRecord = v.InferOutput<typeof PayerRecordSchema>;

/** The interface document's 4.10: cards of a payer. */
export const CardListSchema = v.looseObject({
  count: v.pipe(v.number(), v.integer()),
  credit_cards: v.array(SavedCardSchema),
});
export type CardList = v.InferOutput<typeof CardListSchema>;
