// client.tokenize loads the card rules at its first call, handlePending its flow and OTP form, the hosted form its tokenize job when ready; a
// chunk that does not load is a typed error, nothing happens, and the next call tries again.
// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('../../src/client/core/tokenize');
  vi.doUnmock('../../src/client/pending/pending-flow');
  vi.doUnmock('../../src/client/form/tokenize-job');
  vi.resetModules();
});

it('reports a chunk that did not load as network, and loads it again at the next call', async () => {
  vi.resetModules();
  let fail = true;
  vi.doMock('../../src/client/core/tokenize', async (original) => {
    if (fail) throw new TypeError('Failed to fetch dynamically imported module');
    return original();
  });
  const { createClient } = await import('../../src/client/core/client');
  const client = createClient({ merchantId: 'm', baseUrl: 'https://gw.example', authorization: 'token' });
  const card = { number: '4111', expireMonth: 1, expireYear: 2030, cvv: '1' };
  await expect(client.tokenize(card)).rejects.toMatchObject({ code: 'network', message: 'tokenize: its code did not load' });
  fail = false;
  vi.resetModules();
  await expect(client.tokenize(card)).rejects.toMatchObject({ code: 'invalid_card' });
});

/**
 * Counts the pending flow's loads from now on: asked for (its import begun), and arrived. A test waits for
 * its arrival, so that no import on its way runs into the next test.
 */
function countFlows(): { asked: number; arrived: number } {
  const count = { asked: 0, arrived: 0 };
  vi.doMock('../../src/client/pending/pending-flow', async (original) => {
    count.asked++;
    const flow = await original();
    count.arrived++;
    return flow;
  });
  return count;
}

const SESSION = '0123456789abcdef0123456789abcdef';
const pending = { referenceId: 'PAY-1', sessionId: SESSION, redirectUrl: `https://gw.example/v1/redirect/${SESSION}` };

it('handlePending: a flow that did not load is network, shows nothing and navigates nowhere; the next call loads it', async () => {
  vi.resetModules();
  let fail = true;
  vi.doMock('../../src/client/pending/pending-flow', async (original) => {
    if (fail) throw new TypeError('Failed to fetch dynamically imported module');
    return original();
  });
  const { handlePending } = await import('../../src/client/pending/pending');
  const { createClient } = await import('../../src/client/core/client');
  const client = createClient({ merchantId: 'm', baseUrl: 'https://gw.example', authorization: 'token' });
  const container = document.createElement('div');
  container.append('kept');
  document.body.replaceChildren(container);
  const navigate = vi.fn();
  const submitOtp = vi.fn();
  await expect(handlePending(pending, { client, container, submitOtp, navigate })).rejects.toMatchObject({
    code: 'network',
    message: 'handlePending: its code did not load',
  });
  expect(container.textContent).toBe('kept');
  expect(navigate).not.toHaveBeenCalled();
  fail = false;
  vi.resetModules();
  await expect(handlePending(pending, { client, mode: 'redirect', navigate })).resolves.toMatchObject({ status: 'redirected' });
  expect(navigate).toHaveBeenCalledExactlyOnceWith(pending.redirectUrl);
});

