/**
 * `redisStore`: what payframe keeps, in Redis (one node, or a primary behind Sentinel; not Redis
 * Cluster: a script reaches keys it names itself). The merchant passes the client: ioredis's (its
 * `call(command, ...args)`) or node-redis's (its `sendCommand(args)`). Each change is one command or
 * one Lua script: atomic.
 */
import { configError } from '../../shared/errors';
import {
  checkAttempt,
  checkChange,
  isNotReceived,
  keepOf,
  lapseOf,
  NOT_RECEIVED_KEEP_MS,
  RECORDABLE_FROM,
  type Attempt,
  type AttemptStatus,
  type AttemptStore,
  type NotificationStore,
  type PayframeStore,
  type StoreOptions,
} from './store';

/** What payframe needs of a Redis client: ioredis's `call`, or node-redis's `sendCommand`. */
export type RedisClient =
  { call(command: string, ...args: (string | number)[]): Promise<unknown> } | { sendCommand(args: string[]): Promise<unknown> };

type Run = (command: string, ...args: (string | number)[]) => Promise<unknown>;

/** One way to send a command, whichever client it is (ioredis has a `sendCommand` too, of its own shape: `call` first). */
function runnerOf(client: RedisClient): Run | undefined {
  if (typeof (client as { call?: unknown })?.call === 'function') {
    const c = client as { call: Run };
    return (command, ...args) => c.call(command, ...args);
  }
  if (typeof (client as { sendCommand?: unknown })?.sendCommand === 'function') {
    const c = client as { sendCommand(args: string[]): Promise<unknown> };
    return (command, ...args) => c.sendCommand([command, ...args.map(String)]);
  }
  return undefined;
}

export interface RedisStoreOptions extends StoreOptions {
  /** Starts every key payframe writes. Default `payframe:`. */
  prefix?: string;
}

/** A Lua script, sent by its digest and by its text only when Redis does not hold it yet. */
function script(run: Run, source: string) {
  let sha: string | undefined;
  return async (keys: string[], args: (string | number)[]) => {
    if (sha) {
      try {
        return await run('evalsha', sha, keys.length, ...keys, ...args);
      } catch (error) {
        if (!String((error as Error)?.message).startsWith('NOSCRIPT')) throw error;
      }
    }
    sha = String(await run('script', 'load', source));
    return run('evalsha', sha, keys.length, ...keys, ...args);
  };
}

// A claim's value is 'busy:' and its holder; a handled id's is 'handled'.
const CLAIM = `if redis.call('set', KEYS[1], 'busy:' .. ARGV[2], 'NX', 'PX', ARGV[1]) then return 'new' end
if redis.call('get', KEYS[1]) == 'handled' then return 'handled' end
return 'busy'`;

const RELEASE = `if redis.call('get', KEYS[1]) == 'busy:' .. ARGV[1] then return redis.call('del', KEYS[1]) end
return 0`;

// KEYS: the attempt's hash, its invoice number's key, the unsettled set. ARGV: the attempts' key
// prefix, the attempt's id, its createdAt, whether unsettled, keepMs, then its fields as name, value pairs.
const BEGIN = `local kept = redis.call('hgetall', KEYS[1])
if #kept > 0 then return kept end
local other = redis.call('get', KEYS[2])
if other then
  kept = redis.call('hgetall', ARGV[1] .. other)
  if #kept > 0 then return kept end
end
redis.call('hset', KEYS[1], unpack(ARGV, 6))
redis.call('set', KEYS[2], ARGV[2])
if ARGV[4] == '1' then redis.call('zadd', KEYS[3], ARGV[3], ARGV[2])
else
  redis.call('pexpire', KEYS[1], ARGV[5])
  redis.call('pexpire', KEYS[2], ARGV[5])
end
return {}`;

// KEYS: the invoice number's key, the unsettled set. ARGV: the attempts' key prefix, the new status,
// the statuses it may follow (",a,b,"), 'v'..referenceId or '', 'v'..outcome or '', updatedAt,
// whether the new status is unsettled, keepMs.
const RECORD = `local id = redis.call('get', KEYS[1])
if not id then return {} end
local key = ARGV[1] .. id
local status = redis.call('hget', key, 'status')
if not status then return {} end
if string.find(ARGV[3], ',' .. status .. ',', 1, true) then
  redis.call('hset', key, 'status', ARGV[2], 'updatedAt', ARGV[6])
  if ARGV[4] ~= '' then redis.call('hset', key, 'referenceId', string.sub(ARGV[4], 2)) end
  if ARGV[5] ~= '' then redis.call('hset', key, 'outcome', string.sub(ARGV[5], 2)) end
  if ARGV[7] ~= '1' then
    redis.call('zrem', KEYS[2], id)
    redis.call('pexpire', key, ARGV[8])
    redis.call('pexpire', KEYS[1], ARGV[8])
  end
end
return redis.call('hgetall', key)`;

/**
 * An attempt from its hash, or undefined for an empty one: a script answers it flat (`[name, value,
 * ...]`), ioredis's `hgetall` as an object.
 */
