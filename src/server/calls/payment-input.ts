import { readExpiryParts, validateNumber } from '../../card';
import { requestError } from '../../shared/errors';
import { checked } from './transport';
import {
  amountProblem,
  amountRefusal,
  type BrowserInfo,
  type FundingInstrument,
  type Item,
  type PayerInfo,
  type PaymentRequest,
  PaymentRequestSchema,
} from '../../schemas';

/** An amount as the service writes it: a decimal string in the currency's minor units, never a number. */
export interface Money {
  currency: string;
  total: string;
}

// The `?: never` members make the three card forms exclusive at the type level.
/** A single-use nonce from the checkout page (a merchant that never handles card data). */
export interface NonceCard {
  nonce: string;
  name?: string;
  number?: never;
  expireMonth?: never;
  expireYear?: never;
  cvv?: never;
  savedCardId?: never;
}
/** Full card details (the merchant handles card data, or keeps the card on file). */
export interface FullCard {
  number: string;
  expireMonth: number | string;
  expireYear: number | string;
  cvv?: string;
  name?: string;
  nonce?: never;
  savedCardId?: never;
}
/** A card kept in the service's vault: its id from an earlier payment or a payer lookup. */
export interface SavedCardInput {
  savedCardId: string;
  cvv?: string;
  nonce?: never;
  number?: never;
  expireMonth?: never;
  expireYear?: never;
  name?: never;
}
type WithCvv<C> = C & { cvv: string };

/** The first payment of a card that will be kept; `subscription` marks it as recurring. */
export interface FirstPayment {
  kind: 'first';
  subscription?: boolean;
}
/** A later payment the merchant starts on a saved card: on a fixed schedule, or not. */
export interface MerchantInitiated {
  kind: 'scheduled' | 'unscheduled';
  /** The `reference_id` of the first payment. */
  previousPaymentId: string;
}
/** A later payment the cardholder starts on a saved card: the CVV is entered again. */
export interface CardholderInitiated {
  kind: 'cardholder';
}
export type StoredCredential = FirstPayment | MerchantInitiated | CardholderInitiated;

/** Every combination of card and stored credential that the table of the interface document's 4.3 allows, and no other. */
export type PaymentFunding =
  | { card: NonceCard | FullCard; storedCredential?: FirstPayment }
  | { card: FullCard | SavedCardInput; storedCredential: MerchantInitiated }
  | { card: WithCvv<FullCard>; storedCredential: CardholderInitiated }
  /** A saved card without `storedCredential` is a cardholder-started payment. */
  | { card: WithCvv<SavedCardInput>; storedCredential?: CardholderInitiated };

type Transaction = PaymentRequest['transaction'];

/** Nested objects (`payer`, `browserInfo`, `items`, ...) keep the service's own field names. */
export interface PaymentCommon {
  intent: 'auth' | 'sale';
  amount: Money & { details?: NonNullable<Transaction['amount']['details']> };
  payer?: PayerInfo;
  browserInfo?: BrowserInfo;
  items?: Item[];
  description?: string;
  invoiceNumber?: string;
  shippingAddress?: Transaction['shipping_address'];
  softDescriptor?: Transaction['soft_descriptor'];
  /** Where the redirect page sends the payer back, with `?payment-session-id=<id>`. */
  returnUrl?: string;
  cancelUrl?: string;
  payee?: PaymentRequest['payee'];
  custom?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  /** Hours before an automatic capture (accepted and echoed by the service). */
  captureDelay?: number;
}

export type PaymentInput = PaymentCommon & PaymentFunding;

/**
 * Builds the request body of the interface document's 4.3. Plain JavaScript callers get the same refusals at run time
 * that TypeScript callers get from the types, before anything is sent.
 */
export function buildPaymentRequest(input: PaymentInput): PaymentRequest {
  const common = commonBody(input);
  const funding = fundingOf(input);
  const stored = input.storedCredential;
  const merchantInitiated = stored?.kind === 'scheduled' || stored?.kind === 'unscheduled';
  // Sent as the strings the service's own examples send: "1" regular (unscheduled included), "2" recurring.
  const type = stored?.kind === 'scheduled' || (stored?.kind === 'first' && stored.subscription === true) ? '2' : '1';
  const { payer_info, browser_info, transaction, ...rest } = common;
  const body = {
    intent: input.intent,
    merchant_initiated: merchantInitiated,
    previous_payment_id: merchantInitiated ? stored.previousPaymentId : undefined,
    payer: { payment_type: 'CC', funding_instrument: funding, payer_info, browser_info },
    transaction: { type, ...transaction },
    ...rest,
  };
  return checked(PaymentRequestSchema, body);
}