it('postCvv: checks that did not load are network, and nothing is posted; the next call loads them and posts', async () => {
  vi.resetModules();
  let fail = true;
  vi.doMock('../../src/client/form/cvv-post', async (original) => {
    if (fail) throw new TypeError('Failed to fetch dynamically imported module');
    return original();
  });
  const flows = countFlows();
  await import('../../src/client/pending/pending'); // a bundle with handlePending: its flow is fetched at Pay
  const { frameLoaded, standInFrames } = await import('./stand-in-frames');
  const { createClient } = await import('../../src/client/core/client');
  const { mountFields } = await import('../../src/client/form/hosted');
  document.body.innerHTML = '<div id="kept"></div>';
  standInFrames();
  const client = createClient({ merchantId: 'm', baseUrl: 'https://gw.example', authorization: 'token' });
  const form = mountFields({ client, fields: { cvv: { container: '#kept' } }, frameUrl: 'https://frames.example/' });
  const frame = document.querySelector('iframe')!;
  const win = frame.contentWindow as unknown as { postMessage: ReturnType<typeof vi.fn> };
  const ch = new URLSearchParams(frame.src.split('#')[1]).get('channel');
  const say = (data: object) =>
    window.dispatchEvent(new MessageEvent('message', { data: { ch, ...data }, origin: 'https://frames.example', source: win as any }));
  frameLoaded(frame);
  say({ t: 'ready', label: 'CVV' });
  say({ t: 'state', event: 'input', state: { isEmpty: false, isValid: true, isPotentiallyValid: true, isFocused: false } });
  const posts = () => win.postMessage.mock.calls.filter(([m]) => m.t === 'post');
  await expect(form.postCvv({ url: '/pay' })).rejects.toMatchObject({ code: 'network', message: 'postCvv: its code did not load' });
  expect(posts()).toEqual([]);
  expect(flows.asked).toBe(0);
  fail = false;
  const call = form.postCvv({ url: '/pay', body: { ticket: 't' } });
  await vi.waitFor(() => expect(posts()).toHaveLength(1));
  // The post is the payment: a pending answer's code is on its way beside it.
  await vi.waitFor(() => expect(flows.arrived).toBe(1), { timeout: 5000 }); // its first import is transformed then: slow on a busy machine
  say({ t: 'posted', id: posts()[0]![0].id, body: { status: 'approved' } });
  await expect(call).resolves.toEqual({ status: 'approved' });
  form.destroy();
});

it("the hosted form's tokenize job: asked for when the form is ready; one that did not load is network, nothing is sent, and the next call loads it", async () => {
  vi.resetModules();
  let fail = true;
  let asked = 0;
  vi.doMock('../../src/client/form/tokenize-job', async (original) => {
    asked++;
    if (fail) throw new TypeError('Failed to fetch dynamically imported module');
    return original();
  });
  const flows = countFlows();
  await import('../../src/client/pending/pending'); // a bundle with handlePending: its flow is fetched at Pay
  const { frameLoaded, standInFrames } = await import('./stand-in-frames');
  const { createClient } = await import('../../src/client/core/client');
  const { mountFields } = await import('../../src/client/form/hosted');
  document.body.innerHTML = '<div id="n"></div><div id="e"></div><div id="c"></div>';
  standInFrames();
  const client = createClient({ merchantId: 'm', baseUrl: 'https://gw.example', authorization: 'token' });
  const form = mountFields({
    client,
    fields: { number: { container: '#n' }, expiry: { container: '#e' }, cvv: { container: '#c' } },
    frameUrl: 'https://frames.example/',
  });
  const frames = [...document.querySelectorAll('iframe')];
  const wins = frames.map((f) => f.contentWindow as unknown as { postMessage: ReturnType<typeof vi.fn> });
  const ch = new URLSearchParams(frames[0]!.src.split('#')[1]).get('channel');
  const say = (i: number, data: object) =>
    window.dispatchEvent(new MessageEvent('message', { data: { ch, ...data }, origin: 'https://frames.example', source: wins[i] as any }));
  const valid = { isEmpty: false, isValid: true, isPotentiallyValid: true, isFocused: false };
  frames.forEach((frame, i) => (frameLoaded(frame), say(i, { t: 'ready', label: 'L' })));
  await form.ready;
  await vi.waitFor(() => expect(asked).toBe(1)); // at ready, before any tokenize()
  // The number frame's state has no version; the others' carry theirs.
  frames.forEach((_, i) => say(i, { t: 'state', event: 'input', state: valid, ...(i > 0 && { n: 1 }) }));
  const jobs = () => wins[0]!.postMessage.mock.calls.filter(([m]) => m.t === 'tokenize');
  await expect(form.tokenize()).rejects.toMatchObject({ code: 'network', message: 'tokenize: its code did not load' });
  expect(jobs()).toEqual([]);
  fail = false;
  const call = form.tokenize();
  await vi.waitFor(() => expect(jobs()).toHaveLength(1));
  // Not while the nonce is asked for: nothing rides beside it.
  expect(flows.asked).toBe(0);
  const result = { nonce: 'n', brand: 'visa', last4: '1111', expireMonth: 1, expireYear: 2030, expiresAt: 't' };
  say(0, { t: 'result', id: jobs()[0]![0].id, result });
  await expect(call).resolves.toEqual(result);
  // The nonce is here, the payment next: a pending answer's code is on its way.
  await vi.waitFor(() => expect(flows.arrived).toBe(1), { timeout: 5000 }); // its first import is transformed then: slow on a busy machine
  form.destroy();
});

