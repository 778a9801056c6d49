/**
 * `handlers.notification()`: the route the service posts its notifications (IPN) to. The signature's
 * algorithm is not published, so the route is guarded by the `Authorization` value the merchant has the
 * service add, and nothing in the body is believed: the payment is read from the service by its id.
 */
import * as v from 'valibot';
import { type Notification, NotificationSchema, type Payment } from '../../schemas';
import { MAX_SERVICE_ANSWER } from '../../shared/body';
import { configError, PayframeError } from '../../shared/errors';
import { emit, type EventListener, notificationEvent } from '../events';
import { BEFORE_BODY, type BodyGate, guarded, type Handler, readBody, refusalResponse } from './respond';
import type { Attempt, NotificationStore, PayframeStore } from '../store/store';
import { outcomeOf } from '../calls/attempts';

export interface NotificationOptions {
  /**
   * The exact `Authorization` value you set for notifications at the service (`--notify-authorization`
   * in the sandbox). A request without it is answered 401 and nothing is read or called.
   */
  authorization: string;
  /**
   * Settles your order: `payment` is the service's record as it is now (read by its id, never taken from
   * the notification), `notification` what was posted (its `resource` is a claim: do not act on it),
   * `attempt` the attempt of `handlers.pay` that made the payment (its `order` is yours), undefined
   * for a payment no attempt of the gateway's store made (log it: an order your shop does not know).
   * `refund`, for a refund's notification (`PAYMENT.REFUND.*`), is the refund's own record, read from the
   * service by the id the notification names: its amount and state (a payment partly refunded still
   * reads `captured`). Answer (or resolve) once the order is saved; a throw answers 500, and the service
   * sends it again.
   */
  onPayment: (payment: Payment, notification: Notification, attempt: Attempt | undefined, refund?: Payment) => void | Promise<void>;
  /**
   * How long `onPayment` may take, in ms; default 8,000 (under the service's wait for an answer). Past
   * it the claim is given back and 503 answered, so the service sends the notification again, and the
   * payment's later notifications no longer wait for it (`onEvent` is told `timeout`). An `onPayment`
   * still running then may finish later: set the order from the payment, and a second call is harmless.
   */
  deadlineMs?: number;
  /** @deprecated The gateway's store (`createGateway({ store })`) is the default; a store given here is used instead. */
  store?: NotificationStore;
}

/** `onPayment`'s deadline passed: the claim is given back and the service sends the notification again. */
class Overdue extends Error {}

/** Whether two texts are equal, in a time that depends on neither (both are hashed to one length first). */
async function sameText(a: string, b: string): Promise<boolean> {
  const digest = async (text: string) => new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  const [x, y] = await Promise.all([digest(a), digest(b)]);
  let diff = 0;
  for (let i = 0; i < x.length; i += 1) diff |= x[i]! ^ y[i]!;
  return diff === 0;
}

const bad = (message: string) => new PayframeError('invalid_request', `notification: ${message}`);

/** The posted form: exactly `pg_signature` and `pg_payload`, the payload base64 of UTF-8 JSON of the documented shape. */
async function readNotification(request: Request): Promise<Notification> {
  const bytes = await readBody(request, 'application/x-www-form-urlencoded', MAX_SERVICE_ANSWER, 'notification: ');
  const form = new URLSearchParams(new TextDecoder().decode(bytes));
  const names = [...form.keys()].sort().join(',');
  if (names !== 'pg_payload,pg_signature') throw bad('the body must hold exactly pg_signature and pg_payload');
  let payload: unknown;
  try {
    const binary = atob(form.get('pg_payload')!);
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
  } catch {
    throw bad('pg_payload is not base64 of JSON');
  }
  const parsed = v.safeParse(NotificationSchema, payload);
  if (!parsed.success) throw bad(`pg_payload does not have the documented shape at ${v.getDotPath(parsed.issues[0]!) ?? '(root)'}`);
  if (parsed.output.resource_type === 'payment' && parsed.output.resource.reference_id === undefined)
    throw bad('a payment notification must name resource.reference_id');
  return parsed.output;
}

/** The options' checks: `invalid_config` when the route is made, not when the first notification comes. */
function checkOptions(authorization: unknown, onPayment: unknown, store: NotificationStore, deadlineMs: number): void {
  if (!Number.isSafeInteger(deadlineMs) || deadlineMs < 1)
    throw configError('deadlineMs must be a whole number of milliseconds, at least 1', 'notification');
  if (typeof authorization !== 'string' || authorization.trim() === '')
    throw configError('authorization is required: the Authorization value the service adds to every notification', 'notification');
  if (typeof onPayment !== 'function') throw configError('onPayment must be a function (payment, notification) => void', 'notification');
  if (!['claim', 'finish', 'release'].every((m) => typeof (store as unknown as Record<string, unknown>)?.[m] === 'function')) {
    throw configError('store must have claim(id), finish(id, payment) and release(id)', 'notification');
  }
}

/**
 * One payment at a time in this process: each of its notifications reads the payment when its turn
 * comes, so a slow write of an older state cannot land after a newer one.
 */
