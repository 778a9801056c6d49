// Part 9: the stores. Notifications handled per second through each store (a delivery's store work:
// `claim` its id, then `finish` it) at 1, 8 and 64 concurrent deliveries, the memory store beside
// PGlite (a folder), PostgreSQL 15 (node-postgres, a pool of 10, its default) and Redis 7 (ioredis,
// one connection; append-only file written at every change, as docs/stores.md advises), the engines
// started by the part (test/setup/engines.mjs) and stopped after it. The onPayment between claim and
// finish, and reading the payment from the service, are left out: this is what the store costs.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Redis } from 'ioredis';
import pg from 'pg';
import { memoryStore, postgresStore, redisStore } from '../../dist/server.mjs';
import { startPostgres, startRedis } from '../../test/setup/engines.mjs';
import { cell, quantile, summary } from '../lib.mjs';

export const title = 'Part 9: stores, notifications handled per second';

const CONCURRENCY = [1, 8, 64];
const RUN_MS = 1_000;
const RUNS = 3;

/** `clients` deliveries at a time for RUN_MS, each a new id: handled per second and p50/p99 milliseconds. */
async function deliveries(store, clients, tag) {
  let handled = 0;
  let n = 0;
  const latencies = [];
  const until = performance.now() + RUN_MS;
  const loop = async () => {
    while (performance.now() < until) {
      const id = `${tag}-${n++}`;
      const t = performance.now();
      if ((await store.claim(id)) !== 'new') throw new Error(`a new id ${id} was not new`);
      await store.finish(id, { referenceId: `PAY-${id}`, invoiceNumber: `INV-${id}` });
      latencies.push(performance.now() - t);
      handled++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, loop));
  return { perSecond: (handled * 1000) / (performance.now() - started), p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
}

async function engines() {
  const folder = await mkdtemp(join(tmpdir(), 'payframe-bench-pglite-'));
  const [postgres, redisServer, lite] = await Promise.all([startPostgres(), startRedis(), PGlite.create(join(folder, 'db'))]);
  const pool = new pg.Pool({ connectionString: postgres.url });
  const redis = new Redis(redisServer.url);
  const stores = {
    memory: memoryStore().notifications,
    PGlite: postgresStore(lite).notifications,
    'PostgreSQL 15': postgresStore(pool).notifications,
    'Redis 7': redisStore(redis).notifications,
  };
  const close = async () => {
    redis.disconnect();
    await Promise.all([pool.end(), lite.close()]);
    await Promise.all([postgres.close(), redisServer.close(), rm(folder, { recursive: true, force: true })]);
  };
  return { stores, close };
}

export async function run() {
  const { stores, close } = await engines();
  try {
    const results = {};
    // Warm each (tables made, scripts loaded, JIT), then take turns: each round runs every store once per concurrency.
    for (const [name, store] of Object.entries(stores)) await deliveries(store, 8, `warm-${name}`);
    for (let r = 0; r < RUNS; r++)
      for (const clients of CONCURRENCY)
        for (const [name, store] of Object.entries(stores))
          ((results[name] ??= {})[clients] ??= []).push(await deliveries(store, clients, `${name}-${clients}-${r}`));
    const figures = {};
    const rows = [];
    for (const [name, byClients] of Object.entries(results)) {
      const row = { store: name };
      for (const clients of CONCURRENCY) {
        const runs = byClients[clients];
        const rate = summary(
          runs.map((x) => x.perSecond),
          'per second',
        );
        figures[`${name} at ${clients}`] = rate;
        const p50 = summary(runs.map((x) => x.p50)).median.toFixed(2);
        const p99 = summary(runs.map((x) => x.p99)).median.toFixed(2);
        row[`${clients} at once: per second (p50 / p99 ms)`] = `${cell(rate)} (${p50} / ${p99})`;
      }
      rows.push(row);
    }
    return {
      tables: [{ title: `claim + finish per notification, ${RUNS} runs of ${RUN_MS} ms each: median (min-max)`, rows }],
      figures,
      notes: [
        'PostgreSQL and PGlite commit every statement (fsync on); Redis writes its append-only file at every change (appendfsync always).',
      ],
    };
  } finally {
    await close();
  }
}
