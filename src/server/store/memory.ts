/**
 * The memory store: what payframe keeps, in this process's memory. Right for tests and for one process
 * that never restarts; a restart forgets it all, and a second process has its own. Anything else:
 * `postgresStore` or `redisStore` (docs/stores.md).
 */
import {
  checkAttempt,
  checkChange,
  isNotReceived,
  isUnsettled,
  lapseOf,
  NOT_RECEIVED_KEEP_MS,
  RECORDABLE_FROM,
  type Attempt,
  type AttemptStore,
  type NotificationStore,
  type PayframeStore,
  type StoreOptions,
} from './store';
import { configError } from '../../shared/errors';

export type { NotificationClaim, NotificationStore } from './store';

export interface MemoryStoreOptions extends StoreOptions {
  /**
   * How many handled notifications it keeps (the newest), and the attempts past which declined and void
   * ones, and those closed as never received over an hour ago, go (the oldest first); open, pending and
   * approved attempts are kept whatever the limit. Default 10,000.
   */
  limit?: number;
}

/** A claim held now: its waiters wake when it ends or lapses. */
interface Hold {
  holder: string;
  done: Promise<void>;
  end: () => void;
  until: number;
}

/** Waits until `hold` ends or lapses, whichever comes first, and leaves no timer behind. */
const outlast = (hold: Hold) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, Math.max(0, hold.until - Date.now()));
    void hold.done.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });

function notificationsInMemory(limit: number, lapseMs: number): NotificationStore {
  const handled = new Map<string, true>();
  const invoices = new Map<string, string>();
  const busy = new Map<string, Hold>();
  const bound = (map: Map<string, unknown>) => map.size > limit && map.delete(map.keys().next().value!);
  const free = (id: string) => {
    busy.get(id)?.end();
    busy.delete(id);
  };
  const heldBy = (id: string, holder: string | undefined) => busy.get(id)?.holder === (holder ?? '');
  return {
    // A delivery of an id being handled in this process waits for it (one process: no one else would
    // answer it sooner), but no longer than the claim's lapse: a holder that hangs holds nothing for ever.
    claim: async (id, holder) => {
      for (let hold = busy.get(id); hold && Date.now() < hold.until; hold = busy.get(id)) await outlast(hold);
      // Nothing between the last wait and taking the claim yields: one waiter takes it, the others wait again.
      if (handled.has(id)) return 'handled';
      busy.get(id)?.end();
      let end!: () => void;
      busy.set(id, { holder: holder ?? '', done: new Promise<void>((resolve) => (end = resolve)), end, until: Date.now() + lapseMs });
      return 'new';
    },
    finish: (id, { referenceId, invoiceNumber }) => {
      handled.set(id, true);
      bound(handled);
      if (invoiceNumber !== undefined) {
        invoices.delete(invoiceNumber);
        invoices.set(invoiceNumber, referenceId);
        bound(invoices);
      }
      free(id);
    },
    release: (id, holder) => {
      if (heldBy(id, holder)) free(id);
    },
    referenceOf: (invoiceNumber) => invoices.get(invoiceNumber),
  };
}

/** At most this many attempts of one session closed as never received within the hour. */
const MAX_CLOSED_PER_OWNER = 100;

function attemptsInMemory(limit: number): AttemptStore {
  const byId = new Map<string, Attempt>();
  const ids = new Map<string, string>();
  const copy = (attempt: Attempt | undefined) => (attempt === undefined ? undefined : structuredClone(attempt));
  const find = (invoiceNumber: string) => byId.get(ids.get(invoiceNumber) ?? '');
  const drop = (a: Attempt) => {
    byId.delete(a.attempt);
    ids.delete(a.invoiceNumber);
  };
  // Past the limit, the oldest attempt closed as never received an hour ago or more goes, else the oldest
  // declined or void. An unsettled one stays until it settles, an approved one stays (its payer may still
  // ask), and a younger closed one stays: its POST may still be on its way, and would charge.
  const bound = () => {
    if (byId.size <= limit) return;
    const all = [...byId.values()];
    const old = Date.now() - NOT_RECEIVED_KEEP_MS;
    const gone =
      all.find((a) => isNotReceived(a) && a.updatedAt <= old) ??
      all.find((a) => !isUnsettled(a.status) && a.status !== 'approved' && !isNotReceived(a));
    if (gone) drop(gone);
  };
  // One session's closed attempts beyond MAX_CLOSED_PER_OWNER within the hour: its oldest goes (a payer
  // has a few; a flood of asks risks only its own sender's late POSTs, and holds no more memory).
  const capOwner = (owner: string | undefined, newest: string) => {
    const own = [...byId.values()].filter((a) => isNotReceived(a) && a.owner === owner && a.attempt !== newest);
    if (own.length >= MAX_CLOSED_PER_OWNER) drop(own[0]!);
  };
  return {
    begin: async (attempt) => {
      checkAttempt(attempt);
      const kept = byId.get(attempt.attempt) ?? find(attempt.invoiceNumber);
      if (kept) return { taken: false, attempt: copy(kept)! };
      byId.set(attempt.attempt, { ...structuredClone(attempt), updatedAt: attempt.createdAt });
      ids.set(attempt.invoiceNumber, attempt.attempt);
      if (isNotReceived(attempt)) capOwner(attempt.owner, attempt.attempt);
      bound();
      return { taken: true };
    },
    record: async (invoiceNumber, change) => {
      checkChange(change);
      const kept = find(invoiceNumber);
      if (kept && RECORDABLE_FROM[change.status].includes(kept.status)) {
        kept.status = change.status;
        if (change.referenceId !== undefined) kept.referenceId = change.referenceId;
        if (change.outcome !== undefined) kept.outcome = structuredClone(change.outcome);
        kept.updatedAt = Date.now();
      }
      return copy(kept);
    },
    get: async (attempt) => copy(byId.get(attempt)),
    byInvoice: async (invoiceNumber) => copy(find(invoiceNumber)),
    unsettled: async (before, max) =>
      [...byId.values()]
        .filter((a) => isUnsettled(a.status) && a.createdAt < before)
        .sort((a, b) => a.createdAt - b.createdAt)
        .slice(0, max)
        .map((a) => copy(a)!),
  };
}

/**
 * The memory store (the gateway's default): notifications and attempts in this process's memory, bounded
 * by `limit` as its option says. For tests and one process only: a restart forgets everything.
 */
export function memoryStore(options: MemoryStoreOptions = {}): PayframeStore {
  const lapseMs = lapseOf(options, 'memoryStore');
  const limit = options.limit ?? 10_000;
  if (!Number.isSafeInteger(limit) || limit < 1) throw configError('limit must be a whole number, at least 1', 'memoryStore');
  return { notifications: notificationsInMemory(limit, lapseMs), attempts: attemptsInMemory(limit) };
}

/**
 * The memory store's notifications alone, the newest `limit` handled kept (kept for the merchants who
 * pass it to `handlers.notification`; `memoryStore()` holds it too). A claim lapses after 5 minutes.
 */
export function memoryNotificationStore(limit = 10_000): NotificationStore {
  return notificationsInMemory(limit, lapseOf(undefined, 'memoryNotificationStore'));
}