function toAttempt(reply: unknown): Attempt | undefined {
  const h = new Map<string, string>();
  if (Array.isArray(reply)) for (let i = 0; i + 1 < reply.length; i += 2) h.set(String(reply[i]), String(reply[i + 1]));
  else if (reply && typeof reply === 'object') for (const [name, value] of Object.entries(reply)) h.set(name, String(value));
  if (h.size === 0) return undefined;
  const attempt: Attempt = {
    attempt: h.get('attempt')!,
    invoiceNumber: h.get('invoiceNumber')!,
    status: h.get('status') as AttemptStatus,
    createdAt: Number(h.get('createdAt')),
    updatedAt: Number(h.get('updatedAt')),
  };
  for (const name of ['owner', 'order', 'referenceId'] as const) if (h.has(name)) attempt[name] = h.get(name);
  if (h.has('outcome')) attempt.outcome = JSON.parse(h.get('outcome')!) as Record<string, unknown>;
  return attempt;
}

function notificationsIn(run: Run, p: string, lapseMs: number, keepMs: number): NotificationStore {
  const claim = script(run, CLAIM);
  const release = script(run, RELEASE);
  return {
    claim: async (id, holder) => String(await claim([`${p}n:${id}`], [lapseMs, holder ?? ''])) as 'new' | 'handled' | 'busy',
    finish: async (id, { referenceId, invoiceNumber }) => {
      if (invoiceNumber !== undefined) await run('set', `${p}inv:${invoiceNumber}`, referenceId, 'PX', keepMs);
      await run('set', `${p}n:${id}`, 'handled', 'PX', keepMs);
    },
    release: async (id, holder) => void (await release([`${p}n:${id}`], [holder ?? ''])),
    referenceOf: async (invoiceNumber) => {
      const reference = await run('get', `${p}inv:${invoiceNumber}`);
      return reference === null || reference === undefined ? undefined : String(reference);
    },
  };
}

function attemptsIn(run: Run, p: string, keepMs: number): AttemptStore {
  const begin = script(run, BEGIN);
  const record = script(run, RECORD);
  const unsettledKey = `${p}unsettled`;
  const get = async (attempt: string) => toAttempt(await run('hgetall', `${p}a:${attempt}`));
  const optional = (value: string | undefined) => (value === undefined ? '' : `v${value}`);
  return {
    begin: async (a) => {
      checkAttempt(a);
      const fields: (string | number)[] = ['attempt', a.attempt, 'invoiceNumber', a.invoiceNumber, 'status', a.status];
      fields.push('createdAt', a.createdAt, 'updatedAt', a.createdAt);
      for (const name of ['owner', 'order', 'referenceId'] as const) if (a[name] !== undefined) fields.push(name, a[name]);
      if (a.outcome !== undefined) fields.push('outcome', JSON.stringify(a.outcome));
      const unsettled = a.status === 'open' || a.status === 'pending' ? '1' : '0';
      const keys = [`${p}a:${a.attempt}`, `${p}ai:${a.invoiceNumber}`, unsettledKey];
      const keep = isNotReceived(a) ? Math.min(keepMs, NOT_RECEIVED_KEEP_MS) : keepMs;
      const kept = toAttempt(await begin(keys, [`${p}a:`, a.attempt, a.createdAt, unsettled, keep, ...fields]));
      return kept ? { taken: false, attempt: kept } : { taken: true };
    },
    record: async (invoiceNumber, change) => {
      checkChange(change);
      const unsettled = change.status === 'open' || change.status === 'pending' ? '1' : '0';
      const args = [`${p}a:`, change.status, `,${RECORDABLE_FROM[change.status].join(',')},`, optional(change.referenceId)];
      args.push(optional(change.outcome && JSON.stringify(change.outcome)), String(Date.now()), unsettled, String(keepMs));
      return toAttempt(await record([`${p}ai:${invoiceNumber}`, unsettledKey], args));
    },
    get,
    byInvoice: async (invoiceNumber) => {
      const id = await run('get', `${p}ai:${invoiceNumber}`);
      return id === null || id === undefined ? undefined : get(String(id));
    },
    unsettled: async (before, limit) => {
      const ids = (await run('zrange', unsettledKey, '-inf', `(${before}`, 'BYSCORE', 'LIMIT', 0, limit)) as string[];
      const found = await Promise.all(ids.map((id) => get(String(id))));
      return found.filter((a): a is Attempt => a !== undefined);
    },
  };
}

/**
 * The Redis store: keys under `prefix` (`n:` a notification's claim, `inv:` an invoice number's payment,
 * `a:` an attempt, `ai:` an invoice number's attempt, `unsettled` the open and pending ones). A claim
 * expires after `lapseMs`; handled ids and settled attempts expire `keepMs` after their last change
 * (default 30 days); open and pending attempts stay.
 */
export function redisStore(client: RedisClient, options: RedisStoreOptions = {}): PayframeStore {
  const run = runnerOf(client);
  if (!run) throw configError('client must be an ioredis client (call) or a node-redis client (sendCommand)', 'redisStore');
  const prefix = options.prefix ?? 'payframe:';
  if (typeof prefix !== 'string' || prefix.length > 100)
    throw configError('prefix must be a string of at most 100 characters', 'redisStore');
  const lapseMs = lapseOf(options, 'redisStore');
  const keepMs = keepOf(options, 'redisStore');
  return { notifications: notificationsIn(run, prefix, lapseMs, keepMs), attempts: attemptsIn(run, prefix, keepMs) };
}
