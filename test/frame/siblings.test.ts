// The number frame's values for a tokenize: each other frame posts its value with its version (a count
// of its changes) on the frames' channel as it changes, and the page's `tokenize` names the version of
// each it last heard of; the job uses, for each field, a value at least that new, and waits for one
// otherwise, so that a click on Pay right after a key never pays the value before that key. What it
// takes and when, then the same over a real BroadcastChannel (Node's).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANSWER_MS, BLOCK, jobValues } from '../../src/frame/job-values';
import { siblings } from '../../src/frame/siblings';
import type { FieldName } from '../../src/shared/names';

const never = () => new AbortController().signal;

/** How a job ends after the wait for missing values has run out: its values, or its error's code and fields. */
async function outcome(p: Promise<unknown>) {
  const settled = p.then(
    (values) => ({ values }),
    (error) => ({ error: { code: error.code, fields: error.fields, message: error.message } }),
  );
  await vi.advanceTimersByTimeAsync(ANSWER_MS);
  return settled;
}

describe('the number frame’s values', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('uses the values it holds at once when they are as new as the page saw, or newer (a key after the click), asking for nothing', async () => {
    const ask = vi.fn();
    const values = jobValues(ask);
    values.put('expiry', '12 / 34', 4);
    values.put('cvv', '123', 5);
    await expect(values.take({ expiry: 4, cvv: 3 }, ['expiry', 'cvv'], never())).resolves.toEqual({ expiry: '12 / 34', cvv: '123' });
    expect(ask).not.toHaveBeenCalled();
  });

  it('waits for a value as new as the page saw, asks for it, and pays that one, not the older one it holds', async () => {
    const ask = vi.fn();
    const values = jobValues(ask);
    values.put('expiry', '12 / 3', 3); // the key before the last one
    values.put('cvv', '123', 3);
    const job = values.take({ expiry: 4, cvv: 3 }, ['expiry', 'cvv'], never()); // the page had heard the last key
    expect(ask).toHaveBeenCalledTimes(1);
    values.put('cvv', '124', 4); // another field moving on changes nothing
    values.put('expiry', '12 / 34', 4); // the last key's value, late on the channel
    await expect(job).resolves.toEqual({ expiry: '12 / 34', cvv: '124' });
  });

  it('takes only a value of the frame the page heard: one of the frame before a reload, or of a planted one, makes it ask', async () => {
    const ask = vi.fn();
    const values = jobValues(ask);
    const [before, now, planted] = [7 * BLOCK, 3 * BLOCK, 9 * BLOCK]; // each frame document counts from its own block
    values.put('name', 'Ada Lovelace', before + 14);
    values.put('name', 'G', now + 1); // the name frame loaded again, and the person types again
    values.put('name', 'Gr', now + 2);
    await expect(values.take({ name: now + 2 }, ['name'], never())).resolves.toEqual({ name: 'Gr' });
    for (const [value, n] of [
      ['Ada Lovelace', before + 14], // the frame before's message, late
      ['', planted + 50], // a frame the page's script planted on the channel, cleared 50 times
    ] as const) {
      values.put('name', value, n);
      const job = values.take({ name: now + 2 }, ['name'], never());
      expect(ask).toHaveBeenCalled();
      ask.mockClear();
      values.put('name', 'Gr', now + 2); // the page's frame answers
      await expect(job).resolves.toEqual({ name: 'Gr' });
    }
  });

  it('waits for a field it holds nothing of, even when the page names no version of it', async () => {
    const ask = vi.fn();
    const values = jobValues(ask);
    const job = values.take({}, ['name'], never());
    expect(ask).toHaveBeenCalledTimes(1);
    values.put('name', 'Ada', 0);
    await expect(job).resolves.toEqual({ name: 'Ada' });
  });

  it('says timeout naming the fields still behind, and no value in its message', async () => {
    const values = jobValues(() => undefined);
    values.put('cvv', '12', 2);
    const job = values.take({ expiry: 4, cvv: 3, name: 1 }, ['expiry', 'cvv', 'name'], never());
    values.put('expiry', '12 / 34', 4);
    expect(await outcome(job)).toEqual({
      error: { code: 'timeout', fields: ['cvv', 'name'], message: 'the cvv, name field did not answer' },
    });
  });

  it('stops waiting when the job is cancelled, and a value that comes after goes to the next job', async () => {
    const values = jobValues(() => undefined);
    const stop = new AbortController();
    const job = values.take({ cvv: 3 }, ['cvv'], stop.signal);
    stop.abort(new Error('cancelled by the page'));
    await expect(job).rejects.toThrow('cancelled by the page');
    values.put('cvv', '123', 3);
    await expect(values.take({ cvv: 3 }, ['cvv'], never())).resolves.toEqual({ cvv: '123' });
    const already = new AbortController();
    already.abort(new Error('gone'));
    await expect(values.take({ cvv: 3 }, ['cvv'], already.signal)).rejects.toThrow('gone');
  });

  it('answers at once when there is nothing to wait for', async () => {
    await expect(jobValues(() => undefined).take({}, [], never())).resolves.toEqual({});
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

  const ch = 'a'.repeat(32);
  // Versions counted from 0 here (a frame document counts from a random multiple of BLOCK).
  const frame = (field: FieldName, value = () => '', from = 0) => siblings(ch, field, { value, sizes: () => undefined }, from);
  /** Everything said on a channel, as a document of the frame origin that joined it would hear it. */
  const listen = (on = ch) => {
    const heard: unknown[] = [];
    new BroadcastChannel(`payframe:${on}`).onmessage = (e) => heard.push(e.data);
    return heard;
  };
  /** A moment for Node's BroadcastChannel to deliver what was posted (no message is expected). */
  const quiet = () => new Promise((resolve) => setTimeout(resolve, 50));

  it('each other field posts its value with its version on each change, on its own channel; the number frame uses it', async () => {
    const heard = listen();
    const elsewhere = listen('b'.repeat(32));
    const number = frame('number');
    let cvv = '';
    const sibling = frame('cvv', () => cvv);
    [sibling, number].forEach((f) => f.start());
    await vi.waitFor(() => expect(heard).toHaveLength(2)); // the number frame's ask, and the answer
    expect(sibling.version(false)).toBe(0); // a focus, a blur: no change
    cvv = '12';
    expect(sibling.version(true)).toBe(1);
    cvv = '123';
    expect(sibling.version(true)).toBe(2);
    await vi.waitFor(() => expect(heard).toHaveLength(4));
    await expect(number.values({ cvv: 2 }, ['cvv'], never())).resolves.toEqual({ cvv: '123' });
    expect(heard).toEqual([
      { ch, t: 'ask' },
      { ch, t: 'value', field: 'cvv', value: '', n: 0 },
      { ch, t: 'value', field: 'cvv', value: '12', n: 1 },
      { ch, t: 'value', field: 'cvv', value: '123', n: 2 },
    ]);
    expect(elsewhere).toEqual([]);
  });

  it('a number frame that starts after the others were typed in asks, and gets their values', async () => {
    const heard = listen();
    const expiry = frame('expiry', () => '12 / 34');
    expiry.start();
    expiry.version(true);
    expiry.version(true);
    await vi.waitFor(() => expect(heard).toHaveLength(2));
    const number = frame('number');
    number.start();
    await vi.waitFor(() => expect(heard).toHaveLength(4));
    await expect(number.values({ expiry: 2 }, ['expiry'], never())).resolves.toEqual({ expiry: '12 / 34' });
    expect(heard.slice(2)).toEqual([
      { ch, t: 'ask' },
      { ch, t: 'value', field: 'expiry', value: '12 / 34', n: 2 },
    ]);
  });

  it('a field whose frame loads again counts from another start: a late value of the frame before is not taken for the new one', async () => {
    const number = frame('number');
    number.start();
    const before = frame('name', () => 'Ada Lovelace', BLOCK * 9); // its start was higher: starts are random
    before.start();
    before.version(true);
    let name = '';
    const again = frame('name', () => name, BLOCK * 5); // the name frame loaded again (its container moved), empty
    again.start();
    name = 'B';
    const seen = again.version(true); // the page hears this version with the new frame's state
    // A message of the frame before, late (it was on its way when the container moved).
    new BroadcastChannel(`payframe:${ch}`).postMessage({ ch, t: 'value', field: 'name', value: 'Ada Lovelace', n: BLOCK * 9 + 1 });
    await quiet();
    await expect(number.values({ name: seen }, ['name'], never())).resolves.toEqual({ name: 'B' });
  });

  it('the number frame never posts its value, whoever asks', async () => {
    const heard = listen();
    frame('number', () => '4111111111111111').start();
    new BroadcastChannel(`payframe:${ch}`).postMessage({ ch, t: 'ask' });
    await quiet();
    expect(heard).toEqual([
      { ch, t: 'ask' },
      { ch, t: 'ask' },
    ]);
  });

  // A frame where the browser lists no ancestors (Firefox) starts only once a config from its page proves
  // its parent (start.ts): until then it is hidden and inert, so nothing is typed into it, and it posts nothing.
  it('a frame not started yet posts nothing: no value on a change, no answer to an ask, no ask', async () => {
    const heard = listen();
    const number = frame('number');
    const cvv = frame('cvv', () => '123');
    expect(cvv.version(true)).toBe(1);
    new BroadcastChannel(`payframe:${ch}`).postMessage({ ch, t: 'ask' });
    await quiet();
    expect(heard).toEqual([{ ch, t: 'ask' }]);
    cvv.start();
    number.start();
    await expect(number.values({ cvv: 1 }, ['cvv'], never())).resolves.toEqual({ cvv: '123' });
  });

  it('a job that finds a value behind the page asks again, and the sibling answers with its value as it is then', async () => {
    const sibling = frame('expiry', () => '12 / 34');
    const number = frame('number');
    [sibling, number].forEach((f) => f.start());
    sibling.version(true);
    await quiet();
    // Then someone on the channel posts an older version, which comes last (a frame of the page's own, planted on it).
    new BroadcastChannel(`payframe:${ch}`).postMessage({ ch, t: 'value', field: 'expiry', value: '', n: 0 });
    await quiet();
    const heard = listen();
    await expect(number.values({ expiry: 1 }, ['expiry'], never())).resolves.toEqual({ expiry: '12 / 34' });
    await vi.waitFor(() => expect(heard).toHaveLength(2));
    expect(heard).toEqual([
      { ch, t: 'ask' },
      { ch, t: 'value', field: 'expiry', value: '12 / 34', n: 1 },
    ]);
  });
});
