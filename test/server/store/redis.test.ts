// The store conformance suite on Redis 7 (a real server, started for this file), through ioredis.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe } from 'vitest';
import { redisStore } from '../../../src/server';
import { attemptCases, notificationCases, retentionCases } from './cases';
import { startRedis, type Engine } from '../../setup/engines.mjs';
import { crossProcessCases, restartCases, useWorker } from './processes';

let engine: Engine;
const clients: Redis[] = [];
beforeAll(async () => {
  engine = await startRedis();
  console.info(`Redis 7: started in ${Math.round(engine.startedInMs)} ms`);
}, 30_000);
afterAll(async () => {
  await closeClients();
  await engine?.close();
});

async function closeClients() {
  for (const client of clients.splice(0)) client.disconnect();
}
const open = async ({ lapseMs, keepMs }: { lapseMs: number; keepMs?: number }) => {
  const client = new Redis(engine.url);
  client.on('error', () => undefined); // the engine's crash: ioredis connects again by itself
  clients.push(client);
  return redisStore(client, { lapseMs, keepMs });
};

describe('redisStore on Redis 7 (ioredis)', () => {
  notificationCases(open);
  attemptCases(open);
  retentionCases(open);
  const setup = { kind: 'redis', engine: () => engine, worker: useWorker(), open, closeClients } as const;
  crossProcessCases(setup);
  restartCases(setup);
});
