/**
 * Instant notifications (IPN): one POST per change of a payment to its merchant's `notifyUrl`, sent in
 * the background, in order per payment, at least once (retried on the sandbox's clock), and readable by
 * tests. docs/sandbox.md ("Notifications") is the user's account of what is sent and when.
 */
import { createHmac } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import * as v from 'valibot';
import { DueIndex, MAX_TIMER_MS } from './due';
import { Fifo } from './fifo';
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
/** Tries under way at once to one receiver (the origin of a `notifyUrl`), at most: a burst never opens thousands of connections, and a receiver that never answers holds only its own. */
export const MAX_IN_FLIGHT = 8;
/** Finished notifications kept for `notifications()`, of each ending (delivered, failed); waiting ones are always kept. */
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
  /** Its place in the order of creation, which `notifications()` lists. */
  seq: number;
  /** The origin it is posted to: tries in flight are counted per receiver. */
  receiver: string;
  /** In its receiver's line of tries due (so never put there twice). */
  lined: boolean;
}

/** One receiver's tries: how many are under way, and the notifications due, first tries apart from retries. */
interface Line {
  inFlight: number;
  fresh: Fifo<Note>;
  retries: Fifo<Note>;
  /** Whether the last try started was a retry: when both wait, they take turns. */
  lastRetry: boolean;
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
  /** Every notification not yet delivered or failed, by id, oldest first. */
  private readonly waiting = new Map<string, Note>();
  /** The last MAX_KEPT delivered and the last MAX_KEPT failed: a flood of deliveries never hides a failure. */
  private readonly delivered = new Fifo<Note>();
  private readonly failed = new Fifo<Note>();
  /** When each payment's next notification is due: [instant, notification id], checked when taken out. */
  private readonly due = new DueIndex();
  private readonly lines = new Map<string, Line>();
  private readonly inFlight = new Map<Note, AbortController>();
  private readonly held = new Set<Note>();
  private readonly idleWaiters: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private seq = 0;
  private chaos: Required<NotificationChaos> = { duplicate: false, reorder: false };

