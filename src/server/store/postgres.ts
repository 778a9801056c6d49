/**
 * `postgresStore`: what payframe keeps, in PostgreSQL, shared by every process of the shop and kept
 * across restarts. The merchant passes the client (node-postgres `Pool`, PGlite, anything whose
 * `query(text, values)` answers `{ rows }`): payframe imports no driver.
 */
import { configError } from '../../shared/errors';
import {
  checkAttempt,
  checkChange,
  keepOf,
  lapseOf,
  NOT_RECEIVED,
  NOT_RECEIVED_KEEP_MS,
  RECORDABLE_FROM,
  type Attempt,
  type AttemptStatus,
  type AttemptStore,
  type NotificationStore,
  type PayframeStore,
  type StoreOptions,
} from './store';

/** What payframe needs of a PostgreSQL client: node-postgres's `Pool` and `Client`, and PGlite, have it. */
export interface SqlClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export interface PostgresStoreOptions extends StoreOptions {
  /** Starts the name of each table and index payframe makes: letters, digits, `_`. Default `payframe_`. */
  prefix?: string;
}

/** The database's clock in microseconds: claims lapse by one clock, whatever each server's says. */
const NOW_US = `(extract(epoch from clock_timestamp()) * 1000000)::bigint`;

const tablesOf = (p: string) => [
  `create table if not exists ${p}notifications (id text primary key, handled boolean not null default false,
    claimed_until bigint, reference_id text, invoice_number text, finished_at bigint)`,
  `alter table ${p}notifications add column if not exists holder text`,
  `create index if not exists ${p}notifications_invoice on ${p}notifications (invoice_number, finished_at)`,
  `create table if not exists ${p}attempts (attempt text primary key, invoice_number text not null unique,
    owner text, order_id text, reference_id text, status text not null, outcome jsonb,
    created_at bigint not null, updated_at bigint not null)`,
  `create index if not exists ${p}attempts_unsettled on ${p}attempts (created_at) where status in ('open', 'pending')`,
];

/** Runs `statements` once, on first use; two processes making them at once may collide, so a failure is tried again. */
function onFirstUse(client: SqlClient, statements: string[]) {
  let ready: Promise<void> | undefined;
  const make = async () => {
    for (const statement of statements) await client.query(statement);
  };
  return () =>
    (ready ??= make()
      .catch(make)
      .catch((error: unknown) => {
        ready = undefined;
        throw error;
      }));
}

const text = (value: unknown) => (value === null || value === undefined ? undefined : String(value));

