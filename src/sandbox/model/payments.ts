import { randomInt } from 'node:crypto';
import { toMinor, type FundingInstrument, type Notification, type NotificationKind, type PaymentRequest } from '../../schemas';
import { validateNumber } from '../../card';
import { cardView, outcomeOf, RESULT_TEXT } from './cards';
import { fail } from '../errors';
import { hex, newPaymentId, type CardData, type Clock, type PaymentRecord, type Store } from './state';
import { keepCard, payerInfoView, vaultCard } from './vault';

export const HOLD_MS = 7 * 24 * 3600_000;
export const PENDING_MS = 15 * 60_000;

/** What every payment operation needs: the store, the clock, the public base URL and the merchant acting. */
export interface Ctx {
  store: Store;
  clock: Clock;
  url: string;
  merchantId: string;
}

/** Tells the store of a change of `p`: `resource` is what the API answers now (the payment itself by default). */
export function changed(
  ctx: Ctx,
  p: PaymentRecord,
  kind: NotificationKind,
  resource?: Notification['resource'],
  at = ctx.clock.nowMs(),
): void {
  const view = () => resource ?? paymentView(ctx, p, 'retrieval');
  ctx.store.onEvent({ kind, merchantId: p.merchantId, paymentId: p.id, at, resource: view });
}

/** The kind a payment's approval or refusal is notified as. */
const outcomeKind = (p: PaymentRecord): NotificationKind =>
  p.state === 'authorised'
    ? 'PAYMENT.AUTHORIZATION.CREATED'
    : p.state === 'captured'
      ? 'PAYMENT.SALE.COMPLETED'
      : 'PAYMENT.AUTHORIZATION.DENIED';

export const notifyOutcome = (ctx: Ctx, p: PaymentRecord, at?: number) => changed(ctx, p, outcomeKind(p), undefined, at);

/**
 * Applies the time-based transitions (deferred actions, seven-day hold, fifteen-minute pending) when their time has come:
 * before any read or act, and on the sandbox's clock (store.due). Each is notified as of its instant.
 */
export function refresh(ctx: Ctx, p: PaymentRecord): PaymentRecord {
  const now = ctx.clock.nowMs();
  // First: a capture denied after its deferral gives back an authorisation the hold may then cancel.
  for (const s of p.unsettled?.filter((s) => s.at <= now) ?? []) {
    p.unsettled!.splice(p.unsettled!.indexOf(s), 1);
    s.run();
  }
  const holdEnds = (p.authorisedAt ?? p.createdAt) + HOLD_MS;
  if (p.state === 'authorised' && now >= holdEnds) {
    p.state = 'cancelled';
    changed(ctx, p, 'PAYMENT.AUTHORIZATION.VOIDED', undefined, holdEnds);
  }
  if (p.state === 'pending' && now - p.createdAt >= PENDING_MS) {
    p.state = 'declined';
    p.result = { code: '1203', description: RESULT_TEXT['1203']! };
    p.sessionUsed = true;
    changed(ctx, p, 'PAYMENT.AUTHORIZATION.DENIED', undefined, p.createdAt + PENDING_MS);
  }
  return p;
}

export function findPayment(ctx: Ctx, id: string): PaymentRecord {
  const p = ctx.store.payments.get(id);
  if (!p || p.merchantId !== ctx.merchantId) return fail('NOT_FOUND', 'No payment with this id');
  return refresh(ctx, p);
}

/** The card a funding instrument stands for; consumes a nonce. Every check runs before anything changes. */
function fundingCard(ctx: Ctx, fi: FundingInstrument): { card: CardData; vaulted: boolean; payerId?: string; cardId?: string } {
  if ('credit_card' in fi) {
    const c = fi.credit_card;
    if (!validateNumber(c.number).isValid) {
      return fail('INVALID_CARD_NUMBER', 'payer.funding_instrument.credit_card.number is not a valid card number for its brand');
    }
    const card: CardData = { number: c.number, expireMonth: Number(c.expire_month), expireYear: Number(c.expire_year) };
    if (c.name !== undefined) card.name = c.name;
    return { card, vaulted: false };
  }
  if ('credit_card_token' in fi) {
    const v = vaultCard(ctx.store, ctx.merchantId, fi.credit_card_token.credit_card_id);
    return { card: v, vaulted: true, payerId: v.payerId, cardId: v.id };
  }
  const nonce = ctx.store.nonce(fi.credit_card_nonce.nonce);
  if (!nonce || nonce.merchantId !== ctx.merchantId) return fail('INVALID_NONCE', 'This nonce was never issued to this merchant');
  if (nonce.used) return fail('NONCE_ALREADY_USED', 'This nonce has already paid');
  if (ctx.clock.nowMs() >= nonce.expiresAt || !nonce.card) return fail('NONCE_EXPIRED', 'This nonce has expired');
  const card = { ...nonce.card };
  if (fi.credit_card_nonce.name !== undefined) card.name = fi.credit_card_nonce.name;
  return { card, vaulted: false };
}