  constructor(
    private readonly clock: Clock,
    private readonly timeoutMs = NOTIFY_TIMEOUT_MS,
  ) {
    this.due.onSooner = () => this.arm();
  }

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
      seq: this.seq++,
      receiver: new URL(merchant.notifyUrl).origin,
      lined: false,
    };
    const queue = this.queues.get(event.paymentId) ?? [];
    this.queues.set(event.paymentId, queue);
    this.waiting.set(id, note);
    if (this.chaos.reorder) {
      const waiting = queue.filter((n) => n.held);
      // The newest goes first; those it overtakes follow it at once.
      for (const n of waiting) {
        this.held.delete(n);
        n.held = false;
        n.nextAt = now;
      }
      if (waiting.length === 0) {
        note.held = true;
        this.held.add(note);
        note.nextAt = now + REORDER_HOLD_MS;
      }
      queue.unshift(note);
    } else queue.push(note);
    this.schedule(queue[0]!);
    this.kick();
  }

  setChaos(chaos: NotificationChaos): Required<NotificationChaos> {
    this.chaos = { duplicate: chaos.duplicate === true, reorder: chaos.reorder === true };
    return { ...this.chaos };
  }

  /** Each notification kept, oldest first; `nextAttemptAt` only on one waiting for its own time (not for an earlier one of its payment, nor under way). */
  list(): NotificationDelivery[] {
    const kept = [...this.waiting.values(), ...this.delivered.values(), ...this.failed.values()].sort((a, b) => a.seq - b.seq);
    return kept.map((n) => {
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

  /** Lines up what has fallen due (the clock moved, or its timer fired), starts what each receiver has room for, and sets the timer to the next. */
  kick(): void {
    if (this.closed) return;
    const now = this.clock.nowMs();
    for (const id of this.due.take(now)) {
      const note = this.waiting.get(id);
      // An entry is only a hint: the notification may be finished, overtaken, under way, or due later now.
      if (!note || note.lined || note.nextAt > now || this.inFlight.has(note) || this.queues.get(note.view.referenceId)![0] !== note)
        continue;
      const line = this.lineOf(note.receiver);
      note.lined = true;
      (note.view.attempts.length === 0 ? line.fresh : line.retries).push(note);
    }
    for (const [receiver, line] of this.lines) this.start(receiver, line);
    this.arm();
    this.settle();
  }

  /**
   * Starts tries to one receiver while it has fewer than MAX_IN_FLIGHT under way. First tries and retries
   * take turns when both wait, each line in the order it fell due: a new payment's notification never
   * waits behind a backlog of retries, and a backlog of new ones never stops the retries.
   */
  private start(receiver: string, line: Line): void {
    while (line.inFlight < MAX_IN_FLIGHT) {
      const retry = line.retries.size > 0 && (line.fresh.size === 0 || !line.lastRetry);
      const note = (retry ? line.retries : line.fresh).shift();
      if (!note) break;
      line.lastRetry = retry;
      note.lined = false;
      void this.attempt(note, line);
    }
    if (line.inFlight === 0 && line.fresh.size === 0 && line.retries.size === 0) this.lines.delete(receiver);
  }

  private lineOf(receiver: string): Line {
    let line = this.lines.get(receiver);
    if (!line) this.lines.set(receiver, (line = { inFlight: 0, fresh: new Fifo(), retries: new Fifo(), lastRetry: false }));
    return line;
  }

  /** Puts a payment's next notification on the due index, for its time. */
  private schedule(note: Note): void {
    this.due.add(note.nextAt, note.view.id);
  }

  private arm(): void {
    clearTimeout(this.timer);
    const next = this.due.next();
    this.timer =
      this.closed || next === undefined
        ? undefined
        : setTimeout(() => this.kick(), Math.min(Math.max(next - this.clock.nowMs(), 0), MAX_TIMER_MS)).unref();
  }

  private async attempt(note: Note, line: Line): Promise<void> {
    const controller = new AbortController();
    this.inFlight.set(note, controller);
    line.inFlight++;
    this.held.delete(note);
    note.held = false;
    // One reading of the clock: the schedule counts from the first try's recorded time exactly.
    const now = this.clock.nowMs();
    note.firstAt ??= now;
    const ok = await this.send(note, controller.signal, now);
    if (ok && this.chaos.duplicate && !controller.signal.aborted) await this.send(note, controller.signal);
    this.inFlight.delete(note);
    line.inFlight--;
    if (this.closed) return this.settle();
    const tries = note.view.attempts.length;
    if (ok) note.view.state = 'delivered';
    else if (tries > RETRY_AFTER_MS.length) note.view.state = 'failed';
    else note.nextAt = note.firstAt + RETRY_AFTER_MS[tries - 1]!;
    if (note.view.state !== 'pending') this.finish(note);
    else this.schedule(note);
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

  /** Moves a finished notification to its ending's list (dropping that list's oldest past MAX_KEPT), and schedules its payment's next. */
  private finish(note: Note): void {
    const queue = this.queues.get(note.view.referenceId)!;
    queue.splice(queue.indexOf(note), 1);
    if (queue.length === 0) this.queues.delete(note.view.referenceId);
    else this.schedule(queue[0]!);
    this.waiting.delete(note.view.id);
    const kept = note.view.state === 'failed' ? this.failed : this.delivered;
    kept.push(note);
    if (kept.size > MAX_KEPT) kept.shift();
  }

  private isIdle(): boolean {
    if (this.closed) return true;
    if (this.inFlight.size > 0 || this.held.size > 0) return false;
    for (const line of this.lines.values()) if (line.fresh.size > 0 || line.retries.size > 0) return false;
    return (this.due.next() ?? Infinity) > this.clock.nowMs();
  }

  private settle(): void {
    if (this.idleWaiters.length === 0 || !this.isIdle()) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
