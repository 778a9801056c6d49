/**
 * payframe/server: the merchant's server companion. Runs on Node 20+ and any runtime with `fetch`
 * (only `toNodeListener` is about Node, and it uses Node's types alone).
 */
export { createGateway } from './gateway';
export type {
  AuthenticateInput, CaptureOptions, Gateway, GatewayCore, GatewayOptions, RefundOptions, VoidOptions,
} from './gateway';
export type {
  CardholderInitiated, FirstPayment, FullCard, MerchantInitiated, Money, NonceCard, PaymentCommon, PaymentFunding,
  PaymentInput, StoredCredential, VaultCard as VaultCardInput,
} from './payment-input';
export { buildPaymentRequest } from './payment-input';
export { isApproved, isDeclined, isPending, readKeptCard, readPayment, sessionIdOf } from './readers';
export { toPending } from './readers';
export type { PaymentOutcome } from './readers';
export { AuthenticateBodySchema, MAX_BODY_BYTES } from './handlers';
export type { AuthenticateBody, Handler, Handlers } from './handlers';
export type { AuthenticateOptions } from './handlers';
export { toNodeListener } from './node';
export type { RetryOptions } from './transport';
export { isPayframeError, PayframeError } from '../errors';
export type { ErrorCode } from '../errors';
export type {
  BrowserInfo, CardList, ClientToken, Item, PayerInfo, PayerRecord, Payment, PaymentRequest, PaymentState, ReducedRecord, VaultCard,
} from '../schemas';
export type { PendingPayment } from '../schemas';
