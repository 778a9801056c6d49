// @vitest-environment happy-dom
// attachForm on the merchant's own inputs: the same formatting, validity, events and refusals as the
// hosted fields (the direct tokenise path against the sandbox is in e2e/attach-form.spec.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { attachForm, type CardForm, createClient } from '../../src';

let form: CardForm | undefined;
const client = createClient({ merchantId: 'm', baseUrl: 'https://gw.example', authorization: 'token' });
const $ = (id: string) => document.getElementById(id) as HTMLInputElement;

/** Types text at the caret, key by key, as the browser reports it to the page. */
function type(el: HTMLInputElement, text: string) {
  el.focus();
  for (const key of text) {
    const at = el.selectionStart ?? el.value.length;
    el.value = el.value.slice(0, at) + key + el.value.slice(el.selectionEnd ?? at);
    el.setSelectionRange(at + 1, at + 1);
    el.dispatchEvent(new InputEvent('input', { inputType: 'insertText', data: key, bubbles: true }));
  }
}

beforeEach(() => {
  document.body.innerHTML = '<form><input id="n"><input id="e"><input id="c"><input id="h"></form>';
});
afterEach(() => {
  form?.destroy();
  vi.restoreAllMocks();
});

describe('attachForm', () => {
  it('formats, validates and reports as the person types', async () => {
    form = attachForm({ client, number: '#n', expiry: $('e'), cvv: '#c' });
    const seen: string[] = [];
    for (const e of ['ready', 'change', 'brandChange', 'validityChange', 'focus', 'blur', 'submit'] as const) {
      form.on(e, (state, field) => seen.push(`${e}:${field ?? ''}:${state.brand?.id ?? ''}`));
    }
    await form.ready;
    type($('n'), '٣٧٨٢٨٢٢٤٦٣١٠٠٠٥');
    expect($('n').value).toBe('3782 822463 10005');
    expect($('n').className).toBe('payframe-field payframe-field--focused payframe-field--valid');
    type($('c'), '12345');
    expect($('c').value).toBe('1234');
    $('c').dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    expect(seen.filter((s) => !s.startsWith('change') && !s.startsWith('validity'))).toEqual([
      'ready::',
      'focus:number:',
      'brandChange:number:american-express',
      'blur:number:american-express',
      'focus:cvv:american-express',
      'submit:cvv:american-express',
    ]);
    expect(form.getState().fields.cvv).toEqual({ isEmpty: false, isValid: true, isPotentiallyValid: true, isFocused: true });
  });

  it('setDisabled disables and enables the merchant’s own inputs, keeping what was typed', async () => {
    form = attachForm({ client, number: '#n', expiry: '#e', cvv: '#c' });
    type($('n'), '4111');
    form.setDisabled(true);
    expect(['n', 'e', 'c'].map((id) => $(id).disabled)).toEqual([true, true, true]);
    expect($('h').disabled).toBe(false); // not the form's
    form.setDisabled(false);
    expect(['n', 'e', 'c'].map((id) => $(id).disabled)).toEqual([false, false, false]);
    expect($('n').value).toBe('4111');
    expect(() => form!.setDisabled(1 as any)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });

  it("refuses an incomplete card with the form's field names, sends nothing, and marks the fields", async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    form = attachForm({ client, number: '#n', expiry: '#e', cvv: '#c', name: '#h' });
    type($('n'), '4111111111111111');
    type($('e'), '13');
    const error = await form.tokenize().catch((e) => e);
    expect(error).toMatchObject({ code: 'invalid_card', fields: ['expiry', 'cvv', 'name'] });
    expect(fetch).not.toHaveBeenCalled();
    expect($('e').getAttribute('aria-invalid')).toBe('true');
    expect($('h').getAttribute('aria-invalid')).toBe('true');
    expect($('n').getAttribute('aria-invalid')).toBe('false');
    expect([$('n').value, $('e').value]).toEqual(['4111 1111 1111 1111', '01 / 3']);
  });

  it('says why each field is refused, and sends nothing for a brand the merchant does not take', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    form = attachForm({ client, number: '#n', expiry: '#e', cvv: '#c' });
    type($('n'), '3530111333300000'); // JCB: not among the default brands
    type($('e'), '0120');
    type($('c'), '123');
    expect(form.getState().fields.number).toMatchObject({ isValid: false, isPotentiallyValid: false, reason: 'unsupported_brand' });
    expect($('n').getAttribute('aria-invalid')).toBe('true');
    const error = await form.tokenize().catch((e) => e);
    expect(error).toMatchObject({
      code: 'invalid_card',
      fields: ['number', 'expiry'],
      reasons: { number: 'unsupported_brand', expiry: 'expired' },
    });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('takes the brands the merchant names, and refuses a list that is not one', () => {
    form = attachForm({ client, number: '#n', expiry: '#e', cvv: '#c', brands: ['jcb'] });
    type($('n'), '3530111333300000');
    expect(form.getState().fields.number).toEqual({ isEmpty: false, isValid: true, isPotentiallyValid: true, isFocused: true });
    form.destroy();
    for (const brands of [[], ['amex'], 'visa'])
      expect(() => attachForm({ client, number: '#n', expiry: '#e', cvv: '#c', brands: brands as never })).toThrow(
        expect.objectContaining({
          code: 'invalid_config',
          message: expect.stringContaining('attachForm: brands must be a non-empty list'),
        }),
      );
  });

  it('destroy lets the inputs go: no more formatting, no classes, and it can be called twice', () => {
    form = attachForm({ client, number: '#n', expiry: '#e', cvv: '#c' });
    form.destroy();
    form.destroy();
    type($('n'), '41111');
    expect($('n').value).toBe('41111');
    expect($('n').className).toBe('');
    expect($('n').hasAttribute('aria-invalid')).toBe(false);
  });

  it('detaches when its signal aborts', () => {
    const stop = new AbortController();
    form = attachForm({ client, number: '#n', expiry: '#e', cvv: '#c', signal: stop.signal });
    stop.abort();
    expect($('n').className).toBe('');
  });

  it.each([
    ['a missing input', { number: '#nope', expiry: '#e', cvv: '#c' }],
    ['an element that is not an input', { number: 'form', expiry: '#e', cvv: '#c' }],
    ['no cvv', { number: '#n', expiry: '#e' }],
    ['a foreign client', { client: { merchantId: 'm', origin: 'https://x', tokenize() {} }, number: '#n', expiry: '#e', cvv: '#c' }],
  ])('refuses %s with invalid_config and binds nothing', (_, options) => {
    expect(() => attachForm({ client, ...options } as any)).toThrow(expect.objectContaining({ code: 'invalid_config' }));
    expect(document.querySelector('.payframe-field')).toBeNull();
  });
});
