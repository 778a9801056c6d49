// The number frame's values for a tokenize: with each `tokenize` the page asks every other frame to
// `share` its value for that job, and those values can reach the number frame before the page's own
// message does. What it keeps, for which job, for how long; then the same over a real BroadcastChannel
// (Node's), between a number frame and its siblings.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANSWER_MS, jobValues, KEEP } from '../../src/frame/job-values';
import { siblings } from '../../src/frame/siblings';
import type { FieldName } from '../../src/protocol/names';

const never = () => new AbortController().signal;

/** How job `id` ends after the wait for missing values has run out: its values, or its error's code and fields. */
async function outcome(p: Promise<unknown>) {
  const settled = p.then((values) => ({ values }), (error) => ({ error: { code: error.code, fields: error.fields, message: error.message } }));
  await vi.advanceTimersByTimeAsync(ANSWER_MS);
  return settled;
}

describe('the number frame’s values by job', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('keeps the values shared before the page’s tokenize arrives, and uses them for that job at once', async () => {
    const values = jobValues();
    values.put(1, 'expiry', '12 / 34');
    values.put(1, 'cvv', '123');
    // Settled without any time passing: nothing was waited for.
    let got: unknown;
    void values.take(1, ['expiry', 'cvv'], never()).then((v) => (got = v));
    await vi.advanceTimersByTimeAsync(0);
    expect(got).toEqual({ expiry: '12 / 34', cvv: '123' });
  });

  it('takes some values kept and waits for the rest', async () => {
    const values = jobValues();
    values.put(3, 'expiry', '12 / 34');
    const job = values.take(3, ['expiry', 'cvv', 'name'], never());
    values.put(3, 'cvv', '123');
    values.put(3, 'name', 'Ada Lovelace');
    await expect(job).resolves.toEqual({ expiry: '12 / 34', cvv: '123', name: 'Ada Lovelace' });
  });

  it('of two values a field shared for a job not begun, keeps the later (the newer read)', async () => {
    const values = jobValues();
    values.put(1, 'cvv', '12');
    values.put(1, 'cvv', '123');
    await expect(values.take(1, ['cvv'], never())).resolves.toEqual({ cvv: '123' });
  });

  it('uses no value shared for another job', async () => {
    const values = jobValues();
    values.put(2, 'cvv', '999');
    const job = values.take(1, ['cvv'], never());
    values.put(4, 'cvv', '998');
    values.put(1, 'cvv', '123');
    await expect(job).resolves.toEqual({ cvv: '123' });
  });

  it('says timeout naming the fields that did not answer, and no value in its message', async () => {
    const values = jobValues();
    values.put(1, 'expiry', '12 / 34');
    const ended = await outcome(values.take(1, ['expiry', 'cvv', 'name'], never()));
    expect(ended).toEqual({ error: { code: 'timeout', fields: ['cvv', 'name'], message: 'the cvv, name field did not answer' } });
  });

  it('forgets a job once it ended: a value that comes late is not kept for it', async () => {
    const values = jobValues();
    await expect(outcome(values.take(1, ['cvv'], never()))).resolves.toMatchObject({ error: { code: 'timeout' } });
    values.put(1, 'cvv', '12'); // the late answer
    // The same id again (a page that reuses one): the late value is not there, the job waits anew.
    expect(await outcome(values.take(1, ['cvv'], never()))).toMatchObject({ error: { code: 'timeout', fields: ['cvv'] } });
    const done = values.take(2, ['cvv'], never());
    values.put(2, 'cvv', '123');
    await expect(done).resolves.toEqual({ cvv: '123' });
    values.put(2, 'cvv', '999');
    expect(await outcome(values.take(2, ['cvv'], never()))).toMatchObject({ error: { code: 'timeout' } });
  });

  it('forgets what it kept for older jobs when a newer one begins, and keeps nothing for them after', async () => {
    const values = jobValues();
    values.put(1, 'cvv', '111');
    values.put(2, 'cvv', '222');
    await expect(values.take(2, ['cvv'], never())).resolves.toEqual({ cvv: '222' });
    values.put(1, 'cvv', '111');
    expect(await outcome(values.take(1, ['cvv'], never()))).toMatchObject({ error: { code: 'timeout' } });
  });

  it(`keeps the values of ${KEEP} jobs not begun at most, the latest`, async () => {
    const values = jobValues();
    for (let id = 1; id <= 20; id++) values.put(id, 'cvv', `${100 + id}`);
    const ended = [];
    for (let id = 1; id <= 20; id++) ended.push(await outcome(values.take(id, ['cvv'], never())));
    expect(ended.map((e) => ('values' in e ? e.values : e.error.code))).toEqual([
      ...Array(20 - KEEP).fill('timeout'),
      ...Array.from({ length: KEEP }, (_, i) => ({ cvv: `${100 + 20 - KEEP + 1 + i}` })),
    ]);
  });

  it('stops waiting when the job is cancelled, and keeps nothing for it after', async () => {
    const values = jobValues();
    const stop = new AbortController();
    const job = values.take(1, ['cvv'], stop.signal);
    stop.abort(new Error('cancelled by the page'));
    await expect(job).rejects.toThrow('cancelled by the page');
    values.put(1, 'cvv', '123');
    expect(await outcome(values.take(1, ['cvv'], never()))).toMatchObject({ error: { code: 'timeout' } });
    const already = new AbortController();
    already.abort(new Error('gone'));
    await expect(values.take(2, ['cvv'], already.signal)).rejects.toThrow('gone');
  });

  it('a page that asks twice with one id: the first job stopping leaves the second waiting', async () => {
    const values = jobValues();
    const stop = new AbortController();
    const first = values.take(1, ['cvv'], stop.signal);
    const second = values.take(1, ['cvv'], never());
    stop.abort(new Error('cancelled by the page'));
    await expect(first).rejects.toThrow('cancelled by the page');
    values.put(1, 'cvv', '123');
    await expect(second).resolves.toEqual({ cvv: '123' });
  });

  it('forgets the values it kept for a job once that job took them', async () => {
    const values = jobValues();
    values.put(1, 'cvv', '123');
    await expect(values.take(1, ['cvv'], never())).resolves.toEqual({ cvv: '123' });
    // The same id again (a page that reuses one): what the first job took is gone, the job waits anew.
    expect(await outcome(values.take(1, ['cvv'], never()))).toMatchObject({ error: { code: 'timeout', fields: ['cvv'] } });
  });

  it('answers at once when there is nothing to wait for', async () => {
    await expect(jobValues().take(1, [], never())).resolves.toEqual({});
  });
});

