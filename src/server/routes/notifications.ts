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
import { memoryNotificationStore, type NotificationStore } from '../store/memory';

export interface NotificationOptions {
  /**
   * The exact `Authorization` value you set for notifications at the service (`--notify-authorization`
   * in the sandbox). A request without it is answered 401 and nothing is read or called.
   */
  authorization: string;
  /**
   * Settles your order: `payment` is the service's record as it is now (read by its id, never taken from
   * the notification), `notification` what was posted (its `resource` is a claim: do not act on it).
   * Answer (or resolve) once the order is saved; a throw answers 500, and the service sends it again.
   */
  onPayment: (payment: Payment, notification: Notification) => void | Promise<void>;
  /** Which notifications were handled already; default `memoryNotificationStore()`, for one process only. */
  store?: NotificationStore;
}

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

/** What the route needs of the gateway: reading a payment. */
type Reader = { payments: { get(referenceId: string): Promise<Payment> } };

export function notificationHandler(gateway: Reader, options: NotificationOptions, onEvent: EventListener | undefined) {
  const { authorization, onPayment, store = memoryNotificationStore() } = options ?? ({} as NotificationOptions);
  if (typeof authorization !== 'string' || authorization.trim() === '')
    throw configError('authorization is required: the Authorization value the service adds to every notification', 'notification');
  if (typeof onPayment !== 'function') throw configError('onPayment must be a function (payment, notification) => void', 'notification');
  if (!['claim', 'finish', 'release'].every((m) => typeof (store as unknown as Record<string, unknown>)?.[m] === 'function')) {
    throw configError('store must have claim(id), finish(id, payment) and release(id)', 'notification');
  }
  // One payment at a time in this process: each of its notifications reads the payment when its turn
  // comes, so a slow write of an older state cannot land after a newer one.
  const turns = new Map<string, Promise<unknown>>();
  const inTurn = async <T>(referenceId: string, run: () => Promise<T>): Promise<T> => {
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
  const tell = (outcome: Parameters<typeof notificationEvent>[0], n?: Notification) => emit(onEvent, () => notificationEvent(outcome, n));
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
      const claim = await store.claim(id);
      if (claim !== 'new') {
        tell(claim === 'handled' ? 'duplicate' : 'busy', notification);
        return claim === 'handled'
          ? noContent()
          : refusalResponse(503, { code: 'server_error', message: 'this notification is being handled: send it again later' });
      }
      try {
        await inTurn(resource.reference_id!, async () => {
          const payment = await gateway.payments.get(resource.reference_id!);
          await onPayment(payment, notification);
          await store.finish(id, { referenceId: payment.reference_id, invoiceNumber: payment.transaction?.invoice_number });
        });
      } catch (error) {
        await Promise.resolve(store.release(id)).catch(() => undefined);
        throw error;
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
