// The store conformance suite on Redis 7 through node-redis (`sendCommand`), beside ioredis's
// (redis.test.ts, which also runs the cases across processes: the same scripts and keys).
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisStore } from '../../../src/server';
import { attemptCases, notificationCases, retentionCases } from './cases';
import { startRedis, type Engine } from '../../setup/engines.mjs';

let engine: Engine;
const clients: { close(): Promise<unknown> }[] = [];
beforeAll(async () => {
  engine = await startRedis();
}, 30_000);
afterAll(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
  await engine?.close();
});

const open = async ({ lapseMs, keepMs }: { lapseMs: number; keepMs?: number }) => {
  const client = await createClient({ url: engine.url }).connect();
  clients.push(client);
  return redisStore(client, { lapseMs, keepMs });
};

describe('redisStore on Redis 7 (node-redis)', () => {
  notificationCases(open);
  attemptCases(open);
  retentionCases(open);

  it('refuses a client that is neither ioredis nor node-redis, with a typed error', () => {
    expect(() => redisStore({} as never)).toThrow(expect.objectContaining({ code: 'invalid_config' }));
    expect(() => redisStore({ sendCommand: async () => 'OK' }, { lapseMs: -1 })).toThrow(
      expect.objectContaining({ code: 'invalid_config' }),
    );
  });
});