describe('siblings on the frames’ BroadcastChannel', () => {
  const opened: BroadcastChannel[] = [];
  beforeEach(() => {
    // Node's BroadcastChannel reaches the other instances of this process; closed after each test.
    vi.stubGlobal('BroadcastChannel', class extends BroadcastChannel {
      constructor(name: string) {
        super(name);
        opened.push(this);
      }
    });
  });
  afterEach(() => {
    opened.splice(0).forEach((bc) => bc.close());
    vi.unstubAllGlobals();
  });

  const frame = (ch: string, field: FieldName, value = () => '') => siblings(ch, field, { value, sizes: () => undefined });
  /** Everything said on a channel, as a document of the frame origin that joined it would hear it. */
  const listen = (ch: string) => {
    const heard: unknown[] = [];
    new BroadcastChannel(`payframe:${ch}`).onmessage = (e) => heard.push(e.data);
    return heard;
  };

  it('a sibling shares its value as it is when the page asks, on its own channel, for that job; the number frame takes it', async () => {
    const ch = 'a'.repeat(32);
    const number = frame(ch, 'number');
    let cvv = '12';
    const sibling = frame(ch, 'cvv', () => cvv);
    const expiry = frame(ch, 'expiry', () => '12 / 34');
    const heard = listen(ch);
    const elsewhere = listen('b'.repeat(32));

    const job = number.values(5, ['expiry', 'cvv'], never());
    cvv = '123'; // the last key, before the page's share reaches the frame
    sibling.share(5);
    expiry.share(5);
    await expect(job).resolves.toEqual({ expiry: '12 / 34', cvv: '123' });
    await vi.waitFor(() => expect(heard).toHaveLength(2));
    expect(heard).toEqual([{ ch, t: 'value', id: 5, field: 'cvv', value: '123' }, { ch, t: 'value', id: 5, field: 'expiry', value: '12 / 34' }]);
    expect(elsewhere).toEqual([]);
  });

  it('the number frame shares nothing, whoever asks: its value goes to the gateway alone', async () => {
    const ch = 'a'.repeat(32);
    const heard = listen(ch);
    frame(ch, 'number', () => '4111111111111111').share(1);
    frame(ch, 'cvv', () => '123').share(1);
    await vi.waitFor(() => expect(heard).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard).toEqual([{ ch, t: 'value', id: 1, field: 'cvv', value: '123' }]);
  });

  it('values shared before the number frame’s job begins are used for it; another mount’s are not', async () => {
    const [ch, other] = ['a'.repeat(32), 'b'.repeat(32)];
    const number = frame(ch, 'number');
    const heard = listen(ch);
    frame(other, 'cvv', () => '999').share(1);
    frame(ch, 'cvv', () => '123').share(1);
    // The value is on the channel before the job begins (a document that joined after the number frame heard it).
    await vi.waitFor(() => expect(heard).toHaveLength(1));
    await expect(number.values(1, ['cvv'], never())).resolves.toEqual({ cvv: '123' });
  });
});
