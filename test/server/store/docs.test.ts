// docs/stores.md's blocks, as written, on the real engines the conformance suite uses: each block is
// loaded twice (two shops' processes, each with its own client) and the two share what they keep.
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayframeStore } from '../../../src/server';
import { readmeBlock } from '../../readme';
import { attemptOf, uid } from './cases';
import { startPostgres, startRedis, type Engine } from '../../setup/engines.mjs';

const ROOT = new URL('../../../', import.meta.url).pathname;
let postgres: Engine;
let redis: Engine;
beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
}, 30_000);
afterAll(async () => {
  await Promise.all([postgres?.close(), redis?.close()]);
});

/** Runs a block as a module inside the package (so `payframe/server` resolves to this build, and `pg` to the devDependency). */
async function load(code: string): Promise<Record<string, any>> {
  const dir = join(ROOT, 'reports/readme');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `store-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, code);
  return import(pathToFileURL(file).href);
}

/** What a shop checks: one of two processes gets a notification, the other sees it handled, and both read one attempt. */
async function shared(a: PayframeStore, b: PayframeStore) {
  const id = uid('WH');
  const invoiceNumber = uid('INV');
  expect(await a.notifications.claim(id)).toBe('new');
  expect(await b.notifications.claim(id)).toBe('busy');
  await a.notifications.finish(id, { referenceId: 'PAY-doc', invoiceNumber });
  expect(await b.notifications.claim(id)).toBe('handled');
  expect(await b.notifications.referenceOf?.(invoiceNumber)).toBe('PAY-doc');
  const attempt = attemptOf({ invoiceNumber, order: 'order-doc' });
  expect(await a.attempts.begin(attempt)).toEqual({ taken: true });
  expect(await b.attempts.begin(attemptOf({ invoiceNumber }))).toMatchObject({ taken: false, attempt: { attempt: attempt.attempt } });
  expect(await b.attempts.record(invoiceNumber, { status: 'approved', referenceId: 'PAY-doc' })).toMatchObject({ status: 'approved' });
  expect(await a.attempts.get(attempt.attempt)).toMatchObject({ status: 'approved', order: 'order-doc' });
}

describe('docs/stores.md', () => {
  it('stores/postgres.mjs: two processes on one PostgreSQL server share what they keep', async () => {
    process.env.DATABASE_URL = postgres.url;
    const [a, b] = [await load(readmeBlock('stores/postgres.mjs')), await load(readmeBlock('stores/postgres.mjs'))];
    try {
      await shared(a.store, b.store);
    } finally {
      await Promise.all([a.pool.end(), b.pool.end()]);
    }
  }, 30_000);

  it('stores/redis.mjs: two processes on one Redis share what they keep', async () => {
    process.env.REDIS_URL = redis.url;
    const [a, b] = [await load(readmeBlock('stores/redis.mjs')), await load(readmeBlock('stores/redis.mjs'))];
    try {
      await shared(a.store, b.store);
    } finally {
      a.redis.disconnect();
      b.redis.disconnect();
    }
  }, 30_000);

  it('stores/node-redis.mjs: node-redis shares what ioredis keeps', async () => {
    process.env.REDIS_URL = redis.url;
    const [a, b] = [await load(readmeBlock('stores/node-redis.mjs')), await load(readmeBlock('stores/redis.mjs'))];
    try {
      await shared(a.store, b.store);
    } finally {
      await a.redis.close();
      b.redis.disconnect();
    }
  }, 30_000);

  it('stores/pglite.mjs: what one process kept is there when the folder is opened again', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'payframe-pglite-doc-'));
    process.env.PGLITE_DIR = join(folder, 'shop-data');
    try {
      const first = await load(readmeBlock('stores/pglite.mjs'));
      const id = uid('WH');
      expect(await first.store.notifications.claim(id)).toBe('new');
      await first.store.notifications.finish(id, { referenceId: 'PAY-lite', invoiceNumber: undefined });
      await first.db.close();
      const again = await load(readmeBlock('stores/pglite.mjs'));
      expect(await again.store.notifications.claim(id)).toBe('handled');
      await again.db.close();
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