/** The stored-credential table of the interface document's 4.3, as docs/server.md ("Stored credentials") decides its silent cells. */
function checkStoredCredential(ctx: Ctx, body: PaymentRequest): void {
  const fi = body.payer.funding_instrument;
  const bad = (why: string) => fail('INVALID_STORED_CREDENTIAL', why);
  if (body.merchant_initiated === true) {
    if (!body.previous_payment_id) bad('A merchant-initiated payment needs previous_payment_id');
    const previous = ctx.store.payments.get(body.previous_payment_id!);
    if (!previous || previous.merchantId !== ctx.merchantId || !previous.approved) {
      bad('previous_payment_id must be the reference_id of an approved payment of this merchant');
    }
    if ('credit_card_nonce' in fi) bad('A merchant-initiated payment cannot use a nonce; use the stored card or its vault id');
    if ('credit_card' in fi && fi.credit_card.stored !== true)
      bad('A merchant-initiated payment with card details needs credit_card.stored = true');
    return;
  }
  if (body.previous_payment_id !== undefined) bad('previous_payment_id is only for merchant-initiated payments');
  if ('credit_card_token' in fi && !fi.credit_card_token.cvv2) bad('A cardholder-initiated vault payment needs the re-entered cvv2');
  if ('credit_card' in fi && fi.credit_card.stored === true && !fi.credit_card.cvv2) {
    bad('A cardholder-initiated payment with a stored card needs the re-entered cvv2');
  }
}

export function createPayment(ctx: Ctx, body: PaymentRequest) {
  checkStoredCredential(ctx, body);
  const { amount } = body.transaction;
  const funding = fundingCard(ctx, body.payer.funding_instrument);
  // Nothing below refuses: from here on the payment exists.
  const fi = body.payer.funding_instrument;
  if ('credit_card_nonce' in fi) {
    const nonce = ctx.store.nonces.get(fi.credit_card_nonce.nonce)!;
    nonce.used = true;
    nonce.card = undefined;
  }

  const now = ctx.clock.nowMs();
  const { transaction } = body;
  const p: PaymentRecord = {
    id: newPaymentId(),
    merchantId: ctx.merchantId,
    intent: body.intent,
    state: 'declined',
    result: { code: '0000', description: RESULT_TEXT['0000']! },
    approved: false,
    currency: amount.currency,
    amountMinor: toMinor(amount.total, amount.currency),
    capturedMinor: 0,
    refundedMinor: 0,
    card: funding.card,
    vaultOnApproval: !funding.vaulted,
    transaction,
    createdAt: now,
    sessionUsed: false,
  };
  if (funding.cardId) p.cardId = funding.cardId;
  if (funding.payerId) p.payerId = funding.payerId;
  if (body.payer.payer_info) p.payerInfo = body.payer.payer_info;
  if (body.custom) p.custom = body.custom;
  if (body.metadata) p.metadata = body.metadata;
  if (body.capture_delay !== undefined) p.captureDelay = body.capture_delay;
  if (body.merchant_initiated !== undefined) p.merchantInitiated = body.merchant_initiated;
  if (body.previous_payment_id !== undefined) p.previousPaymentId = body.previous_payment_id;

  const outcome = outcomeOf(funding.card, now);
  // A merchant-initiated payment has no cardholder present to answer an OTP; a verification (a zero
  // total) moves no money, and the sandbox asks no OTP for it (docs/service-decisions.md).
  if (outcome.kind === 'pending' && body.merchant_initiated !== true && p.amountMinor > 0) {
    p.state = 'pending';
    p.result = { code: '1007', description: RESULT_TEXT['1007']! };
    p.sessionId = hex(16);
    p.otpFlow = outcome.flow;
    ctx.store.sessions.set(p.sessionId, p.id);
    ctx.store.due.add(now + PENDING_MS, p.id);
  } else if (outcome.kind === 'declined') {
    p.result = { code: outcome.code, description: RESULT_TEXT[outcome.code] ?? 'Declined' };
  } else {
    approve(ctx, p, now);
  }
  ctx.store.payments.set(p.id, p);
  // A pending payment is not notified: the service has no kind for it, and the creation answer carries it.
  if (p.state !== 'pending') notifyOutcome(ctx, p, now);
  return paymentView(ctx, p, 'creation');
}

