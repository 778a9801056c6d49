// One merchant process for the cross-process store cases: opens a store on a real engine with its own
// client, then answers the commands it reads on stdin (one JSON line each) on stdout, one JSON line each.
// Bundled by test/server/store/processes.ts and run as a separate OS process.
import { createInterface } from 'node:readline';
import { postgresStore } from '../../../src/server/store/postgres';
import { redisStore } from '../../../src/server/store/redis';
import type { PayframeStore } from '../../../src/server/store/store';

const [kind, target, lapse] = process.argv.slice(2) as ['postgres' | 'redis', string, string];
const lapseMs = Number(lapse);

async function open(): Promise<PayframeStore> {
  if (kind === 'postgres') {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: target, max: 2 });
    pool.on('error', () => undefined);
    return postgresStore(pool, { lapseMs });
  }
  const { Redis } = await import('ioredis');
  const client = new Redis(target, { lazyConnect: false });
  client.on('error', () => undefined);
  return redisStore(client, { lapseMs });
}

type Command =
  | { op: 'claim'; id: string }
  | { op: 'finish'; id: string; referenceId: string; invoiceNumber: string }
  | { op: 'referenceOf'; invoiceNumber: string }
  | { op: 'begin'; attempt: Parameters<PayframeStore['attempts']['begin']>[0] };

const store = await open();
const answer = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`);
// A first round trip, so that "ready" means connected (and the tables made).
await store.attempts.get('warm-up');
answer({ ready: true });
for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line) as Command;
  try {
    if (command.op === 'claim') answer({ claim: await store.notifications.claim(command.id) });
    else if (command.op === 'finish') {
      await store.notifications.finish(command.id, { referenceId: command.referenceId, invoiceNumber: command.invoiceNumber });
      answer({ finished: true });
    } else if (command.op === 'referenceOf')
      answer({ referenceId: (await store.notifications.referenceOf?.(command.invoiceNumber)) ?? null });
    else answer({ taken: (await store.attempts.begin(command.attempt)).taken });
  } catch (error) {
    answer({ error: String(error) });
  }
}
process.exit(0);
