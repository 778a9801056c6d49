import { describe, expect, it } from 'vitest';
import { memoryNotificationStore, memoryStore } from '../../../src/server';
import { attemptCases, attemptOf, notificationCases } from './cases';

const open = async ({ lapseMs }: { lapseMs: number }) => memoryStore({ lapseMs });

// One process by design: the cases across processes and restarts do not apply to the memory store.
describe('memoryStore (one process only: no cross-process or restart cases)', () => {
  notificationCases(open);
  attemptCases(open);

  it('keeps a delivery of an id held here waiting, and wakes it when the holder hangs past lapseMs', async () => {
    const { notifications: store } = memoryStore({ lapseMs: 200 });
    expect(await store.claim('hung')).toBe('new');
    const started = Date.now();
    expect(await store.claim('hung')).toBe('new');
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('keeps the newest settled attempts within its limit, and never drops an unsettled one', async () => {
    const { attempts } = memoryStore({ limit: 2 });
    const open1 = attemptOf();
    await attempts.begin(open1);
    const settled = [attemptOf(), attemptOf(), attemptOf()];
    for (const a of settled) {
      await attempts.begin(a);
      await attempts.record(a.invoiceNumber, { status: 'declined' });
    }
    expect(await attempts.get(open1.attempt)).toMatchObject({ status: 'open' });
    expect(await attempts.get(settled[0]!.attempt)).toBeUndefined();
    expect(await attempts.get(settled[2]!.attempt)).toMatchObject({ status: 'declined' });
  });

  it('refuses a lapse or a limit it cannot work with', () => {
    expect(() => memoryStore({ lapseMs: 0 })).toThrow(expect.objectContaining({ code: 'invalid_config' }));
    expect(() => memoryStore({ limit: 1.5 })).toThrow(expect.objectContaining({ code: 'invalid_config' }));
  });

  it('keeps memoryNotificationStore (public API) working: a finished id is handled', async () => {
    const store = memoryNotificationStore();
    expect(await store.claim('x')).toBe('new');
    await store.finish('x', { referenceId: 'PAY-x', invoiceNumber: 'INV-x' });
    expect(await store.claim('x')).toBe('handled');
  });
});
