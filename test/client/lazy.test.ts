// client.tokenize loads the card rules at its first call, and handlePending its flow and OTP form; a
// chunk that does not load is a typed error, nothing happens, and the next call tries again.
// @vitest-environment happy-dom
import { afterEach, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('../../src/client/core/tokenize');
  vi.doUnmock('../../src/client/pending/pending-flow');
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
  fail = false;
  const call = form.postCvv({ url: '/pay', body: { ticket: 't' } });
  await vi.waitFor(() => expect(posts()).toHaveLength(1));
  say({ t: 'posted', id: posts()[0]![0].id, body: { status: 'approved' } });
  await expect(call).resolves.toEqual({ status: 'approved' });
  form.destroy();
});
