import * as v from 'valibot';
import { amountProblem, amountRefusal, CURRENCY_PATTERN, DECIMAL_PATTERN } from './amount';

/** ISO 8601 UTC timestamp, as the service writes them. */
export const TimestampSchema = v.pipe(v.string(), v.isoTimestamp());

/** Free key/value object (`custom`, `metadata`); valibot's `record` would turn an array into one. */
export const FreeObjectSchema = v.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  'must be an object, not an array',
);

export const CurrencySchema = v.pipe(v.string(), v.regex(CURRENCY_PATTERN, 'currency must be a three-letter upper-case code'));

/** A positive decimal string; the precision is checked against the currency where one is known. */
export const DecimalAmountSchema = v.pipe(v.string(), v.regex(DECIMAL_PATTERN, 'amount must be a decimal string such as "10.00"'));

export const IntentSchema = v.picklist(['auth', 'sale']);

/** Responses write the intent in any letter case (AUTH, Auth, SALE, Sale). */
export const ResponseIntentSchema = v.pipe(v.string(), v.toLowerCase(), IntentSchema);

const MonthNumberSchema = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(12));
const MonthStringSchema = v.pipe(v.string(), v.regex(/^(0[1-9]|1[0-2])$/, 'month must be two digits 01-12'));

/** A request may send the expiry month as an integer or a two-digit string. */
export const RequestExpireMonthSchema = v.union([MonthNumberSchema, MonthStringSchema]);
/** Responses may do the same; we read it as a number. */
export const ResponseExpireMonthSchema = v.union([
  MonthNumberSchema,
  v.pipe(v.string(), v.regex(/^(0?[1-9]|1[0-2])$/), v.transform(Number)),
]);

const YearNumberSchema = v.pipe(v.number(), v.integer(), v.minValue(1000), v.maxValue(9999));
export const RequestExpireYearSchema = v.union([YearNumberSchema, v.pipe(v.string(), v.regex(/^\d{4}$/, 'year must be four digits'))]);
export const ResponseExpireYearSchema = v.union([YearNumberSchema, v.pipe(v.string(), v.regex(/^\d{4}$/), v.transform(Number))]);

/** `1` regular, `2` subscription or recurring; integer or string on the wire. */
export const RequestTransactionTypeSchema = v.picklist([1, 2, '1', '2']);
export const ResponseTransactionTypeSchema = v.union([
  v.pipe(v.number(), v.integer()),
  v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number)),
]);

/** Country codes: requests may send lower case; we read responses as upper case. */
export const RequestCountryCodeSchema = v.pipe(v.string(), v.regex(/^[A-Z]{2}$/i, 'country code must be two letters'));
export const ResponseCountryCodeSchema = v.pipe(v.string(), v.toUpperCase());

/** An amount object whose total has the precision of its currency. */
export function checkedAmount<T extends v.GenericSchema<{ currency: string; total: string }>>(schema: T) {
  return v.pipe(
    schema,
    v.check(
      (amount) => amountProblem(amount.total, amount.currency) === undefined,
      (issue) => amountRefusal(amountProblem(issue.input.total, issue.input.currency) ?? ''),
    ),
  );
}
