// The conformance cases every store meets within one process (test/server/store/*.test.ts run them on
// each store; the cases across processes and restarts are in cross-process.ts).
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Attempt, NotificationClaim, PayframeStore } from '../../../src/server';

/** Opens the store under test, with this lapse; each case gets fresh ids, so one store may serve them all. */
export type OpenStore = (options: { lapseMs: number; keepMs?: number }) => Promise<PayframeStore>;

export const uid = (what: string) => `${what}-${randomUUID()}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An attempt as the pay route begins it. */
export const attemptOf = (over: Partial<Attempt> = {}): Omit<Attempt, 'updatedAt'> => ({
  attempt: uid('att'),
  invoiceNumber: uid('INV'),
  status: 'open',
  createdAt: Date.now(),
  ...over,
});

export function notificationCases(open: OpenStore) {
  it('claims an id once: new, then busy or a wait while held, handled after finish; its invoice number leads to the payment', async () => {
    const { notifications: store } = await open({ lapseMs: 60_000 });
    const id = uid('WH');
    const answers: NotificationClaim[] = [];
    const claims = Array.from({ length: 8 }, () => Promise.resolve(store.claim(id)).then((a) => (answers.push(a), a)));
    // Before any finish: one of them has it (the others are busy, or wait for it in the memory store).
    for (const started = Date.now(); !answers.includes('new') && Date.now() - started < 10_000;) await sleep(20);
    await sleep(50);
    expect(answers.filter((a) => a === 'new')).toHaveLength(1);
    const invoiceNumber = uid('INV');
    await store.finish(id, { referenceId: 'PAY-1', invoiceNumber });
    const all = await Promise.all(claims);
    expect(all.filter((a) => a === 'new')).toHaveLength(1);
    expect(all.every((a) => a === 'new' || a === 'busy' || a === 'handled')).toBe(true);
    expect(await store.claim(id)).toBe('handled');
    expect(await store.referenceOf?.(invoiceNumber)).toBe('PAY-1');
    expect(await store.referenceOf?.(uid('INV'))).toBeUndefined();
  });

  it('gives a released claim to the next delivery', async () => {
    const { notifications: store } = await open({ lapseMs: 60_000 });
    const id = uid('WH');
    expect(await store.claim(id)).toBe('new');
    await store.release(id);
    expect(await store.claim(id)).toBe('new');
    await store.finish(id, { referenceId: 'PAY-2', invoiceNumber: undefined });
    expect(await store.claim(id)).toBe('handled');
  });

  it('lets a claim whose holder never finishes lapse: the next delivery after lapseMs takes it', async () => {
    const { notifications: store } = await open({ lapseMs: 300 });
    const id = uid('WH');
    const asked = Date.now();
    expect(await store.claim(id)).toBe('new');
    const claimed = Date.now(); // the claim was taken between `asked` and now
    for (;;) {
      const sent = Date.now();
      const again = await store.claim(id);
      if (again === 'new') break;
      expect(again).toBe('busy');
      expect(sent).toBeLessThan(claimed + 300);
      await sleep(50);
    }
    expect(Date.now() - asked).toBeGreaterThanOrEqual(300);
  });

  it("keeps a successor's claim when a holder whose claim lapsed releases it (compare and release)", async () => {
    // b's claim must outlive the next two calls on a loaded machine, so the lapse is a second.
    const { notifications: store } = await open({ lapseMs: 1_000 });
    const id = uid('WH');
    expect(await store.claim(id, 'holder-a')).toBe('new');
    await sleep(1_100); // a's claim lapsed: a's onPayment is still running somewhere
    expect(await store.claim(id, 'holder-b')).toBe('new');
    await store.release(id, 'holder-a'); // a fails at last: b's claim must stay held
    const third = Promise.resolve(store.claim(id, 'holder-c'));
    await store.finish(id, { referenceId: 'PAY-b', invoiceNumber: undefined });
    // Busy on the engines; the memory store waits for b, which finished: never `new` while b held it.
    expect(['busy', 'handled']).toContain(await third);
    expect(await store.claim(id, 'holder-d')).toBe('handled');
  });

  it('gives a claim back when its own holder releases it', async () => {
    const { notifications: store } = await open({ lapseMs: 60_000 });
    const id = uid('WH');
    expect(await store.claim(id, 'holder-a')).toBe('new');
    await store.release(id, 'holder-other');
    await store.release(id); // no holder named: not this claim either
    const meanwhile = Promise.resolve(store.claim(id, 'holder-b'));
    const early = await Promise.race([meanwhile, sleep(100).then(() => 'waiting')]);
    expect(['busy', 'waiting']).toContain(early);
    await store.release(id, 'holder-a');
    if (early === 'waiting')
      expect(await meanwhile).toBe('new'); // the memory store's waiter takes it
    else expect(await store.claim(id, 'holder-b')).toBe('new');
  });

  it('points an invoice number at the newest payment a handled notification carried for it', async () => {
    const { notifications: store } = await open({ lapseMs: 60_000 });
    const invoiceNumber = uid('INV');
    for (const ref of ['PAY-old', 'PAY-new']) {
      const id = uid('WH');
      expect(await store.claim(id)).toBe('new');
      await store.finish(id, { referenceId: ref, invoiceNumber });
    }
    expect(await store.referenceOf?.(invoiceNumber)).toBe('PAY-new');
  });
}

export function attemptCases(open: OpenStore) {
  it('begins an attempt once by its id and once by its invoice number, and keeps it whole', async () => {
    const { attempts } = await open({ lapseMs: 60_000 });
    const first = attemptOf({ owner: 'session-1', order: 'order-9', outcome: { note: 'a', nested: { n: 1 } } });
    expect(await attempts.begin(first)).toEqual({ taken: true });
    const kept = { ...first, updatedAt: first.createdAt };
    expect(await attempts.get(first.attempt)).toEqual(kept);
    expect(await attempts.byInvoice(first.invoiceNumber)).toEqual(kept);
    expect(await attempts.begin(attemptOf({ attempt: first.attempt }))).toEqual({ taken: false, attempt: kept });
    expect(await attempts.begin(attemptOf({ invoiceNumber: first.invoiceNumber }))).toEqual({ taken: false, attempt: kept });
    expect(await attempts.get(uid('att'))).toBeUndefined();
    expect(await attempts.byInvoice(uid('INV'))).toBeUndefined();
  });

  it('gives one of many begins at once for one invoice number taken: true', async () => {
    const { attempts } = await open({ lapseMs: 60_000 });
    const invoiceNumber = uid('INV');
    const answers = await Promise.all(Array.from({ length: 10 }, () => attempts.begin(attemptOf({ invoiceNumber }))));
    expect(answers.filter((a) => a.taken)).toHaveLength(1);
    const kept = await attempts.byInvoice(invoiceNumber);
    for (const a of answers) if (!a.taken) expect(a.attempt).toEqual(kept);
  });

  it('records what became of an attempt, and never moves a final status back', async () => {
    const { attempts } = await open({ lapseMs: 60_000 });
    const a = attemptOf();
    await attempts.begin(a);
    const status = async (change: Parameters<typeof attempts.record>[1]) => (await attempts.record(a.invoiceNumber, change))?.status;
    expect(await status({ status: 'pending', referenceId: 'PAY-3', outcome: { otp: true } })).toBe('pending');
    expect(await status({ status: 'open' })).toBe('pending');
    expect(await status({ status: 'void' })).toBe('pending'); // a pending attempt's request did leave
    expect(await status({ status: 'declined', outcome: { code: 'declined' } })).toBe('declined');
    expect(await status({ status: 'pending' })).toBe('declined');
    expect(await status({ status: 'approved', outcome: { code: 'approved' } })).toBe('approved');
    for (const back of ['open', 'pending', 'declined', 'void'] as const) expect(await status({ status: back })).toBe('approved');
    const kept = await attempts.get(a.attempt);
    expect(kept).toMatchObject({ status: 'approved', referenceId: 'PAY-3', outcome: { code: 'approved' } });
    expect(kept!.updatedAt).toBeGreaterThanOrEqual(a.createdAt);
    expect(await attempts.record(uid('INV'), { status: 'approved' })).toBeUndefined();
  });

  it('lets a voided attempt turn approved (a late request that charged) but not pending', async () => {
    const { attempts } = await open({ lapseMs: 60_000 });
    const a = attemptOf();
    await attempts.begin(a);
    expect((await attempts.record(a.invoiceNumber, { status: 'void' }))?.status).toBe('void');
    expect((await attempts.record(a.invoiceNumber, { status: 'pending' }))?.status).toBe('void');
    expect((await attempts.record(a.invoiceNumber, { status: 'approved', referenceId: 'PAY-4' }))?.referenceId).toBe('PAY-4');
  });

  it('lists the open and pending attempts made before a time, oldest first, at most the limit', async () => {
    const { attempts } = await open({ lapseMs: 60_000 });
    // Far in the past, so that other cases' attempts (made now) fall after `before`.
    const base = 1_000_000 + Math.floor(Math.random() * 1_000_000) * 1_000;
    const made = await Promise.all(
      (['open', 'pending', 'approved', 'open', 'void', 'open'] as const).map(async (status, i) => {
        const a = attemptOf({ createdAt: base + (5 - i) * 10 });
        await attempts.begin(a);
        if (status !== 'open') await attempts.record(a.invoiceNumber, { status: status === 'pending' ? 'pending' : status });
        return a;
      }),
    );
    const before = base + 45; // leaves out the first (made at base + 50)
    const listed = (await attempts.unsettled(before, 100)).filter((a) => a.createdAt >= base && a.createdAt < base + 60);
    expect(listed.map((a) => a.attempt)).toEqual([made[5]!, made[3]!, made[1]!].map((a) => a.attempt));
    const two = await attempts.unsettled(before, 2);
    expect(two).toHaveLength(2);
    expect(two[0]!.createdAt).toBeLessThanOrEqual(two[1]!.createdAt);
    expect(two.every((a) => a.createdAt < before && (a.status === 'open' || a.status === 'pending'))).toBe(true);
  });

  it('refuses an attempt without its ids, or with a status it does not know, with a typed error', async () => {
    const { attempts } = await open({ lapseMs: 60_000 });
    await expect(attempts.begin(attemptOf({ invoiceNumber: '' }))).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(attempts.begin(attemptOf({ status: 'paid' as never }))).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(attempts.record(uid('INV'), { status: 'refunded' as never })).rejects.toMatchObject({ code: 'invalid_request' });
  });
}

/** The stores on an engine: what they keep goes `keepMs` after its last change, but an unsettled attempt stays. */
export function retentionCases(open: OpenStore) {
  it('forgets a handled id and a settled attempt keepMs after their last change, and keeps an open attempt', async () => {
    // keepMs leaves a loaded machine room for the reads before it runs out; the wait is timed from the last write.
    const keepMs = 1_000;
    const store = await open({ lapseMs: 60_000, keepMs });
    const id = uid('WH');
    const [settled, unsettled, later] = [attemptOf(), attemptOf(), attemptOf()];
    expect(await store.notifications.claim(id)).toBe('new');
    const firstChange = Date.now(); // the handled id is written after this
    await store.notifications.finish(id, { referenceId: 'PAY-k', invoiceNumber: undefined });
    for (const a of [settled, unsettled, later]) await store.attempts.begin(a);
    await store.attempts.record(settled.invoiceNumber, { status: 'declined' });
    const lastChange = Date.now();
    // Halfway, both are kept: read then, and told only when the reads ended within keepMs of the first write
    // (a machine slower than that tells nothing here, rather than something false).
    await sleep(lastChange + keepMs / 2 - Date.now());
    const halfway = [await store.notifications.claim(id), (await store.attempts.get(settled.attempt))?.status];
    if (Date.now() - firstChange < keepMs) expect(halfway).toEqual(['handled', 'declined']);
    await sleep(lastChange + keepMs + 150 - Date.now());
    // Later writes: the PostgreSQL store deletes what is past keepMs when it writes (Redis's keys expire).
    const other = uid('WH');
    await store.notifications.claim(other);
    await store.notifications.finish(other, { referenceId: 'PAY-k2', invoiceNumber: undefined });
    await store.attempts.record(later.invoiceNumber, { status: 'approved' });
    expect(await store.notifications.claim(id)).toBe('new');
    expect(await store.attempts.get(settled.attempt)).toBeUndefined();
    expect(await store.attempts.get(unsettled.attempt)).toMatchObject({ status: 'open' });
  });
}
