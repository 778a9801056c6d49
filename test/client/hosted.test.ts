// @vitest-environment happy-dom
// The page side of the hosted form, with the frames played by the test: happy-dom does not load
// cross-origin iframes, so each iframe's window is a stand-in that records what the page posts to it.
// Real frames on a real second origin are tested in e2e/hosted-*.spec.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClient, isPayframeError, mountFields, type CardForm, type FieldName } from '../../src';
import { SILENT_MS } from '../../src/client/form/load-watch';
import { frameLoaded, standInFrames } from './stand-in-frames';

const GATEWAY = 'https://127.0.0.1:8443'; // the sandbox on loopback: it serves the frames beside its API
const FRAME_ORIGIN = GATEWAY;
const FIELDS: FieldName[] = ['number', 'expiry', 'cvv', 'name'];
const VALID = { isEmpty: false, isValid: true, isPotentiallyValid: true, isFocused: false };

type Posted = [message: any, targetOrigin: string];

let tokens: number;
let authorization: ReturnType<typeof vi.fn<() => Promise<string>>>;
let client: ReturnType<typeof createClient>;
let forms: CardForm[];

beforeEach(() => {
  document.body.innerHTML = `
    <form id="checkout">
      <label for="n">Card number</label><div id="n"></div>
      <label for="e">Expiry</label><div id="e"></div>
      <label><span>CVC</span><div id="c"></div></label>
      <div id="name"></div>
      <button>Pay</button>
    </form>`;
  standInFrames();
  tokens = 0;
  authorization = vi.fn<() => Promise<string>>(async () => `token-${++tokens}`);
  client = createClient({ merchantId: 'shop-1', baseUrl: `${GATEWAY}/api/`, authorization });
  forms = [];
});
afterEach(() => {
  forms.forEach((f) => f.destroy());
  vi.useRealTimers();
});

const mount = (extra: Record<string, unknown> = {}) => {
  const form = mountFields({
    client,
    fields: {
      number: { container: '#n', placeholder: '1234' },
      expiry: { container: '#e' },
      cvv: { container: '#c' },
      name: { container: '#name' },
    },
    ...extra,
  } as any);
  forms.push(form);
  return form;
};
const iframe = (field: FieldName) =>
  document.querySelector<HTMLIFrameElement>(`#${{ number: 'n', expiry: 'e', cvv: 'c', name: 'name' }[field]} iframe`)!;
const win = (field: FieldName) => iframe(field).contentWindow as unknown as { postMessage: ReturnType<typeof vi.fn> };
const posted = (field: FieldName): Posted[] => win(field).postMessage.mock.calls as Posted[];
const channel = () => new URLSearchParams(iframe('number').src.split('#')[1]).get('channel')!;
/** A message from a frame as the browser delivers it. */
const say = (field: FieldName, data: Record<string, unknown>, over: { origin?: string; source?: unknown; ch?: string } = {}) =>
  window.dispatchEvent(
    new MessageEvent('message', {
      data: { ch: over.ch ?? channel(), ...data },
      origin: over.origin ?? FRAME_ORIGIN,
      source: ('source' in over ? over.source : win(field)) as any,
    }),
  );
/** A frame's page has loaded, as its iframe's `load` says. */
const load = (field: FieldName) => frameLoaded(iframe(field));
/** The config a frame's URL carries. */
const urlConfig = (field: FieldName) => JSON.parse(new URLSearchParams(iframe(field).src.split('#')[1]).get('config')!);
const boot = async (form: CardForm, fields = FIELDS) => {
  for (const f of fields) load(f);
  for (const f of fields) say(f, { t: 'ready', label: 'L' });
  await form.ready;
};
const settle = () => new Promise((r) => setTimeout(r, 0));
/** The messages of type `t` posted to a frame, once there are `count` of them (a job's code loads at its first use). */
const jobs = async (field: FieldName, t: string, count = 1) => {
  await vi.waitFor(() => expect(posted(field).filter(([m]) => m.t === t)).toHaveLength(count));
  return posted(field).filter(([m]) => m.t === t);
};
const rejection = async (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e) => e,
  );
/** The version of each other field's value in its last state: how many times it changed. */
const VERSIONS = { expiry: 4, cvv: 3, name: 12 };
const makeValid = () =>
  FIELDS.forEach((f) =>
    say(f, {
      t: 'state',
      event: 'input',
      state: VALID,
      ...(f === 'number' ? { brand: { id: 'visa', name: 'Visa', code: { name: 'CVV', size: 3 } } } : { n: VERSIONS[f] }),
    }),
  );

