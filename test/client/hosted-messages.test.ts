// @vitest-environment happy-dom
// mountFields, the page side of the hosted form (test/client/hosted-stage.ts), in part: the one handler of what the frames say: who may speak, a field's state as events and classes, a frame ready.
import { describe, expect, it, vi } from 'vitest';
import {
  FRAME_ORIGIN,
  FIELDS,
  VALID,
  authorization,
  mount,
  iframe,
  win,
  posted,
  say,
  load,
  urlConfig,
  boot,
  rejection,
  hostedPage,
} from './hosted-stage';

hostedPage();

describe('mountFields: what its frames say', () => {
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

  it("carries each frame's reason on: in the state, and in invalid_card's reasons", async () => {
    // The token fetch of the form's ready fails, so that a fetch of the refused call would show as a second one.
    authorization.mockRejectedValueOnce(new Error('the shop is down'));
    const form = mount({ brands: ['visa', 'jcb'] });
    expect(urlConfig('number').brands).toEqual(['visa', 'jcb']); // checked in the frame, passed on as data
    expect(form.getState().fields.cvv!.reason).toBe('empty');
    await boot(form);
    await vi.waitFor(() => expect(authorization).toHaveBeenCalledTimes(1));
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
    await new Promise((r) => setTimeout(r, 0));
    expect(authorization).toHaveBeenCalledTimes(1); // at ready only
    expect(posted('number').filter(([m]) => m.t === 'tokenize')).toEqual([]);
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
});