/**
 * Everything of a payment's body but its card and its stored credential, its amount checked: a payment's,
 * and a hosted payment page's session (hosted-calls.ts), which the payer pays with a card typed there.
 */
export function commonBody(input: PaymentCommon) {
  if (typeof input !== 'object' || input === null) throw requestError('payment input must be an object');
  const amount: Partial<Money> = input.amount ?? {};
  const problem = amountProblem(amount.total, String(amount.currency));
  if (problem) throw requestError(amountRefusal(problem, 'amount'));
  return {
    payer_info: input.payer,
    browser_info: input.browserInfo,
    payee: input.payee,
    transaction: {
      amount: input.amount,
      description: input.description,
      items: input.items,
      shipping_address: input.shippingAddress,
      soft_descriptor: input.softDescriptor,
      invoice_number: input.invoiceNumber,
      return_url: input.returnUrl,
      cancel_url: input.cancelUrl,
    },
    custom: input.custom,
    capture_delay: input.captureDelay,
    metadata: input.metadata,
  };
}

/** What a JavaScript caller may pass: any mix, sorted out at run time. */
interface LooseCard {
  nonce?: string;
  number?: string;
  expireMonth?: number | string;
  expireYear?: number | string;
  cvv?: string;
  name?: string;
  savedCardId?: string;
}

/** A card's CVV as the service takes it, typed by a payer: 3 or 4 digits. The one check of it in the server companion. */
export const isCvv = (cvv: unknown): cvv is string => typeof cvv === 'string' && /^\d{3,4}$/.test(cvv);

/** Checks the card against the stored-credential case, and writes the funding instrument. */
export function fundingOf(input: PaymentInput): FundingInstrument {
  const card: LooseCard = input.card ?? {};
  const stored: Partial<StoredCredential> | undefined = input.storedCredential;
  const kind = stored?.kind;
  // Anything given must name its kind: a typo must not turn a merchant-started payment into a cardholder one.
  if (stored != null && !['first', 'scheduled', 'unscheduled', 'cardholder'].includes(kind as string)) {
    throw requestError('storedCredential.kind must be first, scheduled, unscheduled or cardholder');
  }
  if ((kind === 'scheduled' || kind === 'unscheduled') && !(stored as MerchantInitiated).previousPaymentId) {
    throw requestError(`a ${kind} payment needs storedCredential.previousPaymentId (the reference_id of the first payment)`);
  }
  const forms = [card.nonce, card.number, card.savedCardId].filter((x) => x !== undefined).length;
  if (forms !== 1) throw requestError('card must be exactly one of { nonce }, { number, expireMonth, expireYear } or { savedCardId }');

  if (card.nonce !== undefined) {
    if (kind !== undefined && kind !== 'first') throw requestError(`a nonce cannot pay a ${kind} payment on a saved card`);
    return { credit_card_nonce: { nonce: card.nonce, name: card.name } };
  }
  if (card.cvv !== undefined && !isCvv(card.cvv)) throw requestError('card.cvv must be 3 or 4 digits');
  const cvvNeeded = kind === 'cardholder' || (card.savedCardId !== undefined && kind === undefined);
  if (cvvNeeded && !card.cvv) throw requestError('a cardholder-started payment on a saved card needs the CVV entered again (card.cvv)');
  if (card.savedCardId !== undefined) {
    if (kind === 'first') throw requestError('a saved card is already kept: it cannot be the first payment of a card');
    return { credit_card_token: { credit_card_id: card.savedCardId, cvv2: card.cvv } };
  }
  if (typeof card.number !== 'string' || !/^\d+$/.test(card.number) || !validateNumber(card.number).isValid) {
    throw requestError('card.number must be the digits of a valid card number (brand, length, check digit)');
  }
  // The forms client.tokenize takes (1, '01', 2034, '34'), refused under the input's own names.
  const { month, year } = readExpiryParts(card.expireMonth, card.expireYear);
  if (month === undefined) throw requestError('card.expireMonth must be a month, 1 to 12 (a number or its digits)');
  if (year === undefined) throw requestError('card.expireYear must be a year: four digits, or two read as 20YY');
  return {
    credit_card: {
      number: card.number,
      expire_month: month,
      expire_year: year,
      cvv2: card.cvv,
      name: card.name,
      stored: kind === undefined || kind === 'first' ? undefined : true,
    },
  };
}