/** Approval: funds held (auth) or captured (sale); the card goes to the vault. */
export function approve(ctx: Ctx, p: PaymentRecord, now: number): void {
  p.approved = true;
  p.authorisedAt = now;
  p.result = { code: '0000', description: RESULT_TEXT['0000']!, authorisation_code: String(randomInt(100000, 1000000)) };
  if (p.intent === 'sale') {
    p.state = 'captured';
    p.capturedMinor = p.amountMinor;
  } else {
    p.state = 'authorised';
    ctx.store.due.add(now + HOLD_MS, p.id);
  }
  // A verification (a zero total): the zero authorisation is released at once, nothing is held or captured.
  if (p.amountMinor === 0) p.state = 'voided';
  if (p.vaultOnApproval) keepCard(ctx.store, p);
}

function transactionView(t: Record<string, unknown>) {
  const items = Array.isArray(t['items'])
    ? (t['items'] as Record<string, unknown>[]).map((item) => ({
        ...item,
        ...(item['price'] !== undefined ? { unit_price: item['price'] } : {}),
        ...(item['tangible'] !== undefined ? { tangible: item['tangible'] === 'true' } : {}),
      }))
    : undefined;
  return { ...t, ...(t['type'] !== undefined ? { type: Number(t['type']) } : {}), mode: 'TEST', ...(items ? { items } : {}) };
}

export function itemsOf(p: PaymentRecord): unknown[] {
  return (transactionView(p.transaction).items as unknown[] | undefined) ?? [];
}

/**
 * The interface document's 2.4, as answered on `creation` (with `subscriptions: null`, as the creation responses show it),
 * on `retrieval` (4.4, 4.5: the result text as `message`, as the live service's examples show it on a
 * retrieved authorisation) or after an `action` (the OTP).
 */
export function paymentView(ctx: Ctx, p: PaymentRecord, view: 'creation' | 'retrieval' | 'action') {
  const creation = view === 'creation';
  const pending = p.state === 'pending' && p.sessionId;
  const { description, ...resultRest } = p.result;
  const result = {
    ...resultRest,
    ...(view === 'retrieval' ? { message: description } : { description }),
    // Every pending payment has the bank's page; only a card whose acquirer serves the OTP call is
    // offered it, as the live service does (docs/service-decisions.md, "Which pending payments take the OTP call").
    ...(pending ? { redirect_url: `${ctx.url}/v1/redirect/${p.sessionId}` } : {}),
    ...(pending && p.otpFlow === 'otp' ? { authenticate_url: `${ctx.url}/v1/authenticate/${p.sessionId}` } : {}),
    ...(p.actions ? { actions: p.actions } : {}),
  };
  const payer = p.payerId ? ctx.store.payers.get(p.payerId) : undefined;
  return {
    id: p.id,
    reference_id: p.id,
    state: p.state,
    result,
    intent: p.intent.toUpperCase(),
    ...(p.merchantInitiated !== undefined ? { merchant_initiated: p.merchantInitiated } : {}),
    ...(p.previousPaymentId !== undefined ? { previous_payment_id: p.previousPaymentId } : {}),
    payer: {
      payment_type: 'CC',
      funding_instrument: { credit_card: cardView(p.card, p.cardId) },
      payer_info: payerInfoView(payer, p.payerInfo),
    },
    transaction: transactionView(p.transaction),
    custom: p.custom ?? {},
    ...(p.metadata ? { metadata: p.metadata } : {}),
    ...(p.captureDelay !== undefined ? { capture_delay: p.captureDelay } : {}),
    risk_check: false,
    three_d: {},
    create_time: ctx.clock.iso(p.createdAt),
    ...(creation ? { subscriptions: null } : {}),
    ...(pending && p.intent === 'sale' ? { delayed_capture_time: ctx.clock.iso(p.createdAt + PENDING_MS) } : {}),
  };
}
