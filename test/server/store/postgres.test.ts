// The store conformance suite on PostgreSQL 15 (a real server, started for this file), through node-postgres.
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { postgresStore } from '../../../src/server';
import { attemptCases, notificationCases, retentionCases } from './cases';
import { startPostgres, type Engine } from '../../setup/engines.mjs';
import { crossProcessCases, restartCases, useWorker } from './processes';

let engine: Engine;
const pools: pg.Pool[] = [];
beforeAll(async () => {
  engine = await startPostgres();
  console.info(`PostgreSQL 15: initdb and start in ${Math.round(engine.startedInMs)} ms`);
}, 30_000);
afterAll(async () => {
  await closeClients();
  await engine?.close();
});

async function closeClients() {
  await Promise.all(pools.splice(0).map((pool) => pool.end().catch(() => undefined)));
}
const open = async ({ lapseMs, keepMs }: { lapseMs: number; keepMs?: number }) => {
  const pool = new pg.Pool({ connectionString: engine.url, max: 4 });
  pool.on('error', () => undefined); // a connection the engine's crash broke: the next query opens another
  pools.push(pool);
  return postgresStore(pool, { lapseMs, keepMs });
};

describe('postgresStore on PostgreSQL 15 (node-postgres)', () => {
  notificationCases(open);
  attemptCases(open);
  retentionCases(open);
  const setup = { kind: 'postgres', engine: () => engine, worker: useWorker(), open, closeClients } as const;
  crossProcessCases(setup);
  restartCases(setup);
});
