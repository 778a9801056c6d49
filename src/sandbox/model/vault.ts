import { cardView } from './cards';
import { fail } from '../errors';
import { hex, type VaultPayerRecord, type PaymentRecord, type Store, type VaultCardRecord } from './state';

/**
 * The key of `store.payerByEmail`: a payer's email matches whatever its case (`toLowerCase()` of both),
 * within one merchant's vault. At most one payer of a merchant holds an email (keepCard reuses it,
 * updatePayer refuses a second), so the index names that one.
 */
const emailKey = (merchantId: string, email: string) => `${merchantId}\n${email.toLowerCase()}`;

function findByEmail(store: Store, merchantId: string, email: string): VaultPayerRecord | undefined {
  const id = store.payerByEmail.get(emailKey(merchantId, email));
  return id === undefined ? undefined : store.payers.get(id);
}

/** Sets a payer's email, keeping the index true. */
function setEmail(store: Store, payer: VaultPayerRecord, email: string): void {
  if (payer.email !== undefined) {
    const old = emailKey(payer.merchantId, payer.email);
    if (store.payerByEmail.get(old) === payer.id) store.payerByEmail.delete(old);
  }
  payer.email = email;
  store.payerByEmail.set(emailKey(payer.merchantId, email), payer.id);
}

/**
 * Keeps the card of an approved payment (never the CVV) under the payer with the same email, or
 * a new payer. The same number and expiry keep one card id; a payer's first card is the default.
 */
export function keepCard(store: Store, payment: PaymentRecord): void {
  const info = payment.payerInfo;
  let payer = info?.email ? findByEmail(store, payment.merchantId, info.email) : undefined;
  if (!payer) {
    payer = { id: `PAYER-${hex(12).toUpperCase()}`, merchantId: payment.merchantId, cardIds: [] };
    store.payers.set(payer.id, payer);
    if (info?.email) setEmail(store, payer, info.email);
  }
  if (info?.name) payer.name = info.name;
  if (info?.billing_address) payer.billingAddress = info.billing_address;

  const { number, expireMonth, expireYear } = payment.card;
  let card = payer.cardIds
    .map((id) => store.cards.get(id))
    .find((c) => c?.number === number && c.expireMonth === expireMonth && c.expireYear === expireYear);
  if (!card) {
    card = {
      id: `CARD-${hex(12).toUpperCase()}`,
      payerId: payer.id,
      isDefault: payer.cardIds.length === 0,
      number,
      expireMonth,
      expireYear,
    };
    payer.cardIds.push(card.id);
    store.cards.set(card.id, card);
  }
  if (payment.card.name) card.name = payment.card.name;
  payment.cardId = card.id;
  payment.payerId = payer.id;
}

/** A vault card this merchant owns, or 404. */
export function vaultCard(store: Store, merchantId: string, cardId: string): VaultCardRecord {
  const card = store.cards.get(cardId);
  const payer = card && store.payers.get(card.payerId);
  if (!card || payer?.merchantId !== merchantId) return fail('NOT_FOUND', 'No card with this id in the vault of this merchant');
  return card;
}

export function payerById(store: Store, merchantId: string, payerId: string): VaultPayerRecord {
  const payer = store.payers.get(payerId);
  if (payer?.merchantId !== merchantId) return fail('NOT_FOUND', 'No payer with this id');
  return payer;
}

export function payerByEmail(store: Store, merchantId: string, email: string): VaultPayerRecord {
  const payer = findByEmail(store, merchantId, email);
  if (!payer) return fail('NOT_FOUND', 'No payer with this email');
  return payer;
}

export function payerInfoView(payer: VaultPayerRecord | undefined, fallback?: PaymentRecord['payerInfo']) {
  const source = payer ?? fallback ?? {};
  const address = (payer ? payer.billingAddress : fallback?.billing_address) as Record<string, unknown> | undefined;
  return {
    ...(payer ? { id: payer.id } : {}),
    email: source.email ?? '',
    name: source.name ?? '',
    ip: '',
    ...(address ? { billing_address: upperCountry(address) } : {}),
  };
}

function upperCountry(address: Record<string, unknown>) {
  const code = address['country_code'];
  return typeof code === 'string' ? { ...address, country_code: code.toUpperCase() } : address;
}

export function vaultCardView(card: VaultCardRecord) {
  return { ...cardView(card, card.id), is_default: card.isDefault };
}

/** The payer's cards, the default first, then the others in the order they were kept. */
export function cardsOf(store: Store, payer: VaultPayerRecord) {
  const cards = payer.cardIds.flatMap((id) => store.cards.get(id) ?? []);
  return [...cards.filter((c) => c.isDefault), ...cards.filter((c) => !c.isDefault)].map(vaultCardView);
}

export function payerView(store: Store, payer: VaultPayerRecord) {
  return { payer_info: payerInfoView(payer), funding_instrument: { credit_cards: cardsOf(store, payer) } };
}

export function cardListView(store: Store, payer: VaultPayerRecord) {
  const credit_cards = cardsOf(store, payer);
  return { count: credit_cards.length, credit_cards };
}

/** A card of this payer, or 404 (another payer's card, or a removed one, is no card of theirs). */
export function cardOfPayer(store: Store, payer: VaultPayerRecord, cardId: string): VaultCardRecord {
  const card = vaultCard(store, payer.merchantId, cardId);
  if (card.payerId !== payer.id) fail('NOT_FOUND', 'No card with this id for this payer');
  return card;
}

/**
 * Removes a payer's card: it can pay no more (its id is unknown from now on). When it was the
 * default, the oldest card left becomes the default; the payer stays, with no card if it was the last.
 */
export function removeCard(store: Store, payer: VaultPayerRecord, cardId: string): void {
  const card = cardOfPayer(store, payer, cardId);
  store.cards.delete(card.id);
  payer.cardIds = payer.cardIds.filter((id) => id !== card.id);
  const next = payer.cardIds.map((id) => store.cards.get(id)).find((c) => c !== undefined);
  if (card.isDefault && next) next.isDefault = true;
}

/** `PUT …/payer/{id}`: the fields given change, the others stay; the default card must be the payer's. */
export function updatePayer(store: Store, payer: VaultPayerRecord, update: { email?: string; name?: string; default_card?: string }): void {
  // Checked before anything changes: a refusal changes no state.
  const card = update.default_card === undefined ? undefined : cardOfPayer(store, payer, update.default_card);
  const holder = update.email === undefined ? undefined : findByEmail(store, payer.merchantId, update.email);
  // Payers are found by email: two with one email would make that lookup ambiguous.
  if (holder && holder !== payer) fail('INVALID_REQUEST', 'email belongs to another payer of this merchant');
  if (update.email !== undefined) setEmail(store, payer, update.email);
  if (update.name !== undefined) payer.name = update.name;
  if (card) for (const id of payer.cardIds) store.cards.get(id)!.isDefault = id === card.id;
}
