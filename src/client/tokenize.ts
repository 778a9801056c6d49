import * as v from 'valibot';
import { type BrandId, brandsFor, validateCvv, validateExpiry, validateNumber } from '../card';
import { PayframeError } from '../errors';
import { type NonceRequest, NonceRequestSchema, NonceResponseSchema } from '../schemas';
import type { ClientCore } from './core';

export interface CardInput {
  /** Digits; spaces and dashes between them are allowed. */
  number: string;
  expireMonth: number | string;
  /** Four digits, or two (read as 20YY). */
  expireYear: number | string;
  cvv: string;
  /** The cardholder's name. Not part of the nonce: it is handed back for the payment request. */
  name?: string;
}

export type CardField = 'number' | 'expireMonth' | 'expireYear' | 'cvv' | 'name';

export interface TokenizeResult {
  /** Single-use; pays one payment as `funding_instrument.credit_card_nonce.nonce`. */
  nonce: string;
  /** Our brand id; undefined only when neither we nor the service know the brand. */
  brand: BrandId | undefined;
  last4: string;
  expireMonth: number;
  expireYear: number;
  /** When the nonce stops being accepted (ISO 8601). */
  expiresAt: string;
  name?: string;
}

/**
 * Validates the card locally (nothing is sent for a card that cannot work), then exchanges it for
 * a nonce. Identical calls in flight share one request, so a double-clicked pay button makes one
 * nonce; the map holds a call only while it runs.
 */
export function tokenizer(core: ClientCore) {
  const inFlight = new Map<string, Promise<TokenizeResult>>();

  return (card: CardInput): Promise<TokenizeResult> => {
    let checkedCard: CheckedCard;
    try {
      checkedCard = checkCard(card);
    } catch (error) {
      return Promise.reject(error);
    }
    const { body, name } = checkedCard;
    const key = [body.number, body.expire_month, body.expire_year, body.cvv2, name].join('|');
    const running = inFlight.get(key);
    if (running) return running;
    const call = send(core, checkedCard).finally(() => inFlight.delete(key));
    inFlight.set(key, call);
    return call;
  };
}

async function send(core: ClientCore, { body, name, brand }: CheckedCard): Promise<TokenizeResult> {
  const { data } = await core.request({
    path: `v1/merchants/${encodeURIComponent(core.config.merchantId)}/credit-card-nonce`,
    json: body,
    schema: NonceResponseSchema,
    retry: true,
  });
  return {
    nonce: data.credit_card_nonce,
    brand: brand ?? brandForCode(data.brand_code),
    last4: data.last4,
    expireMonth: data.expire_month,
    expireYear: data.expire_year,
    expiresAt: data.expires_on,
    ...(name === undefined ? {} : { name }),
  };
}

function brandForCode(code: string): BrandId | undefined {
  const upper = code.toUpperCase();
  return brandsFor('').find((brand) => brand.gatewayCode === upper)?.id;
}

interface CheckedCard {
  body: NonceRequest;
  name: string | undefined;
  /** Our brand for the number, when the card core knows it. */
  brand: BrandId | undefined;
}

/** The request body for a card, or `invalid_card` naming every field that is wrong. */
export function checkCard(card: CardInput): CheckedCard {
  if (card === null || typeof card !== 'object') {
    throw new PayframeError('invalid_card', 'the card is missing', { fields: ['number', 'expireMonth', 'expireYear', 'cvv'] });
  }
  const fields: CardField[] = [];
  const rawNumber = typeof card.number === 'string' ? card.number : '';
  const number = validateNumber(rawNumber);
  if (!number.isValid) fields.push('number');

  const month = toInt(card.expireMonth);
  let year = toInt(card.expireYear);
  if (year !== undefined && year < 100 && String(card.expireYear).trim().length === 2) year += 2000;
  const monthOk = month !== undefined && month >= 1 && month <= 12;
  const yearOk = year !== undefined && year >= 2000 && year <= 9999;
  if (!monthOk) fields.push('expireMonth');
  if (!yearOk) fields.push('expireYear');
  if (monthOk && yearOk && !validateExpiry({ month: month!, year: year! }).isValid) fields.push('expireMonth', 'expireYear');

  const cvv = typeof card.cvv === 'string' ? card.cvv.trim() : '';
  const size = number.brand?.code.size ?? [3, 4];
  if (!validateCvv(cvv, size).isValid) fields.push('cvv');

  const name = card.name;
  if (name !== undefined && typeof name !== 'string') fields.push('name');

  if (fields.length > 0) {
    throw new PayframeError('invalid_card', `invalid card details: ${fields.join(', ')}`, { fields });
  }
  const body = { number: rawNumber.replace(/[\s-]/g, ''), expire_month: month!, expire_year: year!, cvv2: cvv };
  // The card core and the wire rules should agree; if they ever do not, nothing is sent.
  const parsed = v.safeParse(NonceRequestSchema, body);
  if (!parsed.success) {
    const bad = [...new Set(parsed.issues.map((issue) => wireField[v.getDotPath(issue) ?? ''] ?? 'number'))];
    throw new PayframeError('invalid_card', `invalid card details: ${bad.join(', ')}`, { fields: bad });
  }
  return { body: parsed.output, name, brand: number.brand?.id };
}

const wireField: Record<string, CardField> = { number: 'number', expire_month: 'expireMonth', expire_year: 'expireYear', cvv2: 'cvv' };

/** A whole number from a number or a string of one to four digits; anything else is undefined. */
function toInt(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  return typeof value === 'string' && /^\s*\d{1,4}\s*$/.test(value) ? Number(value) : undefined;
}
