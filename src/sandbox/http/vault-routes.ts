/**
 * The vault beyond lookups (the service's public documentation; docs/saved-cards.md): a payer's card removed, a payer updated (its default
 * card), both answering the bare JSON string "DONE"; and the body of `POST …/payment`, where a zero
 * total is a card verification (docs/service-decisions.md, "Where the service is silent").
 */
import type { PaymentRequest } from '../../schemas';
import { PayerUpdateRequestSchema, PaymentRequestSchema, VerificationRequestSchema } from '../../schemas';
import { body, jsonText, merchantOf, param, parseJson, requireBasic, type Reply, type Req, type Sandbox } from './context';
import { fail } from '../errors';
import { payerById, removeCard, updatePayer } from '../model/vault';

const MERCHANT = '^/v1/merchants/([^/]+)';
/** A route as routes.ts takes it (its `Route`, not imported: routes.ts imports these). */
interface VaultRoute {
  method: string;
  pattern: RegExp;
  handle: (sb: Sandbox, req: Req) => Reply;
}

/** Basic auth for the merchant in the path, then its payer named by the second parameter. */
function payerOf(sb: Sandbox, req: Req) {
  const merchant = merchantOf(sb, param(req, 0));
  requireBasic(req, merchant);
  return payerById(sb.store, merchant.id, param(req, 1));
}

/**
 * A zero `transaction.amount.total` ("0", "0.00", ...) is a verification, which only an `auth` may be
 * (a sale of nothing stays a refused amount); every other body is a payment.
 */
function isVerification(req: Req): boolean {
  const text = jsonText(req);
  const value =
    text === undefined ? undefined : (parseJson(text) as { intent?: unknown; transaction?: { amount?: { total?: unknown } } } | null);
  const total = value?.transaction?.amount?.total;
  const zero = typeof total === 'string' && /^0(?:\.0+)?$/.test(total);
  if (zero && value?.intent !== 'auth') fail('INVALID_AMOUNT', 'transaction.amount.total: zero verifies a card, with intent auth only');
  return zero;
}

/** The body of `POST …/payment`: a payment (a total above zero), or a card verification (a zero total). */
export function paymentRequestOf(req: Req): PaymentRequest {
  return isVerification(req) ? body(req, VerificationRequestSchema) : body(req, PaymentRequestSchema);
}

export const VAULT_ROUTES: VaultRoute[] = [
  {
    method: 'PUT',
    pattern: new RegExp(`${MERCHANT}/payer/([^/]+)$`),
    handle: (sb, req) => {
      const payer = payerOf(sb, req);
      updatePayer(sb.store, payer, body(req, PayerUpdateRequestSchema));
      return { json: 'DONE' };
    },
  },
  {
    method: 'DELETE',
    pattern: new RegExp(`${MERCHANT}/payer/([^/]+)/card/([^/]+)$`),
    handle: (sb, req) => {
      removeCard(sb.store, payerOf(sb, req), param(req, 2));
      return { json: 'DONE' };
    },
  },
];
