/**
 * Instant notifications (IPN): one POST per change of a payment to its merchant's `notifyUrl`, sent in
 * the background, in order per payment, at least once (retried on the sandbox's clock), and readable by
 * tests. docs/sandbox.md ("Notifications") is the user's account of what is sent and when.
 */
import { createHmac } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import * as v from 'valibot';
import { MAX_TIMER_MS } from './due';
import type { Notification, NotificationKind } from '../../schemas';
import { hex, type Clock, type MerchantConfig, type PaymentEvent } from './state';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** When each retry is due, after the first try: the last is 24 hours after it, then the notification has failed. */
export const RETRY_AFTER_MS = [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR, 12 * HOUR, 24 * HOUR];
/** A receiver that has not answered in this long is cut off, and the try counts as failed. */
export const NOTIFY_TIMEOUT_MS = 10_000;
/** Bytes of a receiver's answer read, at most; the rest is not waited for. */
const MAX_ANSWER_BYTES = 4096;
/** In reorder mode, how long a notification waits for a later one of the same payment to overtake it. */
export const REORDER_HOLD_MS = 2000;
/** Tries under way at once, at most, to all receivers: a burst of changes never opens thousands of connections. */
export const MAX_IN_FLIGHT = 8;
/** Finished notifications kept for `notifications()`; waiting ones are always kept. */
const MAX_KEPT = 1000;

export interface Attempt {
  at: string;
  status?: number;
  error?: string;
  ms: number;
}

/** A notification's delivery as `notifications()` answers it: where it went, each try, its state (the wire body is the schemas' `Notification`). */
export interface NotificationDelivery {
  id: string;
  merchantId: string;
  url: string;
  kind: NotificationKind;
  referenceId: string;
  createdAt: string;
  attempts: Attempt[];
  state: 'pending' | 'delivered' | 'failed';
  nextAttemptAt?: string;
}

/** Test mode's deliberate disorder: each delivered notification sent twice; a payment's notifications sent newest first. */
export const ChaosSchema = v.strictObject({ duplicate: v.optional(v.boolean()), reorder: v.optional(v.boolean()) });
export type NotificationChaos = v.InferOutput<typeof ChaosSchema>;
export const CHAOS_SHAPE = 'The notification chaos must be { duplicate?: boolean, reorder?: boolean }';

interface Note {
  view: NotificationDelivery;
  body: string;
  authorization: string | undefined;
  /** Sandbox milliseconds at which the next try is due. */
  nextAt: number;
  firstAt?: number;
  /** Waiting, in reorder mode, for a later notification of its payment. */
  held: boolean;
}

/** The wire body: `pg_signature` (the sandbox's own: HMAC-SHA256 hex of `pg_payload`, keyed with the client secret) and `pg_payload`. */
export function notificationBody(payload: Notification, secret: string): string {
  const pgPayload = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64');
  const signature = createHmac('sha256', secret).update(pgPayload).digest('hex');
  return new URLSearchParams({ pg_signature: signature, pg_payload: pgPayload }).toString();
}

type Outcome = { status: number } | { error: string };

/**
 * One POST, never longer than `timeoutMs` (then `error: 'timeout'`) and never reading more than a few
 * KB of the answer. Never rejects: a refused connection or a reset is an `error`.
 */
function post(url: URL, body: string, authorization: string | undefined, timeoutMs: number, signal: AbortSignal): Promise<Outcome> {
  return new Promise((resolve) => {
    let outcome: Outcome | undefined;
    const finish = (result: Outcome) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', abort);
      req.destroy();
      resolve(outcome ?? result);
    };
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': String(Buffer.byteLength(body)),
    };
    if (authorization !== undefined) headers['authorization'] = authorization;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    // agent: false: one connection per try, closed after it, so no kept-alive socket outlives close().
    const req = send(url, { method: 'POST', headers, agent: false });
    const timer = setTimeout(() => finish({ error: 'timeout' }), timeoutMs);
    const abort = () => finish({ error: 'aborted' });
    signal.addEventListener('abort', abort);
    req.on('error', (error: NodeJS.ErrnoException) => finish({ error: error.code ?? 'network error' }));
    req.on('response', (res: IncomingMessage) => {
      outcome = { status: res.statusCode ?? 0 };
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= MAX_ANSWER_BYTES) finish(outcome!);
      });
      res.on('end', () => finish(outcome!));
      res.on('error', () => finish(outcome!));
    });
    req.end(body);
  });
}

export class Notifier {
  /** Per payment id, its notifications not yet delivered or failed, the next to send first. */
  private readonly queues = new Map<string, Note[]>();
  private readonly kept: Note[] = [];
  private readonly inFlight = new Map<Note, AbortController>();
  private readonly idleWaiters: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private chaos: Required<NotificationChaos> = { duplicate: false, reorder: false };

  constructor(
    private readonly clock: Clock,
    private readonly timeoutMs = NOTIFY_TIMEOUT_MS,
  ) {}

