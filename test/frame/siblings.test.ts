// The number frame's values for a tokenize: when the page's `tokenize` comes, the number frame asks
// the other frames for their values on the frames' channel, and takes only those that come for that
// job from then on (security review "Going live without a trap", finding 3: a value the page had a frame
// send before the job began was kept and used, so the nonce carried the expiry as it was then). What
// it takes, for which job, for how long; then the same over a real BroadcastChannel (Node's).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANSWER_MS, jobValues } from '../../src/frame/job-values';
import { siblings } from '../../src/frame/siblings';
import type { FieldName } from '../../src/protocol/names';

const never = () => new AbortController().signal;

/** How job `id` ends after the wait for missing values has run out: its values, or its error's code and fields. */
async function outcome(p: Promise<unknown>) {
  const settled = p.then(
    (values) => ({ values }),
    (error) => ({ error: { code: error.code, fields: error.fields, message: error.message } }),
  );
  await vi.advanceTimersByTimeAsync(ANSWER_MS);
  return settled;
}

describe('the number frame’s values by job', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('keeps no value sent before its job began: the job takes only what comes for it after', async () => {
    const values = jobValues();
    values.put(1, 'expiry', '01 / 30'); // sent ahead of the job (a page script's doing)
    const job = values.take(1, ['expiry', 'cvv'], never());
    values.put(1, 'expiry', '12 / 34');
    values.put(1, 'cvv', '123');
    await expect(job).resolves.toEqual({ expiry: '12 / 34', cvv: '123' });
  });

  it('uses no value sent for another job', async () => {
    const values = jobValues();
    values.put(2, 'cvv', '999');
    const job = values.take(1, ['cvv'], never());
    values.put(4, 'cvv', '998');
    values.put(1, 'cvv', '123');
    await expect(job).resolves.toEqual({ cvv: '123' });
  });

  it('says timeout naming the fields that did not answer, and no value in its message', async () => {
    const values = jobValues();
    const job = values.take(1, ['expiry', 'cvv', 'name'], never());
    values.put(1, 'expiry', '12 / 34');
    expect(await outcome(job)).toEqual({
      error: { code: 'timeout', fields: ['cvv', 'name'], message: 'the cvv, name field did not answer' },
    });
  });

  it('forgets a job once it ended: a value that comes late is not kept for it', async () => {
    const values = jobValues();
    await expect(outcome(values.take(1, ['cvv'], never()))).resolves.toMatchObject({ error: { code: 'timeout' } });
    values.put(1, 'cvv', '12'); // the late answer
    // The same id again (a page that reuses one): the late value is not there, the job waits anew.
    expect(await outcome(values.take(1, ['cvv'], never()))).toMatchObject({ error: { code: 'timeout', fields: ['cvv'] } });
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

  it('answers at once when there is nothing to wait for', async () => {
    await expect(jobValues().take(1, [], never())).resolves.toEqual({});
  });
});

describe('siblings on the frames’ BroadcastChannel', () => {
  const opened: BroadcastChannel[] = [];
  beforeEach(() => {
    // Node's BroadcastChannel reaches the other instances of this process; closed after each test.
    vi.stubGlobal(
      'BroadcastChannel',
      class extends BroadcastChannel {
        constructor(name: string) {
          super(name);
          opened.push(this);
        }
      },
    );
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

  it('the number frame asks when its job begins; each sibling its page shared for answers with its value as it is then, on its own channel', async () => {
    const ch = 'a'.repeat(32);
    const number = frame(ch, 'number');
    let cvv = '12';
    const sibling = frame(ch, 'cvv', () => cvv);
    const expiry = frame(ch, 'expiry', () => '12 / 34');
    const heard = listen(ch);
    const elsewhere = listen('b'.repeat(32));
    // The page's share reaches one sibling before the number frame's ask, the other after it.
    sibling.share(5);
    const job = number.values(5, ['expiry', 'cvv'], never());
    cvv = '123'; // the last key, before the ask reaches the frame
    await vi.waitFor(() => expect(heard).toHaveLength(2)); // the ask, the cvv
    expiry.share(5);
    await expect(job).resolves.toEqual({ expiry: '12 / 34', cvv: '123' });
    await vi.waitFor(() => expect(heard).toHaveLength(3));
    expect(heard).toEqual([
      { ch, t: 'ask', id: 5 },
      { ch, t: 'value', id: 5, field: 'cvv', value: '123' },
      { ch, t: 'value', id: 5, field: 'expiry', value: '12 / 34' },
    ]);
    expect(elsewhere).toEqual([]);
  });

  it('a sibling answers no ask for a job its page did not share for (a number frame elsewhere with the channel id), and the number frame none at all', async () => {
    const ch = 'a'.repeat(32);
    frame(ch, 'number', () => '4111111111111111').share(1);
    frame(ch, 'cvv', () => '123').share(1);
    frame(ch, 'expiry', () => '12 / 34');
    const heard = listen(ch);
    new BroadcastChannel(`payframe:${ch}`).postMessage({ ch, t: 'ask', id: 1 });
    await vi.waitFor(() => expect(heard).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard).toEqual([
      { ch, t: 'ask', id: 1 },
      { ch, t: 'value', id: 1, field: 'cvv', value: '123' },
    ]);
  });

  it('a share the page sent ahead of the job gives nothing until the job asks, and then the value of that moment', async () => {
    const ch = 'a'.repeat(32);
    const number = frame(ch, 'number');
    let expiry = '01 / 30';
    const sibling = frame(ch, 'expiry', () => expiry);
    const heard = listen(ch);
    for (const id of [1, 2, 3]) sibling.share(id); // a script of the page, ahead of the jobs
    // Even a value someone on the channel draws out for job 1 before it begins is not the job's.
    new BroadcastChannel(`payframe:${ch}`).postMessage({ ch, t: 'ask', id: 1 });
    await vi.waitFor(() => expect(heard).toHaveLength(2));
    expiry = '12 / 34'; // the payer corrects it
    sibling.share(1); // the page's own share, with its tokenize
    await expect(number.values(1, ['expiry'], never())).resolves.toEqual({ expiry: '12 / 34' });
  });
});