describe("the hosted form's tokenize while its job's code is on its way", () => {
  afterEach(() => vi.doUnmock('../../src/client/load'));

  /** A mounted, ready, valid full form whose tokenize job's code waits for `gate` (none: arrives at once), and whose client token waits for `release`. */
  async function readyForm(gate?: Promise<void>, timeoutMs = 4321) {
    vi.resetModules();
    if (gate)
      vi.doMock('../../src/client/load', () => ({
        loadChunk: async <T>(chunk: Promise<T>, what: string) => {
          if (what === 'tokenize') await gate;
          return chunk;
        },
      }));
    const { frameLoaded, standInFrames } = await import('./stand-in-frames');
    const { createClient } = await import('../../src/client/core/client');
    const { mountFields } = await import('../../src/client/form/hosted');
    document.body.innerHTML = '<div id="n"></div><div id="e"></div><div id="c"></div>';
    standInFrames();
    let release!: (token: string) => void;
    // The fetch the form starts at ready fails: a fetch of a call below would be a second one.
    const authorization = vi
      .fn(() => new Promise<string>((resolve) => (release = resolve)))
      .mockImplementationOnce(() => Promise.reject(new Error('the shop is down')));
    const client = createClient({ merchantId: 'm', baseUrl: 'https://gw.example', authorization, timeoutMs });
    const fields = { number: { container: '#n' }, expiry: { container: '#e' }, cvv: { container: '#c' } };
    const form = mountFields({ client, fields, frameUrl: 'https://frames.example/' });
    const frames = [...document.querySelectorAll('iframe')];
    const wins = frames.map((f) => f.contentWindow as unknown as { postMessage: ReturnType<typeof vi.fn> });
    const ch = new URLSearchParams(frames[0]!.src.split('#')[1]).get('channel');
    const say = (i: number, data: object) =>
      window.dispatchEvent(
        new MessageEvent('message', { data: { ch, ...data }, origin: 'https://frames.example', source: wins[i] as any }),
      );
    frames.forEach((frame, i) => (frameLoaded(frame), say(i, { t: 'ready', label: 'L' })));
    await form.ready;
    await vi.waitFor(() => expect(authorization).toHaveBeenCalledTimes(1));
    const valid = { isEmpty: false, isValid: true, isPotentiallyValid: true, isFocused: false };
    frames.forEach((_, i) => say(i, { t: 'state', event: 'input', state: valid, ...(i > 0 && { n: 1 }) }));
    const jobs = () => wins[0]!.postMessage.mock.calls.filter(([m]) => m.t === 'tokenize');
    return { form, authorization, release: (token: string) => release(token), jobs };
  }
  const never = new Promise<void>(() => undefined);

  it('its signal ends the wait: aborted, nothing asked', async () => {
    const { form, authorization } = await readyForm(never);
    const stop = new AbortController();
    const call = form.tokenize({ signal: stop.signal });
    stop.abort();
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
    expect(authorization).toHaveBeenCalledTimes(1); // at ready only
    form.destroy();
  });

  it("its deadline (the client's timeoutMs) counts the wait: timeout", async () => {
    const { form } = await readyForm(never, 200);
    await expect(form.tokenize()).rejects.toMatchObject({ code: 'timeout' });
    form.destroy();
  });

  it('a form destroyed meanwhile fetches no client token when the code arrives', async () => {
    let open!: () => void;
    const { form, authorization, jobs } = await readyForm(new Promise<void>((resolve) => (open = resolve)));
    const call = form.tokenize();
    form.destroy();
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
    open();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(authorization).toHaveBeenCalledTimes(1); // at ready only
    expect(jobs()).toEqual([]);
  });

  it('a form destroyed while its token is fetched asks no frame when the token comes, and lets its deadline go', async () => {
    const { form, authorization, release, jobs } = await readyForm();
    const cleared = vi.spyOn(globalThis, 'clearTimeout');
    const call = form.tokenize();
    await vi.waitFor(() => expect(authorization).toHaveBeenCalledTimes(2));
    form.destroy();
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
    const before = cleared.mock.calls.length;
    release('late-token');
    await vi.waitFor(() => expect(cleared.mock.calls.length).toBeGreaterThan(before)); // the call's deadline
    expect(jobs()).toEqual([]);
    cleared.mockRestore();
  });
});