  /** Queues the notification of an event for a merchant with a `notifyUrl` (none without one). */
  add(event: PaymentEvent, merchant: MerchantConfig): void {
    if (!merchant.notifyUrl || this.closed) return;
    const id = `WH-${hex(12).toUpperCase()}`;
    const createdAt = this.clock.iso(event.at);
    const payload: Notification = { id, create_time: createdAt, resource_type: 'payment', kind: event.kind, resource: event.resource() };
    const now = this.clock.nowMs();
    const note: Note = {
      view: {
        id,
        merchantId: merchant.id,
        url: merchant.notifyUrl,
        kind: event.kind,
        referenceId: event.paymentId,
        createdAt,
        attempts: [],
        state: 'pending',
      },
      body: notificationBody(payload, merchant.clientSecret),
      authorization: merchant.notifyAuthorization,
      nextAt: now,
      held: false,
    };
    const queue = this.queues.get(event.paymentId) ?? [];
    this.queues.set(event.paymentId, queue);
    if (this.chaos.reorder) {
      const waiting = queue.filter((n) => n.held);
      // The newest goes first; those it overtakes follow it at once.
      for (const n of waiting) {
        n.held = false;
        n.nextAt = now;
      }
      if (waiting.length === 0) {
        note.held = true;
        note.nextAt = now + REORDER_HOLD_MS;
      }
      queue.unshift(note);
    } else queue.push(note);
    this.kept.push(note);
    this.trim();
    this.kick();
  }

  setChaos(chaos: NotificationChaos): Required<NotificationChaos> {
    this.chaos = { duplicate: chaos.duplicate === true, reorder: chaos.reorder === true };
    return { ...this.chaos };
  }

  /** Each notification kept, oldest first; `nextAttemptAt` only on one waiting for its own time (not for an earlier one of its payment, nor under way). */
  list(): NotificationDelivery[] {
    return this.kept.map((n) => {
      const waiting = n.view.state === 'pending' && this.queues.get(n.view.referenceId)?.[0] === n && !this.inFlight.has(n);
      return structuredClone({ ...n.view, ...(waiting ? { nextAttemptAt: this.clock.iso(n.nextAt) } : {}) });
    });
  }

  /** Resolves when no try is under way, none is due now, and none waits in reorder mode. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops every timer and cuts off every try under way; nothing is sent after. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    for (const controller of this.inFlight.values()) controller.abort();
    this.settle();
  }

  /**
   * Sends each payment's next notification that is due, MAX_IN_FLIGHT at a time, and sets a timer to the
   * soonest one not yet due. At the limit it stops looking: the end of a try kicks again.
   */
  kick(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    const now = this.clock.nowMs();
    let soonest = Infinity;
    for (const queue of this.queues.values()) {
      if (this.inFlight.size >= MAX_IN_FLIGHT) return;
      const head = queue[0]!;
      if (this.inFlight.has(head)) continue;
      if (head.nextAt <= now) void this.attempt(head);
      else soonest = Math.min(soonest, head.nextAt);
    }
    if (soonest !== Infinity) this.timer = setTimeout(() => this.kick(), Math.min(soonest - now, MAX_TIMER_MS)).unref();
    this.settle();
  }

  private async attempt(note: Note): Promise<void> {
    const controller = new AbortController();
    this.inFlight.set(note, controller);
    note.held = false;
    // One reading of the clock: the schedule counts from the first try's recorded time exactly.
    const now = this.clock.nowMs();
    note.firstAt ??= now;
    const ok = await this.send(note, controller.signal, now);
    if (ok && this.chaos.duplicate && !controller.signal.aborted) await this.send(note, controller.signal);
    this.inFlight.delete(note);
    if (this.closed) return this.settle();
    const tries = note.view.attempts.length;
    if (ok) note.view.state = 'delivered';
    else if (tries > RETRY_AFTER_MS.length) note.view.state = 'failed';
    else note.nextAt = note.firstAt + RETRY_AFTER_MS[tries - 1]!;
    if (note.view.state !== 'pending') this.finish(note);
    this.kick();
  }

  /** One try, recorded; whether the receiver answered 2xx. */
  private async send(note: Note, signal: AbortSignal, now = this.clock.nowMs()): Promise<boolean> {
    const at = this.clock.iso(now);
    const started = performance.now();
    let outcome: Outcome;
    try {
      outcome = await post(new URL(note.view.url), note.body, note.authorization, this.timeoutMs, signal);
    } catch (error) {
      // A request Node refuses to make is a failed try, never an unhandled rejection that stops the sandbox.
      outcome = { error: (error as NodeJS.ErrnoException).code ?? 'request failed' };
    }
    note.view.attempts.push({ at, ...outcome, ms: Math.round(performance.now() - started) });
    return 'status' in outcome && outcome.status >= 200 && outcome.status < 300;
  }

  private finish(note: Note): void {
    const queue = this.queues.get(note.view.referenceId)!;
    queue.splice(queue.indexOf(note), 1);
    if (queue.length === 0) this.queues.delete(note.view.referenceId);
    this.trim();
  }

  /** Drops the oldest finished notifications past MAX_KEPT. */
  private trim(): void {
    let excess = this.kept.length - MAX_KEPT;
    for (let i = 0; excess > 0 && i < this.kept.length;) {
      if (this.kept[i]!.view.state === 'pending') i++;
      else {
        this.kept.splice(i, 1);
        excess--;
      }
    }
  }

  private isIdle(): boolean {
    if (this.closed) return true;
    if (this.inFlight.size > 0) return false;
    const now = this.clock.nowMs();
    for (const queue of this.queues.values()) if (queue[0]!.held || queue[0]!.nextAt <= now) return false;
    return true;
  }

  private settle(): void {
    if (this.idleWaiters.length === 0 || !this.isIdle()) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
