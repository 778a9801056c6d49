// @vitest-environment happy-dom
// The page side of a CVV-only form (a saved card paid again): one frame that posts the CVV to the
// page's own origin. The frame is played by the test, as in hosted-*.test.ts; the real frame posting to a
// real merchant server on two origins is tested in e2e/hosted-cvv.spec.ts.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type CardForm, createClient, mountFields } from '../../src';
import { frameLoaded, standInFrames } from './stand-in-frames';

const GATEWAY = 'https://127.0.0.1:8443'; // the sandbox on loopback: it serves the frames beside its API
const VALID = { isEmpty: false, isValid: true, isPotentiallyValid: true, isFocused: false };

let client: ReturnType<typeof createClient>;
let forms: CardForm[];

// postCvv() loads its checks at its first call (lazy.test.ts tests that load): loaded here first, so
// that one turn of the event loop (`settle`) sees the post in every test, the first one too.
beforeAll(() => import('../../src/client/form/cvv-post'));

beforeEach(() => {
  document.body.innerHTML = `
    <form><label for="kept">Security code of the Visa ending in 1111</label><div id="kept"></div>
    <div id="n"></div><div id="e"></div><div id="c"></div></form>`;
  standInFrames();
  client = createClient({ merchantId: 'shop-1', baseUrl: GATEWAY, authorization: async () => 'token' });
  forms = [];
});
afterEach(() => forms.forEach((f) => f.destroy()));

const mount = (extra: Record<string, unknown> = {}) => {
  const form = mountFields({ client, fields: { cvv: { container: '#kept' } }, ...extra } as any);
  forms.push(form);
  return form;
};
const frame = () => document.querySelector<HTMLIFrameElement>('#kept iframe')!;
const win = () => frame().contentWindow as unknown as { postMessage: ReturnType<typeof vi.fn> };
const posted = () => win().postMessage.mock.calls as [any, string][];
const posts = () => posted().filter(([m]) => m.t === 'post');
const channel = () => new URLSearchParams(frame().src.split('#')[1]).get('channel')!;
const say = (data: Record<string, unknown>, source: unknown = win()) =>
  window.dispatchEvent(new MessageEvent('message', { data: { ch: channel(), ...data }, origin: GATEWAY, source: source as any }));
const settle = () => new Promise((r) => setTimeout(r, 0));
const rejection = async (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e) => e,
  );
/** A mounted form whose CVV is complete. */
const ready = async (extra: Record<string, unknown> = {}) => {
  const form = mount(extra);
  frameLoaded(frame());
  say({ t: 'ready', label: 'L' });
  await form.ready;
  say({ t: 'state', event: 'input', state: VALID });
  return form;
};

