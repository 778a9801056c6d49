// @vitest-environment happy-dom
// The trust boundary's port (src/protocol/port.ts) and the ask/answer by id (src/protocol/ask.ts): a
// message reaches a handler only from the other side's origin, from a window the port knows, on its
// channel, in a shape the guards read; what goes out names the other side's origin exactly. Real
// page and frames on two origins: e2e/forged-messages.spec.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Answer, answerer, asker } from '../../src/protocol/ask';
import { readToPage } from '../../src/protocol/guards';
import type { Out, ToFrame, ToPage } from '../../src/protocol/messages';
import { siblingPort, windowPort } from '../../src/protocol/port';
import { isPayframeError, PayframeError } from '../../src/shared/errors';

const ch = 'a'.repeat(32);
const FRAMES = 'https://frames.example';
const ready = { t: 'ready', label: 'Card number' };
const result = { nonce: 'n', brand: 'visa' as const, last4: '1111', expireMonth: 1, expireYear: 2030, expiresAt: 't' };

describe('windowPort', () => {
  const opened: { close(): void }[] = [];
  afterEach(() => opened.splice(0).forEach((p) => p.close()));

  /** A page's port to one frame window (a stand-in: happy-dom loads no cross-origin frame). */
  const open = () => {
    const frame = { postMessage: vi.fn() };
    const heard: [ToPage, string][] = [];
    const unreadable: string[] = [];
    const port = windowPort<ToPage, ToFrame, string>(
      ch,
      FRAMES,
      new Map([[frame, 'number']]),
      readToPage,
      (m, sender) => heard.push([m, sender]),
      (sender) => unreadable.push(sender),
    );
    opened.push(port);
    const say = (data: unknown, over: { origin?: string; source?: unknown } = {}) =>
      window.dispatchEvent(
        new MessageEvent('message', { data, origin: over.origin ?? FRAMES, source: ('source' in over ? over.source : frame) as any }),
      );
    return { frame, port, heard, unreadable, say };
  };

  it('hands a handler a message from the known window, on the origin and channel, in its shape, with who sent it', () => {
    const { heard, say } = open();
    say({ ch, ...ready });
    expect(heard).toEqual([[{ ch, ...ready }, 'number']]);
  });

  it('drops a message from another origin, another window, another channel, or of another shape, before any handler', () => {
    const { heard, unreadable, say } = open();
    say({ ch, ...ready }, { origin: 'https://shop.example' });
    say({ ch, ...ready }, { origin: 'https://frames.example:444' });
    say({ ch, ...ready }, { source: window });
    say({ ch, ...ready }, { source: { postMessage: vi.fn() } });
    say({ ch, ...ready }, { source: null });
    say({ ch: 'b'.repeat(32), ...ready });
    say({ ...ready });
    say({ ch, t: 'ready', label: 7 });
    say({ ch, t: 'result', result: { nonce: 'n' } });
    say('a string');
    say(null);
    expect(heard).toEqual([]);
    // Only what the known window says on our channel, and the guards do not read, is told as unreadable.
    expect(unreadable).toEqual(['number', 'number']);
  });

  it('posts with the channel to the given window, naming the other side’s origin exactly', () => {
    const { frame, port } = open();
    port.post(frame as unknown as Window, { t: 'focus' });
    expect(frame.postMessage.mock.calls).toEqual([[{ t: 'focus', ch }, FRAMES]]);
    port.post(null, { t: 'clear' }); // a frame already gone: nothing
    expect(frame.postMessage).toHaveBeenCalledTimes(1);
  });

  it('hears nothing once closed', () => {
    const { port, heard, say } = open();
    port.close();
    say({ ch, ...ready });
    expect(heard).toEqual([]);
  });

  it('hears a window added to its senders later, and none before', () => {
    const parent = {};
    const senders = new Map<unknown, true>();
    const heard: ToFrame[] = [];
    const port = windowPort<ToFrame, ToPage, true>(
      ch,
      'https://shop.example',
      senders,
      (d) => d as ToFrame,
      (m) => heard.push(m),
    );
    opened.push(port);
    const say = () =>
      window.dispatchEvent(
        new MessageEvent('message', { data: { ch, t: 'focus' }, origin: 'https://shop.example', source: parent as any }),
      );
    say();
    senders.set(parent, true);
    say();
    expect(heard).toEqual([{ ch, t: 'focus' }]);
  });
});

describe('siblingPort', () => {
  it('takes only messages on its channel in a sibling’s shape, and posts with the channel', async () => {
    const heard: unknown[] = [];
    const post = siblingPort(ch, (m) => heard.push(m));
    const other = new BroadcastChannel(`payframe:${ch}`);
    const got: unknown[] = [];
    other.onmessage = (e) => got.push(e.data);
    try {
      other.postMessage({ ch: 'b'.repeat(32), t: 'ask', id: 1 });
      other.postMessage({ t: 'ask', id: 1 });
      other.postMessage({ ch, t: 'value', id: 1, field: 'pin', value: '1' });
      other.postMessage({ ch, t: 'ask', id: 2 });
      post({ t: 'sizes', sizes: [3] });
      await vi.waitFor(() => expect(heard).toEqual([{ ch, t: 'ask', id: 2 }]));
      await vi.waitFor(() => expect(got).toEqual([{ t: 'sizes', sizes: [3], ch }]));
    } finally {
      other.close();
    }
  });
});

