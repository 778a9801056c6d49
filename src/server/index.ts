/**
 * payframe/server: the merchant's server companion. Runs on Node 20+ and any runtime with `fetch`
 * (only `toNodeListener` is about Node, and it uses Node's types alone).
 *
 * The public surface, on purpose: the gateway and its option and input types; the readers of a
 * payment's outcome; the Node adapter for the handlers; the error class; the wire types a merchant
 * stores or reads. Left out: the request builder, the schemas, the body cap and the gateway's inner
 * pieces; they may change in any release.
 */
export { createGateway, type Gateway } from './gateway';
export type { AuthenticateInput, CaptureOptions, ServiceCalls, GatewayOptions, RefundOptions, VoidOptions } from './calls/calls';
export type { RequestOptions } from './calls/transport';
export type { CallOptions } from '../shared/call';
export type {
  CardholderInitiated,
  FirstPayment,
  FullCard,
  MerchantInitiated,
  Money,
  NonceCard,
  PaymentCommon,
  PaymentFunding,
  PaymentInput,
  StoredCredential,
  SavedCardInput,
} from './calls/payment-input';
export { isApproved, isDeclined, isPending, readSavedCard, readPayment, toPending } from './readers';
export type { PaymentOutcome } from './readers';
export type { AuthenticateOptions, Handlers } from './routes/handlers';
export type { CvvOptions } from './routes/cvv';
export { memoryNotificationStore, memoryStore, type MemoryStoreOptions } from './store/memory';
export { postgresStore, type PostgresStoreOptions, type SqlClient } from './store/postgres';
export { redisStore, type RedisClient, type RedisStoreOptions } from './store/redis';
export type {
  Attempt,
  AttemptStatus,
  AttemptStore,
  NotificationClaim,
  NotificationStore,
  PayframeStore,
  StoreOptions,
} from './store/store';
export type { NotificationOptions } from './routes/notifications';
export type { SettleOptions, SettleRef, Settlement } from './calls/settle';
export type { SavedCardsOptions } from './routes/saved-cards';
export type { HostedPaymentCalls, HostedPaymentInput, HostedSettlement } from './calls/hosted-calls';
export type { HostedPageOptions, HostedReturnOptions } from './routes/hosted';
export { isSurelyNotCharged, type PayOptions, type PayPayment } from './routes/pay';
export type { OpenSettlement, SettleOpenOptions } from './calls/attempts';
export type { PayerUpdate, PayerCalls, VerifyInput } from './calls/payer-calls';
export type { Handler } from './routes/respond';
export type { CallEvent, EventError, EventListener, GatewayEvent, HandlerEvent, HandlerName, NotificationEvent } from './events';
export { toNodeListener } from './routes/node';
export { createFrameHost, type FrameHostOptions } from './routes/frame-host';
export { isPayframeError, PayframeError } from '../shared/errors';
export type { ErrorCode, PayframeErrorInit } from '../shared/errors';
export type {
  CvvAnswer,
  ErrorAnswer,
  HostedPageAnswer,
  SavedCardAction,
  SavedCardsAnswer,
  SavedCardView,
  OtpOutcome,
  OtpSubmission,
  PayAnswer,
  PayRequest,
  PendingPayment,
  TokenGrant,
} from '../protocol/wire';
export type {
  BrowserInfo,
  CardList,
  ClientToken,
  HostedPayment,
  HostedSession,
  HostedSessionState,
  Item,
  Notification,
  NotificationKind,
  PayerInfo,
  PayerRecord,
  Payment,
  PaymentRequest,
  PaymentState,
  ReducedRecord,
  SavedCard,
} from '../schemas';