describe('a CVV-only form', () => {
  it('mounts one frame whose URL says it is a CVV-only form, and sends the brand in its config', () => {
    mount({ brand: 'american-express' });
    expect(document.querySelectorAll('iframe')).toHaveLength(1);
    const hash = Object.fromEntries(new URLSearchParams(frame().src.split('#')[1]));
    expect(hash).toEqual({ channel: expect.stringMatching(/^[\da-f]{32}$/), origin: location.origin, config: expect.any(String) });
    expect(new URL(frame().src).searchParams.get('field')).toBe('cvv');
    expect(JSON.parse(hash.config!)).toMatchObject({ t: 'config', fields: ['cvv'], brand: 'american-express' });
    // In the path: a frame host, a static one too, gives this frame's page alone the merchant's origins in connect-src.
    expect(new URL(frame().src).pathname).toBe('/frame/cvv/');
    frameLoaded(frame());
    expect(posted()[0]).toEqual([
      expect.objectContaining({
        t: 'config',
        fields: ['cvv'],
        brand: 'american-express',
        label: 'Security code of the Visa ending in 1111',
      }),
      GATEWAY,
    ]);
  });

  it('posts to the CVV frame alone, at its exact origin, and answers the JSON the merchant server sent back', async () => {
    const form = await ready();
    const call = form.postCvv({ url: '/pay/saved-card', body: { ticket: 't-1', savedCardId: 'CARD-1' } });
    const again = form.postCvv({ url: '/elsewhere' }); // a double click makes one post
    // A call made meanwhile is still checked: refused, it says so, and the post in flight goes on.
    const refused = form.postCvv({ url: 'https://evil.example/steal', timeoutMs: -1 });
    await expect(refused).rejects.toMatchObject({ code: 'unsafe_url' });
    await settle();
    expect(posts()).toEqual([
      [
        {
          ch: channel(),
          t: 'post',
          id: 1,
          url: `${location.origin}/pay/saved-card`,
          body: { ticket: 't-1', savedCardId: 'CARD-1' },
          timeoutMs: 15_000,
        },
        GATEWAY,
      ],
    ]);
    say({ t: 'posted', id: 1, body: { forged: true } }, window); // not the frame's window
    say({ t: 'posted', id: 1, body: { status: 'approved', referenceId: 'PAY-1' } });
    await expect(call).resolves.toEqual({ status: 'approved', referenceId: 'PAY-1' });
    await expect(again).resolves.toEqual({ status: 'approved', referenceId: 'PAY-1' });
  });

  it('passes on a refusal as a typed error with its code, status and reason, and no body whatever the frame sends', async () => {
    const form = await ready();
    const call = form.postCvv({ url: '/pay/saved-card' });
    await settle();
    const body = { error: { code: 'not_found', message: 'This ticket is used.' } };
    say({
      t: 'failure',
      id: 1,
      error: {
        code: 'not_found',
        message: 'postCvv: /pay/saved-card refused the payment (HTTP 404, TICKET)',
        status: 404,
        reason: 'TICKET',
        body,
      },
    });
    const error = await rejection(call);
    expect(error).toMatchObject({ name: 'PayframeError', code: 'not_found', status: 404, reason: 'TICKET' });
    expect(error.body).toBeUndefined();
  });

  it.each([
    ['another origin', 'https://evil.example/pay'],
    ['the gateway, where the frames live', `${GATEWAY}/pay`],
    ['a protocol-relative URL to another host', '//evil.example/pay'],
    ['userinfo', `${location.protocol}//user:pw@${location.host}/pay`],
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:text/plain,x'],
    ['not text', 42],
  ])('refuses %s with unsafe_url, and posts nothing', async (_, url) => {
    const form = await ready();
    expect(await rejection(form.postCvv({ url } as any))).toMatchObject({ code: 'unsafe_url' });
    await settle();
    expect(posts()).toEqual([]);
  });

  it.each([
    ['a body with its own cvv', { body: { cvv: '000' } }],
    ['a body that is an array', { body: ['x'] }],
    [
      'a body that is not data',
      {
        body: {
          f: () => 1,
          self: undefined,
          get x() {
            throw new Error('no');
          },
        },
      },
    ],
    ['a body too large', { body: { ticket: 'x'.repeat(17_000) } }],
    ['a timeout given as text', { timeoutMs: '5' }],
    ['a signal that is not one', { signal: {} }],
  ])('refuses %s with invalid_request, and posts nothing', async (_, options) => {
    const form = await ready();
    expect(await rejection(form.postCvv({ url: '/pay', ...options } as any))).toMatchObject({ code: 'invalid_request' });
    expect(posts()).toEqual([]);
  });

  it('refuses an incomplete CVV with invalid_card, posts nothing and shows the field as invalid', async () => {
    const form = await ready();
    say({ t: 'state', event: 'input', state: { ...VALID, isValid: false } });
    expect(await rejection(form.postCvv({ url: '/pay' }))).toMatchObject({ code: 'invalid_card', fields: ['cvv'] });
    expect(posts()).toEqual([]);
    expect(posted().at(-1)![0].t).toBe('touch');
    expect(document.querySelector('#kept')!.classList.contains('payframe-field--invalid')).toBe(true);
  });

  it('has no card to tokenise; a full form has no CVV to post', async () => {
    const form = await ready();
    expect(await rejection(form.tokenize())).toMatchObject({ code: 'invalid_request' });
    const full = mountFields({ client, fields: { number: { container: '#n' }, expiry: { container: '#e' }, cvv: { container: '#c' } } });
    forms.push(full);
    expect(await rejection(full.postCvv({ url: '/pay' }))).toMatchObject({ code: 'invalid_request' });
    expect(new URL(document.querySelector<HTMLIFrameElement>('#c iframe')!.src).searchParams.get('form')).toBeNull();
  });

  it('aborting the signal, or destroying the form, tells the frame to stop and rejects aborted', async () => {
    const form = await ready();
    const stop = new AbortController();
    const call = form.postCvv({ url: '/pay', signal: stop.signal });
    await settle();
    stop.abort();
    expect((await rejection(call)).code).toBe('aborted');
    expect(
      posted()
        .map(([m]) => m.t)
        .slice(-2),
    ).toEqual(['post', 'cancel']);
    const again = form.postCvv({ url: '/pay' });
    await settle();
    form.destroy();
    expect((await rejection(again)).code).toBe('aborted');
    expect((await rejection(form.postCvv({ url: '/pay' }))).code).toBe('aborted');
  });

  it("after a failed mount, postCvv() rejects with the mount's own error: a live baseUrl without frameUrl says frameUrl", async () => {
    client = createClient({ merchantId: 'shop-1', baseUrl: 'https://api.ompay.com', authorization: async () => 'token' });
    const form = mount();
    const failed = await rejection(form.ready);
    expect(failed).toMatchObject({ code: 'invalid_config', message: expect.stringContaining('frameUrl is required') });
    expect(await rejection(form.postCvv({ url: '/pay' }))).toBe(failed);
  });

  it('fails the mount when the frame refuses its config (a brand it does not know)', async () => {
    const form = mount({ brand: 'visaa' });
    const onError = vi.fn();
    form.on('error', onError);
    say({ t: 'failure', id: 0, error: { code: 'invalid_config', message: 'mountFields: brand must be one of visa, …' } });
    expect(await rejection(form.ready)).toMatchObject({ code: 'invalid_config' });
    expect(onError).toHaveBeenCalled();
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
  });

  it.each([
    ['a brand that is not text', { brand: 7 }],
    ['cvv with another field but no number', { fields: { cvv: { container: '#kept' }, name: { container: '#n' } } }],
    ['no field at all', { fields: {} }],
  ])('refuses %s with invalid_config', (_, options) => {
    expect(() => mount(options)).toThrow(expect.objectContaining({ code: 'invalid_config' }));
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
  });
});
