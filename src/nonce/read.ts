import { type BrandId, brandsFor } from '../card';
import type { TokenizeResult } from '../protocol/messages';

type Data = Record<string, unknown>;

const UUID = /^[\da-f]{8}(?:-[\da-f]{4}){3}-[\da-f]{12}$/i;
const TIMESTAMP = /^\d{4}-\d\d-\d\d[T ]\d\d(?::\d\d){2}(?:\.\d{1,9})?(?:Z| ?[+-]\d\d(?::?\d\d)?)$/;

/** An integer in [min, max] given as a number, or as a string matching `text`; else undefined. */
function whole(value: unknown, text: RegExp, min: number, max: number): number | undefined {
  const n = typeof value === 'string' && text.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

/**
 * The fields of a nonce answer that payframe uses, read by hand with the rules of NonceResponseSchema
 * (src/schemas): valibot stays out of the page and frame bundles. test/nonce/read.test.ts checks
 * that this reader and the schema agree. Undefined when the answer is not a nonce.
 */
export function readNonce(json: unknown, brand: BrandId | undefined, name: string | undefined): TokenizeResult | undefined {
  const data = (json as Data | null)?.['data'] as Data | null | undefined;
  if (typeof data !== 'object' || data === null) return undefined;
  const { credit_card_nonce: nonce, brand_code: code, last4, expires_on: expiresAt } = data;
  const expireMonth = whole(data['expire_month'], /^(0?[1-9]|1[0-2])$/, 1, 12);
  const expireYear = whole(data['expire_year'], /^\d{4}$/, 1000, 9999);
  const ok =
    typeof nonce === 'string' &&
    UUID.test(nonce) &&
    typeof code === 'string' &&
    typeof last4 === 'string' &&
    /^\d{4}$/.test(last4) &&
    typeof expiresAt === 'string' &&
    TIMESTAMP.test(expiresAt);
  if (!ok || expireMonth === undefined || expireYear === undefined) return undefined;
  const upper = code.toUpperCase();
  return {
    nonce,
    brand: brand ?? brandsFor('').find((b) => b.gatewayCode === upper)?.id,
    last4,
    expireMonth,
    expireYear,
    expiresAt,
    ...(name === undefined ? {} : { name }),
  };
}
