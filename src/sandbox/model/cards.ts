import { detectBrand } from '../../card';
import type { CardData } from './state';

export interface TestCard {
  number: string;
  expireMonth: number;
  expireYear: number;
  cvv: string;
}

/** The one OTP the sandbox's issuer accepts, on the endpoint and on the redirect page. */
export const OTP = '111111';

/** docs/sandbox.md's "Test cards". */
export const testCards: {
  approved: TestCard;
  declined: TestCard;
  insufficientFunds: TestCard;
  otp: TestCard & { otp: string };
  redirectOnly: TestCard & { otp: string };
  /** Declined 1054. The browser client refuses a past expiry before any request: pay it from the server. */
  expired: TestCard;
} = {
  approved: { number: '4111111111111111', expireMonth: 12, expireYear: 2034, cvv: '123' },
  declined: { number: '4000000000000002', expireMonth: 12, expireYear: 2034, cvv: '123' },
  insufficientFunds: { number: '5105105105105100', expireMonth: 12, expireYear: 2034, cvv: '123' },
  otp: { number: '4644260581661836', expireMonth: 12, expireYear: 2034, cvv: '400', otp: OTP },
  redirectOnly: { number: '4543474002249996', expireMonth: 12, expireYear: 2034, cvv: '956', otp: OTP },
  expired: { number: '4111111111111111', expireMonth: 1, expireYear: 2020, cvv: '123' },
};

/** BIN of the domestic debit scheme: the only cards the authenticate endpoint serves. */
const DOMESTIC_BIN = '464426';

export const RESULT_TEXT: Record<string, string> = {
  '0000': 'Approved',
  '1005': 'Do not honor',
  '1007': 'Redirect',
  '1051': 'Insufficient funds',
  '1054': 'Expired card',
  '1202': 'Cardholder failed 3-D authentication',
  '1203': 'Authentication not completed in time',
};

export type Outcome = { kind: 'approved' } | { kind: 'declined'; code: string } | { kind: 'pending'; flow: 'otp' | 'redirect' };

/** What the issuer says about a card at `nowMs`. */
export function outcomeOf(card: CardData, nowMs: number): Outcome {
  const now = new Date(nowMs);
  const year = now.getUTCFullYear();
  if (card.expireYear < year || (card.expireYear === year && card.expireMonth < now.getUTCMonth() + 1)) {
    return { kind: 'declined', code: '1054' };
  }
  if (card.number === testCards.declined.number) return { kind: 'declined', code: '1005' };
  if (card.number === testCards.insufficientFunds.number) return { kind: 'declined', code: '1051' };
  if (card.number === testCards.otp.number) return { kind: 'pending', flow: 'otp' };
  if (card.number === testCards.redirectOnly.number) return { kind: 'pending', flow: 'redirect' };
  return { kind: 'approved' };
}

/** `brand_code` and display name, from the card core's brand table. */
export function brandOf(number: string): { code: string; name: string } {
  const brand = detectBrand(number);
  return brand ? { code: brand.gatewayCode ?? brand.id.toUpperCase(), name: brand.name } : { code: 'UNKNOWN', name: 'Unknown' };
}

export function binData(number: string) {
  const bin = number.slice(0, 6);
  const domestic = bin === DOMESTIC_BIN;
  return {
    bin,
    country_code: domestic ? 'OM' : 'US',
    country_name: domestic ? 'Oman' : 'United States',
    bank_name: 'Sandbox Bank',
    card_scheme: brandOf(number).code,
    card_type: domestic ? 'DEBIT' : 'CREDIT',
    card_category: 'CLASSIC',
  };
}

/** `funding_instrument.credit_card` of a response, and a vault card without `is_default`. */
export function cardView(card: CardData, id: string | undefined) {
  return {
    ...(id ? { id } : {}),
    type: brandOf(card.number).name,
    expire_month: card.expireMonth,
    expire_year: card.expireYear,
    name: card.name ?? '',
    last4: card.number.slice(-4),
    bin: card.number.slice(0, 6),
    bin_data: binData(card.number),
  };
}
