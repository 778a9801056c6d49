/**
 * Ready `Request -> Response` handlers for the merchant's own routes: the page's client token and the OTP
 * of a pending payment here, the others in route files of their own beside it. They answer payframe's own wire
 * (src/protocol/wire.ts), which the page reads.
 */
import type { OtpOutcome, TokenGrant } from '../../protocol/wire';
import type { Payment } from '../../schemas';
import { configError, PayframeError } from '../../shared/errors';
import type { ServiceCalls } from '../calls/calls';
import { emit, type EventListener, handlerEvent, type HandlerName } from '../events';
import { notificationHandler, type NotificationOptions } from './notifications';
import { readPayment } from '../readers';
import { guarded, type Handler, jsonResponse, readJson, refusalResponse } from './respond';
import { checked } from '../calls/transport';
import { OtpSubmissionSchema } from '../wire';
import { savedCardsHandler, type SavedCardsOptions } from './saved-cards';
import { payHandler, type PayOptions } from './pay';
import { cvvHandler, type CvvOptions } from './cvv';
import { outcomeOf } from '../calls/attempts';
import type { PayframeStore } from '../store/store';
import { hostedPageHandler, hostedReturnHandler, type HostedPageOptions, type HostedReturnOptions } from './hosted';

export interface Handlers {
  /** `POST` only: answers `{ clientToken, expiresAt }`, never cached. */
  clientToken(): Handler;
  /**
   * `POST` JSON `{ referenceId, sessionId, otp }` (an `OtpSubmission`): answers
   * `{ status, referenceId, state, code, text }`, never card data nor the raw payment. When the
   * service's answer is lost or the session is already used, the outcome is read from the session.
   */
  authenticate(options?: AuthenticateOptions): Handler;
  /**
   * The route a CVV-only hosted form posts to (`form.postCvv`): answers CORS for the card frames'
   * origin only (preflight included), reads the posted JSON, checks the CVV's shape, and calls
   * `handle` with it. It answers the payment `handle` made as a `CvvAnswer` (its outcome, and what
   * `handlePending` takes when it is pending): nothing else, so that no rendering of the CVV can reach
   * the page. A refusal carries its code and reason, and a message only when no rendering of the CVV
   * is in it.
   */
  cvv(options: CvvOptions): Handler;
  /**
   * The route the service posts its notifications (IPN) to (docs/outcomes.md): checks the
   * `Authorization` value in constant time (401 otherwise), reads the documented body (400 otherwise),
   * reads the payment from the service, calls `onPayment` with it, and answers 204 only once that
   * succeeded; a notification handled before is answered 204 without calling it again.
   */
  notification(options: NotificationOptions): Handler;
  /**
   * The payer's own page and their saved cards: `GET` answers `{ cards }` (what may be shown, the
   * default first), `POST` JSON `{ action: 'remove' | 'default', cardId }` changes one of their cards
   * and answers the cards after it. The payer comes from `payerOf(request)` (your session), never the page.
   */
  savedCards(options: SavedCardsOptions): Handler;
  /**
   * The checkout's Pay (docs/outcomes.md): `POST` JSON `{ nonce, attempt }` begins the attempt in the
   * gateway's store under a new invoice number, then makes the payment `payment(request, body)` sets
   * with that nonce, and answers a `PayAnswer`; the same attempt posted again charges nothing and
   * answers what the first became; a lost answer is `checking`. `GET ?attempt=` answers what became of
   * it, to its `owner` only: `checking` while nobody knows, `none` once the server proved no payment was
   * made (an attempt it never saw is closed first, for a caller `owner` names, so that a late POST of it
   * charges nothing; anyone else hears `checking` and nothing is written).
   */
  pay(options: PayOptions): Handler;
  /**
   * `POST`: makes a session of the service's own payment page for the order `order(request)` names, and
   * sends the payer there (303), or answers `{ hostedPageLink, sessionId, invoiceNumber }` to a request
   * that accepts JSON (docs/hosted-page.md).
   */
  hostedPage(options: HostedPageOptions): Handler;
  /**
   * `GET`: the page the payer returns to from the service's page (`returnUrl`, with
   * `payment-session-id`): reads the session and its payment, writes its outcome to the attempt of
   * `handlers.pay({ hostedPage: true })` that sent the payer (the gateway's store), settles the order
   * through `onPayment` (the notification route's), and answers what `render` makes of it.
   */
  hostedReturn(options: HostedReturnOptions): Handler;
}

export interface AuthenticateOptions {
  /**
   * Whether the shopper behind `request` (their session cookie, say; the body is already read) may
   * finish the payment `referenceId`; anything but `true` answers 403 before any call to the service.
   * Without it, knowing a payment's ids is enough to send an OTP for it.
   */
  authorize?: (request: Request, referenceId: string) => boolean | Promise<boolean>;
  /**
   * The payer's session, as `handlers.pay({ owner })` has it: the payment must be one an attempt of
   * that owner made (read from the service, then from the gateway's store), else 403 before the OTP is
   * sent. Instead of `authorize`, for payments made by `handlers.pay`.
   */
  owner?: (request: Request) => string | undefined | Promise<string | undefined>;
}