describe('asker (the page’s half)', () => {
  const open = () => {
    const cancelled: number[] = [];
    const sent: number[] = [];
    const jobs = asker(
      (id) => cancelled.push(id),
      () => new PayframeError('aborted', 'the card form was destroyed'),
    );
    const ask = (stop = new AbortController().signal) => jobs.ask<unknown>((id) => sent.push(id), stop);
    return { jobs, ask, sent, cancelled };
  };
  const answer = (m: Out<Answer>) => ({ ch, ...m }) as Answer;

  it('sends each job under a new id and settles it with its own answer', async () => {
    const { jobs, ask, sent } = open();
    const first = ask();
    const second = ask();
    expect(sent).toEqual([1, 2]);
    jobs.answer(answer({ t: 'posted', id: 2, body: { status: 'approved' } as any }));
    jobs.answer(answer({ t: 'result', id: 1, result }));
    await expect(first).resolves.toEqual(result);
    await expect(second).resolves.toEqual({ status: 'approved' });
  });

  it('makes a failure the PayframeError the frame caught, with its code and fields', async () => {
    const { jobs, ask } = open();
    const job = ask();
    jobs.answer(answer({ t: 'failure', id: 1, error: { code: 'timeout', message: 'the cvv field did not answer', fields: ['cvv'] } }));
    const error = (await job.catch((e: unknown) => e)) as PayframeError;
    expect(isPayframeError(error)).toBe(true);
    expect({ code: error.code, message: error.message, fields: error.fields }).toEqual({
      code: 'timeout',
      message: 'the cvv field did not answer',
      fields: ['cvv'],
    });
  });

  it('drops an answer that does not carry what its type promises, and settles with the next good one', async () => {
    const { jobs, ask } = open();
    const job = ask();
    jobs.answer(answer({ t: 'result', id: 1, result: { ...result, nonce: undefined } as any }));
    jobs.answer(answer({ t: 'failure', id: 1, error: { code: 'invalid_card', message: 'm', fields: ['pin' as any] } }));
    jobs.answer(answer({ t: 'result', id: 1, result }));
    await expect(job).resolves.toEqual(result);
  });

  it('tells the frame to cancel when the page stops waiting, rejects with the reason, and drops a late answer', async () => {
    const { jobs, ask, cancelled } = open();
    const stop = new AbortController();
    const job = ask(stop.signal);
    const reason = new PayframeError('aborted', 'tokenize: aborted by the caller');
    stop.abort(reason);
    await expect(job).rejects.toBe(reason);
    expect(cancelled).toEqual([1]);
    jobs.answer(answer({ t: 'result', id: 1, result: { nonce: 'late' } as any })); // no one waits: nothing happens
    const gone = new AbortController();
    gone.abort(reason);
    await expect(ask(gone.signal)).rejects.toBe(reason);
    expect(cancelled).toEqual([1, 2]);
  });

  it('rejects every waiting job when closed, and every later one', async () => {
    const { jobs, ask, sent } = open();
    const waiting = [ask(), ask()];
    jobs.close();
    for (const job of waiting) await expect(job).rejects.toMatchObject({ code: 'aborted', message: 'the card form was destroyed' });
    await expect(ask()).rejects.toMatchObject({ code: 'aborted' });
    expect(sent).toEqual([1, 2]);
  });
});

describe('answerer (the frame’s half)', () => {
  afterEach(() => void vi.useRealTimers());

  it('answers a job once with what its work made', async () => {
    const answers: unknown[] = [];
    await answerer((m) => answers.push(m)).run(3, 1000, 'tokenize', async () => ({ t: 'result', id: 3, result: { nonce: 'n' } as any }));
    expect(answers).toEqual([{ t: 'result', id: 3, result: { nonce: 'n' } }]);
  });

  it('answers an error as data: a PayframeError’s code and fields, anything else a generic server_error', async () => {
    const answers: any[] = [];
    const work = answerer((m) => answers.push(m));
    await work.run(1, 1000, 'postCvv', async () => {
      throw new PayframeError('invalid_card', 'invalid card details: cvv', { fields: ['cvv'], body: { cvv: '123' } });
    });
    await work.run(2, 1000, 'postCvv', async () => {
      throw new Error('4111111111111111 broke');
    });
    expect(answers).toEqual([
      {
        t: 'failure',
        id: 1,
        error: expect.objectContaining({ code: 'invalid_card', message: 'invalid card details: cvv', fields: ['cvv'] }),
      },
      { t: 'failure', id: 2, error: expect.objectContaining({ code: 'server_error', message: 'the card frame failed unexpectedly' }) },
    ]);
    expect(JSON.stringify(answers)).not.toMatch(/123|4111/);
  });

  it('stops a job the page cancels, and one past its deadline, each answered as such', async () => {
    vi.useFakeTimers();
    const answers: any[] = [];
    const work = answerer((m) => answers.push(m));
    const hang = (signal: AbortSignal) => new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    const cancelled = work.run(1, 5000, 'tokenize', hang);
    const late = work.run(2, 5000, 'postCvv', hang);
    work.cancel(1);
    await cancelled;
    await vi.advanceTimersByTimeAsync(5000);
    await late;
    expect(answers.map((a) => [a.id, a.error.code, a.error.message])).toEqual([
      [1, 'aborted', 'tokenize: aborted by the caller'],
      [2, 'timeout', 'postCvv: no answer in 5000 ms'],
    ]);
    work.cancel(1); // over: nothing to stop
    expect(answers).toHaveLength(2);
  });
});