describe('mountFields', () => {
  it('returns at once with one frame per field, on the frame origin, and ready pending', () => {
    const form = mount();
    expect(document.querySelectorAll('iframe')).toHaveLength(4);
    const url = new URL(iframe('number').src);
    expect(`${url.origin}${url.pathname}`).toBe(`${GATEWAY}/frame/`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ merchant: 'shop-1', gateway: `${GATEWAY}/api/`, field: 'number' });
    const hash = Object.fromEntries(new URLSearchParams(url.hash.slice(1)));
    expect(hash).toEqual({ channel: expect.stringMatching(/^[\da-f]{32}$/), origin: location.origin, config: expect.any(String) });
    // Each frame's own URL (the field in the query): a browser loads one URL's requests one after another.
    expect(new Set(FIELDS.map((f) => iframe(f).src.split('#')[0])).size).toBe(4);
    expect(iframe('number').title).toBe('Card number');
    expect(iframe('cvv').title).toBe('CVC'); // the text of the label around the container
    expect(iframe('name').title).toBe(''); // no label on the page: the frame names it when ready
    expect(iframe('number').getAttribute('style')).toContain('width: 100%');
    expect(document.querySelector('#n')!.className).toBe('payframe-field payframe-field--empty');
    expect(form.ready).toBeInstanceOf(Promise);
  });

  it("cuts a container's color-scheme to what a frame takes (40 characters): a long custom one leaves no frame blank", () => {
    const scheme = `light dark ${'x'.repeat(60)}`;
    const spy = vi.spyOn(window, 'getComputedStyle').mockImplementation(() => ({ colorScheme: scheme }) as CSSStyleDeclaration);
    try {
      mount();
      expect(urlConfig('number').scheme).toBe(scheme.slice(0, 40));
    } finally {
      spy.mockRestore();
    }
  });

  it("gives each frame its config in its URL, posts it again on the frame's load to the exact frame origin, and is ready when every frame is", async () => {
    const form = mount({ locale: 'ar', styles: { base: { color: '#111' } } });
    const onReady = vi.fn();
    form.on('ready', onReady);
    const config = {
      ch: channel(),
      t: 'config',
      locale: 'ar',
      label: 'Expiry',
      fields: FIELDS,
      styles: { base: { color: '#111' } },
      scheme: expect.any(String),
    };
    expect(urlConfig('expiry')).toEqual(config);
    expect(posted('expiry')).toEqual([]);
    load('expiry');
    expect(posted('expiry')).toEqual([[{ ...config, placeholder: undefined }, FRAME_ORIGIN]]);
    for (const f of FIELDS.slice(0, 3)) say(f, { t: 'ready', label: 'L' });
    await settle();
    expect(onReady).not.toHaveBeenCalled();
    say('name', { t: 'ready', label: 'الاسم على البطاقة' });
    await form.ready;
    say('name', { t: 'ready', label: 'الاسم على البطاقة' });
    expect(onReady).toHaveBeenCalledTimes(1);
    expect(iframe('name').title).toBe('الاسم على البطاقة');
  });

  it('ignores messages from another origin, another window, another channel, or of the wrong shape', async () => {
    const form = mount();
    await boot(form);
    const onAny = vi.fn();
    for (const e of ['change', 'focus', 'validityChange', 'brandChange', 'submit'] as const) form.on(e, onAny);
    const before = form.getState();
    const state = { t: 'state', event: 'input', state: VALID };
    say('number', state, { origin: 'https://evil.example' });
    say('number', state, { source: window });
    say('number', state, { source: null });
    say('number', state, { ch: 'f'.repeat(32) });
    say('number', { t: 'state', event: 'input', state: { isValid: true } });
    say('number', { t: 'state', event: 'input', state: { ...VALID, isFocused: 'yes' } });
    say('number', { t: '__proto__', state: VALID });
    say('number', { t: 'constructor' });
    say('number', { t: 'resize', height: -5 });
    window.dispatchEvent(new MessageEvent('message', { data: 'a string', origin: FRAME_ORIGIN, source: win('number') as any }));
    window.dispatchEvent(new MessageEvent('message', { data: null, origin: FRAME_ORIGIN, source: win('number') as any }));
    expect(form.getState()).toEqual(before);
    expect(onAny).not.toHaveBeenCalled();
    expect(iframe('number').style.height).toBe('2.75rem');
  });

  it('reports each frame state as events, the brand, and classes on the containers', async () => {
    const form = mount();
    await boot(form);
    const seen: string[] = [];
    for (const e of ['change', 'focus', 'blur', 'validityChange', 'brandChange', 'submit'] as const) {
      form.on(e, (state, field) => seen.push(`${e}:${field}:${state.brand?.id ?? '-'}`));
    }
    const submit = vi.fn((e: Event) => e.preventDefault());
    document.querySelector('form')!.addEventListener('submit', submit);
    const brand = { id: 'visa', name: 'Visa', code: { name: 'CVV', size: 3 } };
    say('number', { t: 'state', event: 'focus', state: { ...VALID, isEmpty: true, isValid: false, isFocused: true }, brand: null });
    say('number', { t: 'state', event: 'input', state: { ...VALID, isValid: false, isFocused: true }, brand });
    say('number', { t: 'state', event: 'input', state: { ...VALID, isFocused: true }, brand });
    say('number', { t: 'state', event: 'submit', state: { ...VALID, isFocused: true }, brand });
    expect(seen).toEqual([
      'focus:number:-',
      'change:number:visa',
      'brandChange:number:visa',
      'change:number:visa',
      'validityChange:number:visa',
      'submit:number:visa',
    ]);
    expect(submit).toHaveBeenCalledTimes(1);
    expect(document.querySelector('#n')!.className).toBe('payframe-field payframe-field--focused payframe-field--valid');
    // Only the number frame speaks for the brand.
    say('cvv', { t: 'state', event: 'input', state: VALID, brand: { ...brand, id: 'jcb' } });
    expect(form.getState().brand).toEqual(brand);
    say('number', { t: 'state', event: 'blur', state: { ...VALID, isValid: false }, brand });
    expect(document.querySelector('#n')!.className).toBe('payframe-field payframe-field--invalid');
    say('number', { t: 'resize', height: 51.2 });
    expect(iframe('number').style.height).toBe('52px');
  });

  it('refuses to tokenise an incomplete form: invalid_card naming the fields, no token, nothing posted', async () => {
    const form = mount();
    await boot(form);
    say('number', { t: 'state', event: 'input', state: VALID, brand: null });
    const error = await rejection(form.tokenize());
    expect(error).toMatchObject({ code: 'invalid_card', fields: ['expiry', 'cvv', 'name'] });
    expect(authorization).not.toHaveBeenCalled();
    expect(posted('number').filter(([m]) => m.t === 'tokenize')).toEqual([]);
    // Its config at load, and again at ready (the same: the frame applies nothing twice).
    expect(posted('cvv').map(([m]) => m.t)).toEqual(['config', 'config', 'touch']);
    expect(document.querySelector('#c')!.classList.contains('payframe-field--invalid')).toBe(true);
  });

  it("carries each frame's reason on: in the state, and in invalid_card's reasons", async () => {
    const form = mount({ brands: ['visa', 'jcb'] });
    expect(urlConfig('number').brands).toEqual(['visa', 'jcb']); // checked in the frame, passed on as data
    expect(form.getState().fields.cvv!.reason).toBe('empty');
    await boot(form);
    const unsupported = { ...VALID, isValid: false, isPotentiallyValid: false, reason: 'unsupported_brand' };
    say('number', { t: 'state', event: 'input', state: unsupported, brand: null });
    say('expiry', { t: 'state', event: 'input', state: { ...VALID, isValid: false, reason: 'expired' } });
    say('cvv', { t: 'state', event: 'input', state: VALID });
    say('name', { t: 'state', event: 'input', state: VALID });
    expect(form.getState().fields.number!.reason).toBe('unsupported_brand');
    const error = await rejection(form.tokenize());
    expect(error).toMatchObject({
      code: 'invalid_card',
      fields: ['number', 'expiry'],
      reasons: { number: 'unsupported_brand', expiry: 'expired' },
    });
    expect(authorization).not.toHaveBeenCalled();
    expect(posted('number').filter(([m]) => m.t === 'tokenize')).toEqual([]);
  });

  it('hands the number frame the token for one call, and gives the page the frame result', async () => {
    const form = mount();
    await boot(form);
    makeValid();
    const first = form.tokenize();
    const again = form.tokenize(); // a double click makes one call (one tokenize message below)
    const asks = await jobs('number', 'tokenize');
    // With the version of each other field's value the page validated: the number frame uses none older.
    expect(asks).toEqual([
      [{ ch: channel(), t: 'tokenize', id: 1, token: 'token-1', timeoutMs: 15_000, retries: 2, seen: VERSIONS }, FRAME_ORIGIN],
    ]);
    // The other frames are told nothing: their values are with the number frame already.
    for (const f of ['expiry', 'cvv', 'name'] as const) expect(posted(f).filter(([m]) => m.t !== 'config')).toEqual([]);
    const result = {
      nonce: 'n-1',
      brand: 'visa',
      last4: '1111',
      expireMonth: 12,
      expireYear: 2034,
      expiresAt: '2034-01-01T00:00:00Z',
      name: 'A',
    };
    say('expiry', { t: 'result', id: 1, result: { ...result, nonce: 'forged' } }); // not the number frame
    say('number', { t: 'result', id: 1, result });
    await expect(first).resolves.toEqual(result);
    await expect(again).resolves.toEqual(result);
  });

  it('after a 401 fetches one fresh token and asks once more; a second 401 is the error, not a loop', async () => {
    const form = mount();
    await boot(form);
    makeValid();
    const unauthorized = { code: 'unauthorized', message: 'POST …: EXPIRED_CLIENT_TOKEN', status: 401, reason: 'EXPIRED_CLIENT_TOKEN' };
    const call = form.tokenize();
    await jobs('number', 'tokenize');
    say('cvv', { t: 'state', event: 'input', state: VALID, n: 5 }); // the person retyped the CVV meanwhile
    say('number', { t: 'failure', id: 1, error: unauthorized });
    await jobs('number', 'tokenize', 2);
    say('number', { t: 'failure', id: 2, error: unauthorized });
    const error = await rejection(call);
    expect(isPayframeError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'unauthorized', status: 401, reason: 'EXPIRED_CLIENT_TOKEN' });
    expect(
      posted('number')
        .filter(([m]) => m.t === 'tokenize')
        .map(([m]) => [m.id, m.token]),
    ).toEqual([
      [1, 'token-1'],
      [2, 'token-2'],
    ]);
    // The retry is a job of its own: it names the versions of its own moment.
    expect(
      posted('number')
        .filter(([m]) => m.t === 'tokenize')
        .map(([m]) => m.seen.cvv),
    ).toEqual([3, 5]);
    expect(authorization).toHaveBeenCalledTimes(2);
  });

  it('a tokenise aborted by its signal tells the frame to stop and rejects aborted', async () => {
    const form = mount();
    await boot(form);
    makeValid();
    const stop = new AbortController();
    const call = form.tokenize({ signal: stop.signal });
    await jobs('number', 'tokenize');
    stop.abort();
    expect((await rejection(call)).code).toBe('aborted');
    expect(
      posted('number')
        .map(([m]) => m.t)
        .slice(-2),
    ).toEqual(['tokenize', 'cancel']);
  });

  it('times out naming the fields whose frames did not load, and removes the form', async () => {
    vi.useFakeTimers();
    const form = mount({ timeoutMs: 5000 });
    const onError = vi.fn();
    form.on('error', onError);
    load('number');
    say('number', { t: 'ready', label: 'L' });
    say('cvv', { t: 'ready', label: 'L' });
    vi.advanceTimersByTime(5000);
    const error = await rejection(form.ready);
    expect(error).toMatchObject({ code: 'timeout', fields: ['expiry', 'name'] });
    expect(error.message).toContain('expiry, name');
    expect(onError).toHaveBeenCalledWith(error);
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
  });

  describe('a form that cannot load says why as soon as the browser tells', () => {
    /** The browser's report (trusted, as a page script cannot make one), or a script's (`trusted` false). */
    const violation = (blockedURI: string, effectiveDirective = 'frame-src', disposition = 'enforce', trusted = true) =>
      document.dispatchEvent(
        Object.defineProperty(
          Object.assign(new Event('securitypolicyviolation'), { blockedURI, effectiveDirective, disposition }),
          'isTrusted',
          { value: trusted },
        ),
      );

    it("the page's CSP blocked the frames: invalid_config at once, naming frame-src and the frame origin", async () => {
      const form = mount();
      violation('https://elsewhere.example/pixel.png', 'img-src'); // another resource: not the form's business
      violation('https://elsewhere.example/', 'frame-src');
      // An origin that only begins as the frames' does: another host, or another port.
      violation(`${FRAME_ORIGIN}.elsewhere.example/frame/`);
      violation(`${FRAME_ORIGIN}1/frame/`);
      // A report-only policy blocks nothing: the frames load.
      violation(iframe('number').src.split('#')[0]!, 'frame-src', 'report');
      // A page script's event, however it looks, and another page of the frame origin.
      violation(iframe('number').src.split('#')[0]!, 'frame-src', 'enforce', false);
      violation(FRAME_ORIGIN, 'frame-src', 'enforce', false);
      violation(`${FRAME_ORIGIN}/another-page/`);
      await Promise.resolve();
      expect(document.querySelectorAll('iframe')).toHaveLength(4);
      violation(iframe('number').src.split('#')[0]!);
      const error = await rejection(form.ready);
      expect(error).toMatchObject({ code: 'invalid_config', reason: 'FRAME_BLOCKED_BY_CSP', fields: FIELDS });
      expect(error.message).toBe(
        `the number, expiry, cvv, name fields blocked by the page's CSP (frame-src): add ${FRAME_ORIGIN} to its frame-src`,
      );
      expect(document.querySelectorAll('iframe')).toHaveLength(0);
    });

    it("after a failed mount, tokenize() rejects with the mount's own error, not 'the card form was destroyed'", async () => {
      const form = mount();
      violation(iframe('number').src.split('#')[0]!);
      const failed = await rejection(form.ready);
      expect(failed).toMatchObject({ code: 'invalid_config', reason: 'FRAME_BLOCKED_BY_CSP' });
      expect(await rejection(form.tokenize())).toBe(failed);
      form.destroy(); // the page's own clean-up after the failure changes nothing
      expect(await rejection(form.tokenize())).toBe(failed);
    });

    it('a frame whose page arrived but never spoke: network, FRAME_NOT_ANSWERING, the candidates named, a few seconds after its load', async () => {
      vi.useFakeTimers();
      const form = mount({ timeoutMs: 60_000 });
      const failed = rejection(form.ready);
      for (const f of FIELDS) load(f);
      for (const f of ['number', 'expiry', 'name'] as const) say(f, { t: 'ready', label: 'L' });
      vi.advanceTimersByTime(SILENT_MS - 1);
      expect(document.querySelectorAll('iframe')).toHaveLength(4);
      vi.advanceTimersByTime(1);
      const error = await failed;
      expect(error).toMatchObject({ code: 'network', reason: 'FRAME_NOT_ANSWERING', fields: ['cvv'] });
      expect(error.message).toContain(`the cvv field: the page arrived from ${FRAME_ORIGIN}, but no payframe frame spoke in it`);
      for (const cause of ['is unreachable', `refuses this page's origin ${location.origin}`, 'merchantOrigins', 'some other page'])
        expect(error.message).toContain(cause);
      expect(document.querySelectorAll('iframe')).toHaveLength(0);
    });

    it('a frame host that is merely slow: nothing fails before timeoutMs while a page has not arrived', async () => {
      vi.useFakeTimers();
      const form = mount({ timeoutMs: 20_000 });
      vi.advanceTimersByTime(19_000);
      for (const f of FIELDS) load(f);
      for (const f of FIELDS) say(f, { t: 'ready', label: 'L' });
      await form.ready;
      vi.advanceTimersByTime(60_000);
      expect(form.getState().fields.number).toBeDefined();
      expect(document.querySelectorAll('iframe')).toHaveLength(4);
    });

    it('a frame that speaks another version of the protocol: invalid_config, FRAME_VERSION; once ready, an unknown message is ignored', async () => {
      const form = mount();
      say('number', { t: 'hello' }); // what a frame of an older payframe said first
      const error = await rejection(form.ready);
      expect(error).toMatchObject({ code: 'invalid_config', reason: 'FRAME_VERSION', fields: ['number'] });
      expect(error.message).toContain('another version of payframe');

      const next = mount();
      await boot(next);
      say('number', { t: 'hello' });
      expect(document.querySelectorAll('iframe')).toHaveLength(4);
    });
  });

  it('destroy removes frames, classes and listeners, rejects what waits with aborted, and can be called twice', async () => {
    const form = mount();
    const ready = rejection(form.ready);
    form.destroy();
    form.destroy();
    expect((await ready).code).toBe('aborted');
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
    expect(document.querySelector('#n')!.className).toBe('');
    expect((await rejection(form.tokenize())).code).toBe('aborted');
    expect(() => form.focus('number')).not.toThrow();
  });

  it('destroy while a tokenise waits on the frame rejects it with aborted', async () => {
    const form = mount();
    await boot(form);
    makeValid();
    const call = form.tokenize();
    await jobs('number', 'tokenize');
    form.destroy();
    expect((await rejection(call)).code).toBe('aborted');
  });

  it('StrictMode: mount, destroy and mount again in one tick leaves one form in the same containers', async () => {
    const a = mount();
    a.destroy();
    const b = mount();
    expect(document.querySelectorAll('iframe')).toHaveLength(4);
    await boot(b);
    expect((await rejection(a.ready)).code).toBe('aborted');
  });

  it('a page label, a label around the container, or a click in the container asks the frame to focus its input', async () => {
    const form = mount();
    await boot(form);
    for (const [target, field] of [
      ['label[for=n]', 'number'],
      ['label span', 'cvv'],
      ['#e', 'expiry'],
    ] as const) {
      // Never iframe.focus() from the page: Chromium then loses the key after a Tab from another field (issue 17).
      const focus = vi.spyOn(iframe(field), 'focus');
      document.querySelector<HTMLElement>(target)!.click();
      expect(focus).not.toHaveBeenCalled();
      expect(posted(field).at(-1)).toEqual([{ ch: channel(), t: 'focus' }, FRAME_ORIGIN]);
    }
  });

  it('finds a label in the shadow root of its container', async () => {
    const host = document.createElement('div');
    document.body.append(host);
    const root = host.attachShadow({ mode: 'open' });
    root.append(
      Object.assign(document.createElement('label'), { htmlFor: 'sn', textContent: 'Numéro' }),
      Object.assign(document.createElement('div'), { id: 'sn' }),
    );
    const form = mountFields({
      client,
      fields: { number: { container: root.getElementById('sn')! }, expiry: { container: '#e' }, cvv: { container: '#c' } },
    });
    forms.push(form);
    const frame = root.querySelector('iframe')!;
    expect(frame.title).toBe('Numéro');
    // The page posts to a frame that has said it is ready.
    const ch = new URLSearchParams(frame.src.split('#')[1]).get('channel');
    frameLoaded(frame);
    window.dispatchEvent(
      new MessageEvent('message', { data: { ch, t: 'ready', label: 'Numéro' }, origin: FRAME_ORIGIN, source: frame.contentWindow as any }),
    );
    const post = vi.spyOn(frame.contentWindow!, 'postMessage');
    post.mockClear();
    root.querySelector('label')!.click();
    // (happy-dom does not retarget the event for the document's listener: it asks twice.)
    expect(new Set(post.mock.calls.map(([m]) => (m as { t: string }).t))).toEqual(new Set(['focus']));
  });

  it('takes another frame origin, and then only trusts that origin', async () => {
    const form = mount({ frameUrl: 'https://frames.example/pf' });
    expect(iframe('number').src.startsWith('https://frames.example/pf/?')).toBe(true);
    for (const f of FIELDS) say(f, { t: 'ready', label: 'L' }); // from the gateway's origin: not the frames' any more
    let ready = false;
    void form.ready.then(() => (ready = true));
    await settle();
    expect(ready).toBe(false);
    for (const f of FIELDS) load(f);
    expect(posted('number')[0]![1]).toBe('https://frames.example');
    for (const f of FIELDS) say(f, { t: 'ready', label: 'L' }, { origin: 'https://frames.example' });
    await form.ready;
  });

  it.each([
    ['no options', undefined],
    ['a client not made by createClient', { client: { merchantId: 'm', origin: GATEWAY, tokenize() {} } }],
    ['a missing container', { fields: { number: { container: '#nope' }, expiry: { container: '#e' }, cvv: { container: '#c' } } }],
    ['a bad selector', { fields: { number: { container: '##' }, expiry: { container: '#e' }, cvv: { container: '#c' } } }],
    ['one container for two fields', { fields: { number: { container: '#n' }, expiry: { container: '#n' }, cvv: { container: '#c' } } }],
    ['no cvv field', { fields: { number: { container: '#n' }, expiry: { container: '#e' } } }],
    [
      'an unknown field',
      { fields: { number: { container: '#n' }, expiry: { container: '#e' }, cvv: { container: '#c' }, zip: { container: '#name' } } },
    ],
    [
      'a placeholder that is not text',
      { fields: { number: { container: '#n', placeholder: 5 }, expiry: { container: '#e' }, cvv: { container: '#c' } } },
    ],
    [
      'a label that is not text',
      { fields: { number: { container: '#n', label: {} }, expiry: { container: '#e' }, cvv: { container: '#c' } } },
    ],
    [
      'a label JSON cannot carry, on the second field (nothing of the first is left)',
      { fields: { number: { container: '#n' }, expiry: { container: '#e', label: 10n }, cvv: { container: '#c' } } },
    ],
    ['a timeout given as text', { timeoutMs: '5000' }],
    ['an unknown locale', { locale: 'fr' }],
    ['a locale of texts that is no tag', { locale: 'fr_FR', texts: { fr_FR: {} } }],
    [
      'texts that are not data',
      {
        texts: (() => {
          const en: any = {};
          en.self = en;
          return { en };
        })(),
      },
    ],
    [
      'texts too long for the frame URLs',
      { texts: Object.fromEntries(Array.from({ length: 130 }, (_, i) => [`x${i}`, { numberInvalid: 'x'.repeat(200) }])) },
    ],
    ['a zero timeout', { timeoutMs: 0 }],
    ['a brand mark that is not data', { brandMark: 1n }],
    ['a frame URL over plain http', { frameUrl: 'http://frames.example/' }],
    ['a frame URL with a query', { frameUrl: 'https://frames.example/?x=1' }],
    [
      'styles that are not data',
      {
        styles: (() => {
          const a: any = {};
          a.self = a;
          return a;
        })(),
      },
    ],
  ])('refuses %s with invalid_config, and adds nothing to the page', (_, options) => {
    const base = { client, fields: { number: { container: '#n' }, expiry: { container: '#e' }, cvv: { container: '#c' } } };
    let error: any;
    try {
      forms.push(mountFields(options === undefined ? (undefined as any) : ({ ...base, ...options } as any)));
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'invalid_config' });
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
    expect(document.querySelector('.payframe-field')).toBeNull();
  });

  it('leaves to the frames what they check where they apply it: a long label, a brand mark as text, a brand on a full form', async () => {
    const label = 'x'.repeat(201);
    const form = mount({
      fields: { number: { container: '#n', label }, expiry: { container: '#e' }, cvv: { container: '#c' } },
      brandMark: 'no',
      brand: 'visa',
    });
    expect(urlConfig('number')).toMatchObject({ label, brandMark: 'no', brand: 'visa' });
    // The frame's refusal rejects `ready` and says `error`.
    const onError = vi.fn();
    form.on('error', onError);
    say('number', { t: 'failure', id: 0, error: { code: 'invalid_config', message: 'mountFields: brandMark must be true or false' } });
    expect(await rejection(form.ready)).toMatchObject({ code: 'invalid_config', message: 'mountFields: brandMark must be true or false' });
    expect(onError).toHaveBeenCalled();
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
  });

  it("refuses frames on the page's own origin: a script of the page could read the card out of them", () => {
    let error: any;
    try {
      mount({ frameUrl: `${location.origin}/frames/` });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'invalid_config', message: expect.stringContaining('frameUrl') });
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
  });

  it('with a live gateway and no frameUrl, rejects ready at once naming frameUrl and createFrameHost, with no iframe', async () => {
    vi.useFakeTimers(); // no timer runs: the refusal comes without waiting for the frames' timeout
    client = createClient({ merchantId: 'shop-1', baseUrl: 'https://api.ompay.com', authorization });
    const form = mount();
    const errors: unknown[] = [];
    form.on('error', (e) => errors.push(e));
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
    const error = await rejection(form.ready);
    expect(error).toMatchObject({ name: 'PayframeError', code: 'invalid_config' });
    expect(error.message).toMatch(/frameUrl.*createFrameHost/);
    expect(errors).toEqual([error]);
    expect(authorization).not.toHaveBeenCalled();
  });

  it('with a live gateway and a frameUrl, puts the frames there', () => {
    client = createClient({ merchantId: 'shop-1', baseUrl: 'https://api.ompay.com', authorization });
    mount({ frameUrl: 'https://frames.shop.example/card' });
    const url = new URL(iframe('number').src);
    expect(`${url.origin}${url.pathname}`).toBe('https://frames.shop.example/card/');
    expect(url.searchParams.get('gateway')).toBe('https://api.ompay.com/');
  });

  it('refuses a second form in containers in use, until the first is destroyed', () => {
    const first = mount();
    expect(() => mount()).toThrow(expect.objectContaining({ code: 'invalid_config' }));
    first.destroy();
    expect(() => mount()).not.toThrow();
  });

  it('setLocale sends every frame its config again, in the new locale, with the labels as the page has them now', async () => {
    const form = mount();
    await boot(form);
    document.querySelector('label[for=n]')!.textContent = 'رقم البطاقة';
    form.setLocale('ar');
    expect(posted('number').at(-1)).toEqual([expect.objectContaining({ t: 'config', locale: 'ar', label: 'رقم البطاقة' }), FRAME_ORIGIN]);
    expect(posted('name').at(-1)).toEqual([expect.objectContaining({ t: 'config', locale: 'ar', label: undefined }), FRAME_ORIGIN]);
    expect(() => form.setLocale('fr' as any)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });

  it("passes the merchant's texts to every frame, in its URL and posted, and setLocale brings new ones", async () => {
    const en = { en: { numberInvalid: 'Not a card number.' } };
    const form = mount({ texts: en });
    const inUrl = JSON.parse(new URLSearchParams(iframe('cvv').src.split('#')[1]).get('config')!);
    expect(inUrl).toMatchObject({ locale: 'en', texts: en });
    await boot(form);
    expect(posted('cvv')[0]).toEqual([expect.objectContaining({ t: 'config', locale: 'en', texts: en }), FRAME_ORIGIN]);
    // The texts stay with another locale; a locale of one's own comes with its texts, which replace them.
    form.setLocale('ar');
    expect(posted('number').at(-1)![0]).toMatchObject({ locale: 'ar', texts: en });
    const fr = { fr: { dir: 'ltr', numberLabel: 'Numéro' } };
    form.setLocale('fr', fr);
    expect(posted('name').at(-1)![0]).toMatchObject({ locale: 'fr', texts: fr });
    expect(() => form.setLocale('de')).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    expect(posted('name').at(-1)![0]).toMatchObject({ locale: 'fr', texts: fr });
  });

  it('setDisabled and setStyles send every frame its config again, which a frame loaded later gets too; bad input is refused', async () => {
    const form = mount({ styles: { base: { color: 'red' } } });
    form.setDisabled(true); // before any frame has loaded: kept for their configs
    await boot(form);
    expect(posted('number')[0]).toEqual([
      expect.objectContaining({ t: 'config', disabled: true, styles: { base: { color: 'red' } } }),
      FRAME_ORIGIN,
    ]);
    form.setStyles({ base: { color: 'blue' } });
    for (const field of FIELDS)
      expect(posted(field).at(-1)).toEqual([
        expect.objectContaining({ t: 'config', disabled: true, styles: { base: { color: 'blue' } } }),
        FRAME_ORIGIN,
      ]);
    form.setDisabled(false);
    expect(posted('cvv').at(-1)).toEqual([expect.objectContaining({ t: 'config', disabled: false, locale: 'en' }), FRAME_ORIGIN]);
    expect(() => form.setDisabled('yes' as any)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    const loop: any = {};
    loop.self = loop;
    expect(() => form.setStyles(loop)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    const numberWindow = win('number');
    const sent = numberWindow.postMessage.mock.calls.length;
    form.destroy();
    form.setDisabled(true); // a destroyed form has no frame to tell: no error
    expect(numberWindow.postMessage.mock.calls).toHaveLength(sent);
  });

  it('setStyles(undefined) takes the styles away: no frame keeps the old ones', async () => {
    const form = mount({ styles: { base: { color: 'red' } } });
    await boot(form);
    form.setStyles(undefined);
    for (const field of FIELDS) expect(posted(field).at(-1)![0]).toMatchObject({ t: 'config', styles: undefined });
    // A frame that loads again gets none either.
    load('cvv');
    expect(posted('cvv').at(-1)![0]).toMatchObject({ t: 'config', styles: undefined });
  });

  it("a setDisabled between a frame's load and its ready reaches that frame when it says ready", async () => {
    const form = mount();
    load('number'); // its config posted at load: not disabled yet
    expect(posted('number').at(-1)![0]).toMatchObject({ t: 'config' });
    expect(posted('number').at(-1)![0].disabled).toBeFalsy();
    form.setDisabled(true); // the number frame has loaded, but not said ready: the change is not posted now
    for (const f of FIELDS.filter((f) => f !== 'number')) load(f);
    for (const f of FIELDS) say(f, { t: 'ready', label: 'L' });
    await form.ready;
    // Every frame ends with the config of the moment: disabled, the number frame too.
    for (const field of FIELDS) expect(posted(field).at(-1)![0]).toMatchObject({ t: 'config', disabled: true });
  });

  it('passes brandMark to the frames in their config (they draw the mark and check it again)', () => {
    mount({ brandMark: false });
    expect(urlConfig('number')).toMatchObject({ brandMark: false });
  });

  it('refuses an unknown event or a handler that is not a function', () => {
    const form = mount();
    expect(() => form.on('nonce' as any, () => {})).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    expect(() => form.on('change', 'log' as any)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });

  it('a form destroyed while its token is fetched rejects aborted at once, and asks no frame', async () => {
    let release!: (token: string) => void;
    authorization.mockImplementationOnce(() => new Promise<string>((r) => (release = r)));
    const form = mount();
    await boot(form);
    makeValid();
    const call = form.tokenize();
    await vi.waitFor(() => expect(authorization).toHaveBeenCalled());
    const numberWindow = win('number');
    form.destroy();
    expect((await rejection(call)).code).toBe('aborted');
    release('late-token');
    await settle();
    expect(numberWindow.postMessage.mock.calls.filter(([m]) => m.t === 'tokenize')).toEqual([]);
  });

  it('refuses an unknown field name in its methods', async () => {
    const form = mountFields({ client, fields: { number: { container: '#n' }, expiry: { container: '#e' }, cvv: { container: '#c' } } });
    forms.push(form);
    expect(() => form.focus('name')).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    expect(() => form.setPlaceholder('number', 5 as any)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    await boot(form, ['number', 'expiry', 'cvv']);
    form.setPlaceholder('number', '0000');
    expect(posted('number').at(-1)).toEqual([{ ch: channel(), t: 'placeholder', text: '0000' }, FRAME_ORIGIN]);
  });

  it('posts nothing to a frame before it has loaded (its window is not on the frame origin yet): its config, at its load, has it all', () => {
    const form = mount();
    form.setLocale('ar');
    form.setPlaceholder('number', '0000 0000');
    form.focus('number');
    expect(posted('number')).toEqual([]);
    load('number');
    expect(posted('number')).toEqual([[expect.objectContaining({ t: 'config', locale: 'ar', placeholder: '0000 0000' }), FRAME_ORIGIN]]);
  });
});
