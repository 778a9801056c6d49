// The store cases across OS processes and restarts: merchant processes (worker.ts, bundled once per
// file) on one engine, one of them killed with SIGKILL; the engine itself killed and started again.
import { spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PayframeStore } from '../../../src/server';
import { attemptOf, uid } from './cases';
import type { Engine } from '../../setup/engines.mjs';

const ROOT = new URL('../../../', import.meta.url).pathname;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Merchant {
  ask(command: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** SIGKILL: the process dies with whatever it held. */
  kill(): Promise<void>;
}

/** The worker bundled to a file inside the repository (so that it finds `pg` and `ioredis`), for this test file. */
export function useWorker() {
  const file = join(ROOT, 'node_modules', '.cache', `payframe-store-worker-${process.pid}-${Math.random().toString(16).slice(2)}.mjs`);
  beforeAll(async () => {
    await mkdir(join(ROOT, 'node_modules', '.cache'), { recursive: true });
    await build({
      entryPoints: [join(ROOT, 'test/server/store/worker.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: ['pg', 'ioredis'],
      outfile: file,
      logLevel: 'silent',
    });
  });
  afterAll(() => rm(file, { force: true }));
  return file;
}

/** A merchant process on `target` (the engine's URL), ready when this resolves. */
export async function merchant(worker: string, kind: 'postgres' | 'redis', target: string, lapseMs: number): Promise<Merchant> {
  const child = spawn(process.execPath, [worker, kind, target, String(lapseMs)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error('the merchant process ended');
    return JSON.parse(value as string) as Record<string, unknown>;
  };
  expect(await next()).toEqual({ ready: true });
  let queue = Promise.resolve() as Promise<unknown>;
  return {
    ask: (command) => {
      const answer = queue.then(() => {
        child.stdin!.write(`${JSON.stringify(command)}\n`);
        return next();
      });
      queue = answer.catch(() => undefined);
      return answer;
    },
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

export interface CrossProcessSetup {
  kind: 'postgres' | 'redis';
  engine: () => Engine;
  worker: string;
  /** A store in this process with a client of its own; closes it with the engine's restart or the file's end. */
  open: (options: { lapseMs: number }) => Promise<PayframeStore>;
  /** Closes every client `open` made (before the engine is killed). */
  closeClients: () => Promise<void>;
}

export function crossProcessCases(s: CrossProcessSetup) {
  const PROCESSES = 6;
  const many = async (lapseMs: number) => {
    const url = s.engine().url;
    return Promise.all(Array.from({ length: PROCESSES }, () => merchant(s.worker, s.kind, url, lapseMs)));
  };
  const killAll = (ms: Merchant[]) => Promise.all(ms.map((m) => m.kill()));

  it(`gives one of ${PROCESSES} OS processes claiming one id at once new, the others busy`, async () => {
    const ms = await many(60_000);
    try {
      const id = uid('WH');
      const answers = await Promise.all(ms.map((m) => m.ask({ op: 'claim', id })));
      expect(answers.filter((a) => a.claim === 'new')).toHaveLength(1);
      expect(answers.filter((a) => a.claim === 'busy')).toHaveLength(PROCESSES - 1);
    } finally {
      await killAll(ms);
    }
  }, 30_000);

  it(`gives one of ${PROCESSES} OS processes beginning one invoice number, or one attempt id, taken`, async () => {
    const ms = await many(60_000);
    try {
      const invoiceNumber = uid('INV');
      const byInvoice = await Promise.all(ms.map((m) => m.ask({ op: 'begin', attempt: attemptOf({ invoiceNumber }) })));
      expect(byInvoice.filter((a) => a.taken === true)).toHaveLength(1);
      const attempt = uid('att');
      const byId = await Promise.all(ms.map((m) => m.ask({ op: 'begin', attempt: attemptOf({ attempt }) })));
      expect(byId.filter((a) => a.taken === true)).toHaveLength(1);
    } finally {
      await killAll(ms);
    }
  }, 30_000);

  it('answers handled in one process after another finished the id, and leads its invoice number to the payment', async () => {
    const [a, b] = await Promise.all([0, 1].map(() => merchant(s.worker, s.kind, s.engine().url, 60_000)));
    try {
      const id = uid('WH');
      const invoiceNumber = uid('INV');
      expect(await a!.ask({ op: 'claim', id })).toEqual({ claim: 'new' });
      expect(await b!.ask({ op: 'claim', id })).toEqual({ claim: 'busy' });
      expect(await a!.ask({ op: 'finish', id, referenceId: 'PAY-x1', invoiceNumber })).toEqual({ finished: true });
      expect(await b!.ask({ op: 'claim', id })).toEqual({ claim: 'handled' });
      expect(await b!.ask({ op: 'referenceOf', invoiceNumber })).toEqual({ referenceId: 'PAY-x1' });
    } finally {
      await Promise.all([a!.kill(), b!.kill()]);
    }
  }, 30_000);

  it('lets the claim of a holder killed with SIGKILL lapse: busy until lapseMs, then new for another process', async () => {
    const lapseMs = 1_500;
    const [holder, other] = await Promise.all([0, 1].map(() => merchant(s.worker, s.kind, s.engine().url, lapseMs)));
    try {
      const id = uid('WH');
      const claimedAt = Date.now();
      expect(await holder!.ask({ op: 'claim', id })).toEqual({ claim: 'new' });
      await holder!.kill();
      expect(await other!.ask({ op: 'claim', id })).toEqual({ claim: 'busy' });
      let answer = await other!.ask({ op: 'claim', id });
      while (answer.claim === 'busy' && Date.now() - claimedAt < lapseMs + 3_000) {
        await sleep(100);
        answer = await other!.ask({ op: 'claim', id });
      }
      expect(answer).toEqual({ claim: 'new' });
      expect(Date.now() - claimedAt).toBeGreaterThanOrEqual(lapseMs - 100);
    } finally {
      await Promise.all([holder!.kill(), other!.kill()]);
    }
  }, 30_000);
}

/** What a restart keeps: of this process's client, then of the engine, killed as a crash would. */
export function restartCases(s: CrossProcessSetup) {
  it('keeps handled ids and attempts across a restart of the client and a crash of the engine', async () => {
    const id = uid('WH');
    const invoiceNumber = uid('INV');
    const attempt = attemptOf({ invoiceNumber, order: 'order-restart' });
    const before = await s.open({ lapseMs: 60_000 });
    expect(await before.notifications.claim(id)).toBe('new');
    await before.notifications.finish(id, { referenceId: 'PAY-r1', invoiceNumber });
    await before.attempts.begin(attempt);
    await before.attempts.record(invoiceNumber, { status: 'approved', referenceId: 'PAY-r1' });
    await s.closeClients();

    const client = await s.open({ lapseMs: 60_000 });
    expect(await client.notifications.claim(id)).toBe('handled');
    await s.closeClients();

    await s.engine().kill();
    await s.engine().start();
    const after = await s.open({ lapseMs: 60_000 });
    expect(await after.notifications.claim(id)).toBe('handled');
    expect(await after.notifications.referenceOf?.(invoiceNumber)).toBe('PAY-r1');
    expect(await after.attempts.get(attempt.attempt)).toMatchObject({ status: 'approved', referenceId: 'PAY-r1', order: 'order-restart' });
  }, 30_000);
}
