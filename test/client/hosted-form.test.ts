// @vitest-environment happy-dom
// mountFields, the page side of the hosted form (test/client/hosted-stage.ts), in part: the form's state and events and the CardForm object: destroy, focus by a click, the setters, on(), the fields it has.
import { describe, expect, it, vi } from 'vitest';
import { mountFields } from '../../src';
import {
  FRAME_ORIGIN,
  FIELDS,
  client,
  mount,
  iframe,
  win,
  posted,
  channel,
  load,
  urlConfig,
  boot,
  rejection,
  hostedPage,
  forms,
} from './hosted-stage';
import { frameLoaded } from './stand-in-frames';

hostedPage();

describe('mountFields: the form', () => {
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

  it('passes brandMark to the frames in their config (they draw the mark and check it again)', () => {
    mount({ brandMark: false });
    expect(urlConfig('number')).toMatchObject({ brandMark: false });
  });

  it('refuses an unknown event or a handler that is not a function', () => {
    const form = mount();
    expect(() => form.on('nonce' as any, () => {})).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    expect(() => form.on('change', 'log' as any)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
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
});
