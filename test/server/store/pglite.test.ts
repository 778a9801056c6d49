// The store conformance suite on PGlite (PostgreSQL as WebAssembly, a folder on disk). PGlite serves
// one process per folder, so the cases across OS processes do not apply; a restart (the folder closed
// and opened again, as a killed shop's next start does) does.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStore } from '../../../src/server';
import { emptyPglite } from '../../setup/pglite';
import { attemptCases, attemptOf, notificationCases, retentionCases, uid } from './cases';

let folder: string;
let db: PGlite;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'payframe-pglite-'));
  const started = performance.now();
  // An empty database copied (test/setup/pglite.ts), not made: the cases need one, not its making.
  db = await PGlite.create(emptyPglite(join(folder, 'db')));
  console.info(`PGlite: an empty database copied and opened in ${Math.round(performance.now() - started)} ms`);
}, 60_000);
afterAll(async () => {
  await db?.close();
  await rm(folder, { recursive: true, force: true });
});

const open = async ({ lapseMs, keepMs }: { lapseMs: number; keepMs?: number }) => postgresStore(db, { lapseMs, keepMs });

describe('postgresStore on PGlite (one process per folder: no cross-process cases)', () => {
  notificationCases(open);
  attemptCases(open);
  retentionCases(open);

  it('keeps handled ids and attempts when the folder is closed and opened again', async () => {
    const id = uid('WH');
    const invoiceNumber = uid('INV');
    const attempt = attemptOf({ invoiceNumber, owner: 'session-r' });
    const before = await open({ lapseMs: 60_000 });
    expect(await before.notifications.claim(id)).toBe('new');
    await before.notifications.finish(id, { referenceId: 'PAY-g1', invoiceNumber });
    await before.attempts.begin(attempt);
    await before.attempts.record(invoiceNumber, { status: 'pending', referenceId: 'PAY-g1', outcome: { otp: 'https://x.example/otp' } });
    await db.close();
    const started = performance.now();
    db = await PGlite.create(join(folder, 'db'));
    console.info(`PGlite: the folder opened again in ${Math.round(performance.now() - started)} ms`);
    const after = await open({ lapseMs: 60_000 });
    expect(await after.notifications.claim(id)).toBe('handled');
    expect(await after.notifications.referenceOf?.(invoiceNumber)).toBe('PAY-g1');
    expect(await after.attempts.get(attempt.attempt)).toMatchObject({
      status: 'pending',
      owner: 'session-r',
      outcome: { otp: 'https://x.example/otp' },
    });
    expect((await after.attempts.unsettled(Date.now() + 1, 1000)).map((a) => a.attempt)).toContain(attempt.attempt);
  }, 60_000);
});