function oneAtATime() {
  const turns = new Map<string, Promise<unknown>>();
  return async <T>(referenceId: string, run: () => Promise<T>): Promise<T> => {
    const before = turns.get(referenceId);
    const mine = (async () => {
      await before?.catch(() => undefined);
      return run();
    })();
    turns.set(referenceId, mine);
    try {
      return await mine;
    } finally {
      if (turns.get(referenceId) === mine) turns.delete(referenceId);
    }
  };
}

/**
 * Runs `work` until it ends or `ms` pass (then `Overdue`), whatever it does: the payment's next
 * notification never waits on a hung `onPayment`. `late()` tells the work, once it ends, that it was.
 */
async function withinDeadline(work: (late: () => boolean) => Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let late = false;
  const overdue = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      late = true;
      reject(new Overdue('onPayment did not finish within deadlineMs'));
    }, ms);
  });
  try {
    await Promise.race([work(() => late), overdue]);
  } finally {
    clearTimeout(timer);
  }
}

/** What the route needs of the gateway: reading a payment. */
type Reader = { payments: { get(referenceId: string): Promise<Payment> } };

/**
 * A refund's own record, read from the service by the id its notification names (never taken from the
 * body): a lost answer to a partial refund is known only from it. Undefined for any other kind, and for
 * a record the service says is another payment's.
 */
async function refundOf(gateway: Reader, notification: Notification, payment: Payment): Promise<Payment | undefined> {
  const id = notification.resource['id'];
  if (!notification.kind.startsWith('PAYMENT.REFUND.') || typeof id !== 'string' || id === payment.reference_id) return undefined;
  const record = await gateway.payments.get(id);
  // A capture's or a void's record named by a forged or confused kind is no refund.
  const refundLike = record.state !== 'captured' && record.state !== 'voided' && record.state !== 'authorised';
  return record.reference_id === payment.reference_id && refundLike ? record : undefined;
}

export function notificationHandler(gateway: Reader, own: PayframeStore, options: NotificationOptions, onEvent: EventListener | undefined) {
  const { authorization, onPayment, store = own.notifications, deadlineMs = 8_000 } = options ?? ({} as NotificationOptions);
  checkOptions(authorization, onPayment, store, deadlineMs);
  const inTurn = oneAtATime();
  const tell = (outcome: Parameters<typeof notificationEvent>[0], n?: Notification, status?: number, error?: unknown) =>
    emit(onEvent, () => notificationEvent(outcome, n, status, error));
  /** Reads the payment, hands it to `onPayment` with its attempt, writes its outcome to the attempt, and marks the id handled. */
  const handle = (id: string, referenceId: string, notification: Notification) => async (late: () => boolean) => {
    const payment = await gateway.payments.get(referenceId);
    const invoiceNumber = payment.transaction?.invoice_number;
    const attempt = invoiceNumber === undefined ? undefined : await own.attempts.byInvoice(invoiceNumber);
    await onPayment(payment, notification, attempt, await refundOf(gateway, notification, payment));
    if (late()) return; // its claim was given back: the next delivery writes and finishes it
    if (attempt) await own.attempts.record(attempt.invoiceNumber, outcomeOf(payment));
    await store.finish(id, { referenceId: payment.reference_id, invoiceNumber });
  };
  const noContent = () => new Response(null, { status: 204 });

  const post = guarded(
    'POST',
    async (request) => {
      const notification = await readNotification(request);
      const { id, resource_type: type, resource } = notification;
      if (type !== 'payment') {
        tell('ignored', notification);
        return noContent();
      }
      // This delivery's own name for its claim: a release after the claim lapsed frees nobody else's.
      const holder = crypto.randomUUID();
      const claim = await store.claim(id, holder);
      if (claim !== 'new') {
        tell(claim === 'handled' ? 'duplicate' : 'busy', notification);
        return claim === 'handled'
          ? noContent()
          : refusalResponse(503, { code: 'server_error', message: 'this notification is being handled: send it again later' });
      }
      try {
        await inTurn(resource.reference_id!, () => withinDeadline(handle(id, resource.reference_id!, notification), deadlineMs));
      } catch (error) {
        await Promise.resolve(store.release(id, holder)).catch(() => undefined);
        if (!(error instanceof Overdue)) throw error;
        tell('timeout', notification, 503);
        return refusalResponse(503, { code: 'server_error', message: 'the order was not saved in time: send it again later' });
      }
      tell('handled', notification);
      return noContent();
    },
    // Every refusal is told, 4xx included: the service only retries, and nobody else hears why.
    (status, error) => emit(onEvent, () => notificationEvent(status >= 500 ? 'failed' : 'refused', undefined, status, error)),
    {},
    true,
  );

  // Checked before the body is read, on every adapter (toNodeListener asks it first): a forger learns
  // nothing of how it would be read, and a body dripped without the header is not waited for.
  const gate: BodyGate = async (method, header) => {
    if (method.toUpperCase() !== 'POST' || (await sameText(header('authorization') ?? '', authorization))) return undefined;
    tell('refused');
    return refusalResponse(401, { code: 'unauthorized', message: 'the Authorization header is not the one configured for notifications' });
  };
  const handler: Handler = async (request) => (await gate(request.method, (name) => request.headers.get(name))) ?? post(request);
  return Object.assign(handler, { [BEFORE_BODY]: gate });
}
