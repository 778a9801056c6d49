/**
 * The vault beyond lookups (the service's public documentation; docs/saved-cards.md): a payer's card
 * removed, a payer updated (name, email, default card), and a card verified without charging it (a
 * payment whose total is zero, built here and nowhere else: `payments.create` refuses a zero amount).
 */
import { PayframeError, requestError } from '../../shared/errors';
import {
  CURRENCY_PATTERN,
  DoneSchema,
  fromMinor,
  PayerRecordSchema,
  PaymentSchema,
  PayerUpdateRequestSchema,
  VerificationRequestSchema,
  type BrowserInfo,
  type Payment,
  type PayerInfo,
} from '../../schemas';
import { fundingOf, type FullCard, type NonceCard, type PaymentInput, type SavedCardInput } from './payment-input';
import { type Call, checked, type RequestOptions, segment } from './transport';

/** What `payers.update` changes: the fields given (at least one); the service's body carries all three. */
export interface PayerUpdate {
  email?: string;
  name?: string;
  /** The id of one of this payer's saved cards: it becomes the default (`is_default`), the others not. */
  defaultCard?: string;
}

/**
 * A card verified and kept without charging it (spec: a payment whose total is zero). `card`: a nonce
 * or full details (the card's first use: its reference id serves later merchant-started payments as a
 * paid first payment's does), or a saved card again with its CVV (verifying a saved card needs it).
 */
export interface VerifyInput {
  card: NonceCard | FullCard | (SavedCardInput & { cvv: string });
  /** The currency of the zero amount, e.g. the currency later payments will be in. */
  currency: string;
  /** As on a payment: the card is kept under the payer with this email, or a new payer. */
  payer?: PayerInfo;
  browserInfo?: BrowserInfo;
  /** The card will pay a subscription (`transaction.type` "2"), as `storedCredential.subscription` on a first payment. */
  subscription?: boolean;
  description?: string;
  invoiceNumber?: string;
  custom?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

export interface PayerCalls {
  /** `DELETE …/payer/{payerId}/card/{cardId}`: the card can pay no more. Resolves when the service answered "DONE". */
  removeCard(payerId: string, cardId: string, options?: RequestOptions): Promise<void>;
  /** `PUT …/payer/{payerId}`: sends the fields given. Resolves when the service answered "DONE". */
  update(payerId: string, update: PayerUpdate, options?: RequestOptions): Promise<void>;
  /**
   * Makes `cardId` the payer's default: reads the payer (one GET), refuses a card that is not one of
   * theirs with `not_found` before anything is sent, then sends the update with the payer's own email
   * and name, so that a service replacing the whole payer keeps them.
   */
  setDefaultCard(payerId: string, cardId: string, options?: RequestOptions): Promise<void>;
}

/** `{ email?, name?, defaultCard? }` checked under the input's own names, as the wire body. */
function updateBody(update: PayerUpdate) {
  if (typeof update !== 'object' || update === null) throw requestError('update must be an object { email?, name?, defaultCard? }');
  const { email, name, defaultCard, ...rest } = update;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw requestError(`update.${unknown.slice(0, 40)} is not a field: give email, name or defaultCard`);
  if (email === undefined && name === undefined && defaultCard === undefined)
    throw requestError('update needs at least one of email, name, defaultCard');
  if (email !== undefined && (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(email)))
    throw requestError('email must be an email address');
  if (name !== undefined && typeof name !== 'string') throw requestError('name must be a string');
  if (defaultCard !== undefined && (typeof defaultCard !== 'string' || defaultCard.trim() === ''))
    throw requestError('defaultCard must be a card id (not blank)');
  return checked(PayerUpdateRequestSchema, { email, name, default_card: defaultCard });
}

/** The request body of a verification: a zero total in the currency's own precision, `auth`, started by the cardholder. */
export function buildVerifyRequest(input: VerifyInput) {
  if (typeof input !== 'object' || input === null) throw requestError('verify input must be an object');
  if (typeof input.currency !== 'string' || !CURRENCY_PATTERN.test(input.currency)) {
    throw requestError('currency must be a three-letter upper-case ISO 4217 code');
  }
  if (input.subscription !== undefined && typeof input.subscription !== 'boolean') throw requestError('subscription must be true or false');
  const kept = (input.card as { savedCardId?: unknown } | undefined)?.savedCardId !== undefined;
  // The rules of the card forms are a payment's: a first payment of a new card, a cardholder-started one of a saved card (its CVV).
  const funding = fundingOf({
    card: input.card,
    storedCredential: kept ? { kind: 'cardholder' } : { kind: 'first', subscription: input.subscription },
  } as PaymentInput);
  if (kept && input.subscription !== undefined)
    throw requestError('subscription is for a new card: a saved card is not verified as a first payment');
  return checked(VerificationRequestSchema, {
    intent: 'auth',
    merchant_initiated: false,
    payer: { payment_type: 'CC', funding_instrument: funding, payer_info: input.payer, browser_info: input.browserInfo },
    transaction: {
      type: input.subscription === true ? '2' : '1',
      amount: { currency: input.currency, total: fromMinor(0, input.currency) },
      description: input.description,
      invoice_number: input.invoiceNumber,
    },
    custom: input.custom,
    metadata: input.metadata,
  });
}

export function createPayerCalls(call: Call, merchant: string) {
  const payer = (payerId: string) => `${merchant}/payer/${segment('payerId', payerId)}`;
  const update = async (payerId: string, input: PayerUpdate, options?: RequestOptions) => {
    const path = payer(payerId);
    await call('PUT', path, DoneSchema, { json: updateBody(input), signal: options?.signal });
  };
  const payers: PayerCalls = {
    removeCard: async (payerId, cardId, options) => {
      await call('DELETE', `${payer(payerId)}/card/${segment('cardId', cardId)}`, DoneSchema, { signal: options?.signal });
    },
    update,
    setDefaultCard: async (payerId, cardId, options) => {
      const path = payer(payerId);
      segment('cardId', cardId);
      const record = await call('GET', path, PayerRecordSchema, { signal: options?.signal });
      if (!record.funding_instrument.credit_cards.some((card) => card.id === cardId)) {
        throw new PayframeError('not_found', "cardId is not one of this payer's cards");
      }
      // An empty email or name is the record's "none": not sent, so not changed.
      const { email, name } = record.payer_info;
      await update(payerId, { email: email || undefined, name: name || undefined, defaultCard: cardId }, options);
    },
  };
  /** `POST …/payment` with a zero total: the service verifies the card and keeps it. A declined card is returned, not thrown. */
  const verify = async (input: VerifyInput, options?: RequestOptions): Promise<Payment> =>
    call('POST', `${merchant}/payment`, PaymentSchema, { json: buildVerifyRequest(input), signal: options?.signal });
  return { payers, verify };
}
