// The shop's database and payframe's records in it: PGlite (PostgreSQL compiled to WebAssembly) in a
// folder on disk, no server to install or run (one process at a time opens a folder: the launcher locks
// it); or, with DATABASE_URL=postgres://..., the same tables on a PostgreSQL server through node-postgres;
// and with REDIS_URL=redis://..., the notification ids on Redis through ioredis.
import { postgresStore, redisStore } from 'payframe/server';

/** @typedef {{ query(text: string, values?: unknown[]): Promise<{ rows: any[] }>, close(): Promise<void> }} Database */

/**
 * Opens (or, the first time, creates) the shop's database: the server `databaseUrl` names, else the folder.
 * @param {{ folder: string, databaseUrl?: string }} where @returns {Promise<Database>}
 */
export async function openDatabase({ folder, databaseUrl }) {
  if (databaseUrl) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    return { query: (text, values) => pool.query(text, values), close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(folder);
  return { query: (text, values) => db.query(text, values), close: () => db.close() };
}

/**
 * payframe's records (the notification ids, the attempts) in the shop's database, the ids on Redis when
 * `redisUrl` is given; and how to close what was opened for them.
 * @param {Database} db @param {string | undefined} redisUrl
 */
export async function payframeStore(db, redisUrl) {
  const store = postgresStore(db);
  if (!redisUrl) return { store, close: async () => {} };
  const { default: Redis } = await import('ioredis');
  const redis = new Redis(redisUrl);
  return { store: { ...store, notifications: redisStore(redis).notifications }, close: async () => void redis.disconnect() };
}
