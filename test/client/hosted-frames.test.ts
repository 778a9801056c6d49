// @vitest-environment happy-dom
// mountFields, the page side of the hosted form (test/client/hosted-stage.ts), in part: the iframes: made in their containers with their address and config, heard as they load, watched until ready, and where they may go.
import { describe, expect, it, vi } from 'vitest';
import { createClient, mountFields } from '../../src';
import { SILENT_MS } from '../../src/client/form/load-watch';
import {
  GATEWAY,
  FRAME_ORIGIN,
  FIELDS,
  authorization,
  client,
  mount,
  iframe,
  posted,
  channel,
  say,
  load,
  urlConfig,
  boot,
  settle,
  rejection,
  useClient,
  hostedPage,
  forms,
} from './hosted-stage';

hostedPage();

describe('mountFields: its frames', () => {
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
    useClient(createClient({ merchantId: 'shop-1', baseUrl: 'https://api.ompay.com', authorization }));
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
    useClient(createClient({ merchantId: 'shop-1', baseUrl: 'https://api.ompay.com', authorization }));
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