/** Errors after which the payment's outcome is worth reading from its session. */
const UNKNOWN_OUTCOME = new Set(['timeout', 'network', 'server_error', 'invalid_response', 'outcome_unknown']);

/**
 * After a failed authenticate call: the payment of this session when the error leaves its outcome open
 * and the payment has one now; otherwise the error stands.
 */
async function settledAfter(error: unknown, gateway: ServiceCalls, sessionId: string, referenceId: string): Promise<Payment> {
  if (error instanceof PayframeError && (UNKNOWN_OUTCOME.has(error.code) || error.reason === 'SESSION_EXPIRED')) {
    const payment = await gateway.payments.session(sessionId).catch(() => undefined);
    if (payment && payment.reference_id === referenceId && payment.state !== 'pending') return payment;
  }
  throw error;
}

/** `handlers.authenticate()`: the OTP of a pending payment, for the shopper `authorize` lets finish it. */
function authenticateHandler(
  gateway: ServiceCalls,
  store: PayframeStore,
  { authorize, owner }: AuthenticateOptions = {},
  report: (status: number, error: unknown) => void,
): Handler {
  if (authorize !== undefined && typeof authorize !== 'function') {
    throw configError('authorize must be a function (request, referenceId) => boolean', 'authenticate');
  }
  if (owner !== undefined && typeof owner !== 'function')
    throw configError('owner must be a function (request) => your session id', 'authenticate');
  /** Whether the payment is one the session's own attempt made: its invoice number leads to the attempt. */
  const owns = async (request: Request, referenceId: string) => {
    const who = await owner!(request);
    if (who === undefined) return false;
    const invoice = (await gateway.payments.get(referenceId).catch(() => undefined))?.transaction?.invoice_number;
    return invoice !== undefined && (await store.attempts.byInvoice(invoice))?.owner === who;
  };
  return guarded(
    'POST',
    async (request) => {
      const { referenceId, sessionId, otp } = checked(OtpSubmissionSchema, await readJson(request));
      const allowed = (!authorize || (await authorize(request, referenceId)) === true) && (!owner || (await owns(request, referenceId)));
      if (!allowed) {
        return refusalResponse(403, { code: 'forbidden', message: 'this checkout may not finish this payment' });
      }
      // The OTP may have been taken though its answer never came (a timeout, a dropped connection), or
      // by an earlier try whose answer was lost: the session then says how the payment ended, so the
      // payer is told that rather than "try again" or "expired" (and never pays twice).
      const payment = await gateway.payments
        .authenticate({ authenticateUrl: gateway.authenticateUrl(sessionId), referenceId, otp })
        .catch((error: unknown) => settledAfter(error, gateway, sessionId, referenceId));
      const outcome = readPayment(payment);
      // An attempt of handlers.pay that was pending is settled here, on whichever process took the OTP.
      const invoice = payment.transaction?.invoice_number;
      if (invoice !== undefined) await store.attempts.record(invoice, outcomeOf(payment));
      if (outcome.status === 'pending') throw new PayframeError('invalid_response', 'the payment is still pending after its OTP');
      const { status, state, code, text } = outcome;
      return jsonResponse(200, { status, referenceId: payment.reference_id, state, code, text } as OtpOutcome);
    },
    report,
  );
}

export function createHandlers(gateway: ServiceCalls, gatewayOrigin: string, store: PayframeStore, onEvent?: EventListener): Handlers {
  /** The cause of a handler's 5xx, for the merchant's log. */
  const reportAs = (handler: HandlerName) => (status: number, error: unknown) => emit(onEvent, () => handlerEvent(handler, status, error));
  return {
    clientToken: () =>
      guarded(
        'POST',
        async () => {
          const token = await gateway.clientToken();
          return jsonResponse(200, { clientToken: token.accessToken, expiresAt: token.expiresOn } satisfies TokenGrant);
        },
        reportAs('clientToken'),
      ),
    authenticate: (options) => authenticateHandler(gateway, store, options, reportAs('authenticate')),
    notification: (options) => notificationHandler(gateway, store, options, onEvent),
    pay: (options) => payHandler(gateway, store, options, reportAs('pay')),
    cvv: (options) => cvvHandler(gatewayOrigin, options, reportAs('cvv')),
    savedCards: (options) => savedCardsHandler(gateway, options ?? ({} as SavedCardsOptions), reportAs('savedCards')),
    hostedPage: (options) => hostedPageHandler(gateway, options, reportAs('hostedPage')),
    hostedReturn: (options) => hostedReturnHandler(gateway, store, options, reportAs('hostedReturn')),
  };
}