function toAttempt(row: Record<string, unknown>): Attempt {
  const outcome = typeof row.outcome === 'string' ? (JSON.parse(row.outcome) as Record<string, unknown>) : row.outcome;
  const attempt: Attempt = {
    attempt: String(row.attempt),
    invoiceNumber: String(row.invoice_number),
    status: row.status as AttemptStatus,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
  if (text(row.owner) !== undefined) attempt.owner = text(row.owner);
  if (text(row.order_id) !== undefined) attempt.order = text(row.order_id);
  if (text(row.reference_id) !== undefined) attempt.referenceId = text(row.reference_id);
  if (outcome !== null && outcome !== undefined) attempt.outcome = outcome as Record<string, unknown>;
  return attempt;
}

function notificationsIn(db: SqlClient, p: string, lapseMs: number, keepMs: number, ready: () => Promise<void>): NotificationStore {
  let pruned = 0;
  // At most once an hour (or once per keepMs if shorter), on a finish: handled ids older than keepMs go.
  const prune = async () => {
    if (Date.now() - pruned < Math.min(keepMs, 3_600_000)) return;
    pruned = Date.now();
    await db.query(`delete from ${p}notifications where handled and finished_at < ${NOW_US} - $1`, [keepMs * 1000]).catch(() => undefined);
  };
  return {
    // One statement: a new id is inserted, a lapsed claim taken over; the row's lock makes it one caller's.
    claim: async (id, holder) => {
      await ready();
      const taken = await db.query(
        `insert into ${p}notifications (id, claimed_until, holder) values ($1, ${NOW_US} + $2, $3)
         on conflict (id) do update set claimed_until = excluded.claimed_until, holder = excluded.holder
         where not ${p}notifications.handled and ${p}notifications.claimed_until <= ${NOW_US} returning id`,
        [id, lapseMs * 1000, holder ?? ''],
      );
      if (taken.rows.length > 0) return 'new';
      const { rows } = await db.query(`select handled from ${p}notifications where id = $1`, [id]);
      // No row: released between the two statements; the service sends it again, and the next delivery takes it.
      return rows[0]?.handled === true ? 'handled' : 'busy';
    },
    finish: async (id, { referenceId, invoiceNumber }) => {
      await ready();
      await db.query(
        `insert into ${p}notifications (id, handled, reference_id, invoice_number, finished_at) values ($1, true, $2, $3, ${NOW_US})
         on conflict (id) do update set handled = true, claimed_until = null, reference_id = excluded.reference_id,
         invoice_number = excluded.invoice_number, finished_at = excluded.finished_at`,
        [id, referenceId, invoiceNumber ?? null],
      );
      await prune();
    },
    release: async (id, holder) => {
      await ready();
      await db.query(`delete from ${p}notifications where id = $1 and not handled and coalesce(holder, '') = $2`, [id, holder ?? '']);
    },
    referenceOf: async (invoiceNumber) => {
      await ready();
      const { rows } = await db.query(
        `select reference_id from ${p}notifications where invoice_number = $1 and handled order by finished_at desc limit 1`,
        [invoiceNumber],
      );
      return text(rows[0]?.reference_id);
    },
  };
}

function attemptsIn(db: SqlClient, p: string, keepMs: number, ready: () => Promise<void>): AttemptStore {
  const one = async (where: string, values: unknown[]) => {
    await ready();
    const { rows } = await db.query(`select * from ${p}attempts where ${where} limit 1`, values);
    return rows[0] && toAttempt(rows[0]);
  };
  let pruned = 0;
  const prune = async () => {
    if (Date.now() - pruned < Math.min(keepMs, 3_600_000)) return;
    pruned = Date.now();
    await db
      .query(
        `delete from ${p}attempts where status not in ('open', 'pending') and (updated_at < $1
         or (status = 'void' and outcome->>'reason' = $3 and updated_at < $2))`,
        [Date.now() - keepMs, Date.now() - Math.min(keepMs, NOT_RECEIVED_KEEP_MS), NOT_RECEIVED.reason],
      )
      .catch(() => undefined);
  };
  return {
    begin: async (a) => {
      checkAttempt(a);
      await ready();
      const { rows } = await db.query(
        `insert into ${p}attempts (attempt, invoice_number, owner, order_id, reference_id, status, outcome, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $8) on conflict do nothing returning attempt`,
        [a.attempt, a.invoiceNumber, a.owner ?? null, a.order ?? null, a.referenceId ?? null, a.status, json(a.outcome), a.createdAt],
      );
      if (rows.length > 0) {
        await prune(); // begins alone (a GET's closings) must make room too
        return { taken: true };
      }
      const kept = (await one('attempt = $1', [a.attempt])) ?? (await one('invoice_number = $1', [a.invoiceNumber]));
      if (!kept) return attemptsIn(db, p, keepMs, ready).begin(a); // pruned in between: try again
      return { taken: false, attempt: kept };
    },
    record: async (invoiceNumber, change) => {
      checkChange(change);
      await ready();
      const { rows } = await db.query(
        `update ${p}attempts set status = $2, reference_id = coalesce($3, reference_id), outcome = coalesce($4::jsonb, outcome),
         updated_at = $5 where invoice_number = $1 and status = any(string_to_array($6, ',')) returning *`,
        [
          invoiceNumber,
          change.status,
          change.referenceId ?? null,
          json(change.outcome),
          Date.now(),
          RECORDABLE_FROM[change.status].join(','),
        ],
      );
      if (rows[0]) {
        await prune();
        return toAttempt(rows[0]);
      }
      return one('invoice_number = $1', [invoiceNumber]);
    },
    get: (attempt) => one('attempt = $1', [attempt]),
    byInvoice: (invoiceNumber) => one('invoice_number = $1', [invoiceNumber]),
    unsettled: async (before, limit) => {
      await ready();
      const { rows } = await db.query(
        `select * from ${p}attempts where status in ('open', 'pending') and created_at < $1 order by created_at, attempt limit $2`,
        [before, limit],
      );
      return rows.map(toAttempt);
    },
  };
}

const json = (value: Record<string, unknown> | undefined) => (value === undefined ? null : JSON.stringify(value));

/**
 * The PostgreSQL store: two tables, `<prefix>notifications` and `<prefix>attempts`, made on first use.
 * Claims lapse after `lapseMs` by the database's clock; handled ids and settled attempts are deleted
 * `keepMs` after they were last written (default 30 days); open and pending attempts stay.
 */
export function postgresStore(client: SqlClient, options: PostgresStoreOptions = {}): PayframeStore {
  if (typeof client?.query !== 'function')
    throw configError('client must have query(text, values) (a node-postgres Pool, PGlite)', 'postgresStore');
  const prefix = options.prefix ?? 'payframe_';
  if (!/^[a-z_][a-z0-9_]{0,40}$/.test(prefix))
    throw configError('prefix must be lower-case letters, digits and _, at most 41', 'postgresStore');
  const lapseMs = lapseOf(options, 'postgresStore');
  const keepMs = keepOf(options, 'postgresStore');
  const ready = onFirstUse(client, tablesOf(prefix));
  return { notifications: notificationsIn(client, prefix, lapseMs, keepMs, ready), attempts: attemptsIn(client, prefix, keepMs, ready) };
}
