import { type BrandId, readExpiryParts, validateCvv, validateExpiry, validateNumber } from '../card';
import { checkName } from '../fields/rules';
import { PayframeError, type PayframeErrorInit } from '../shared/errors';
import type { NonceRequest } from '../schemas';

export interface CardInput {
  /** Digits; spaces and dashes between them are allowed. */
  number: string;
  expireMonth: number | string;
  /** Four digits, or two (read as 20YY). */
  expireYear: number | string;
  cvv: string;
  /**
   * The cardholder's name, optional; when given, the name field's rule: at most 100 characters and no
   * digit once trimmed, not blank. Not part of the nonce: it is handed back, trimmed, for the payment request.
   */
  name?: string;
}

export interface CheckedCard {
  /** The nonce request body (the wire type NonceRequestSchema; test/nonce checks every body against it). */
  body: NonceRequest;
  name: string | undefined;
  /** Our brand for the number, when the card core knows it. */
  brand: BrandId | undefined;
}

/**
 * The request body for a card, or `invalid_card` naming every field that is wrong. The card core's
 * rules are stricter than the wire's, so a body built here always passes NonceRequestSchema.
 */
export function checkCard(card: CardInput): CheckedCard {
  if (card === null || typeof card !== 'object') {
    throw new PayframeError('invalid_card', 'the card is missing', { fields: ['number', 'expireMonth', 'expireYear', 'cvv'] });
  }
  const fields: NonNullable<PayframeErrorInit['fields']> = [];
  const rawNumber = typeof card.number === 'string' ? card.number : '';
  const number = validateNumber(rawNumber);
  if (!number.isValid) fields.push('number');

  const { month, year } = readExpiryParts(card.expireMonth, card.expireYear);
  const monthOk = month !== undefined;
  const yearOk = year !== undefined;
  if (!monthOk) fields.push('expireMonth');
  if (!yearOk) fields.push('expireYear');
  if (monthOk && yearOk && !validateExpiry({ month: month!, year: year! }).isValid) fields.push('expireMonth', 'expireYear');

  const cvv = typeof card.cvv === 'string' ? card.cvv.trim() : '';
  if (!validateCvv(cvv, number.brand?.code.size ?? [3, 4]).isValid) fields.push('cvv');

  const name = typeof card.name === 'string' ? card.name.trim() : card.name;
  if (name !== undefined && (typeof name !== 'string' || !checkName(name).isValid)) fields.push('name');

  if (fields.length > 0) {
    throw new PayframeError('invalid_card', `invalid card details: ${fields.join(', ')}`, { fields });
  }
  const body = { number: rawNumber.replace(/[\s-]/g, ''), expire_month: month!, expire_year: year!, cvv2: cvv };
  return { body, name, brand: number.brand?.id };
}
