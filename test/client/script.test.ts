// @vitest-environment happy-dom
// src/script.ts, the entry of dist/payframe.umd.min.js (the hosted form's script-tag bundle): the
// names a hosted checkout uses, and a typed error naming the full bundle for what takes the card on
// the page itself.
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as full from '../../src/index';
import * as script from '../../src/script';
import { rejection } from './helpers';

afterEach(() => vi.restoreAllMocks());

describe('the hosted form script-tag entry', () => {
  it('exports what a hosted checkout uses, the same functions as the full entry where they are real', () => {
    expect(Object.keys(script).sort()).toEqual([
      'PayframeError',
      'attachForm',
      'collectBrowserInfo',
      'createClient',
      'handlePending',
      'isPayframeError',
      'mountFields',
      'readReturn',
    ]);
    for (const name of ['PayframeError', 'collectBrowserInfo', 'isPayframeError', 'mountFields', 'readReturn'] as const) {
      expect(script[name]).toBe(full[name]);
    }
    // Its own: it loads the pending flow from the file beside the bundle (e2e/pending.spec.ts runs it there).
    expect(script.handlePending).not.toBe(full.handlePending);
    expect('validateNumber' in script).toBe(false);
  });

  it('refuses handlePending with invalid_config when the bundle was not loaded by a <script src>: nothing asked for, shown or inserted', async () => {
    // Here, as in a bundle inlined in the page or bundled into the merchant's code, no <script src> was running it.
    document.body.innerHTML = '<div id="otp"><p>before</p></div>';
    const before = document.documentElement.outerHTML;
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const pending = { referenceId: 'PAY-1', sessionId: '0'.repeat(32), redirectUrl: 'https://gw.example/v1/redirect/x' };
    const client = script.createClient({ merchantId: 'm', authorization: 't', baseUrl: 'https://gw.example' });
    const options = { client, mode: 'otp' as const, container: '#otp', submitOtp: async () => ({}) };
    for (let call = 0; call < 2; call++) {
      const error = await rejection(script.handlePending(pending, options));
      expect(error).toBeInstanceOf(full.PayframeError);
      expect(error.code).toBe('invalid_config');
      expect(error.message).toBe(
        'handlePending: payframe.umd.min.js, not loaded by a <script src>, cannot find its pending file; use payframe.full.umd.min.js',
      );
    }
    expect(document.documentElement.outerHTML).toBe(before);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('checks createClient options as the full entry does', () => {
    expect(() => script.createClient({ merchantId: 'm', authorization: 't', baseUrl: 'http://gw.example' })).toThrowError(
      expect.objectContaining({ code: 'invalid_config' }),
    );
  });

  it('refuses client.tokenize with invalid_config naming the full bundle, asking for no token and sending nothing', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const authorization = vi.fn(async () => 'token');
    const client = script.createClient({ merchantId: 'm', authorization, baseUrl: 'https://gw.example' });
    const error = await rejection(client.tokenize({ number: '4111111111111111', expireMonth: 12, expireYear: 2034, cvv: '123' }));
    expect(error).toBeInstanceOf(full.PayframeError);
    expect(error.code).toBe('invalid_config');
    expect(error.message).toBe("client.tokenize is in payframe.full.umd.min.js, not in the hosted form's bundle");
    expect(authorization).not.toHaveBeenCalled();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('gives mountFields the client it makes (the hosted form needs no client.tokenize)', () => {
    const client = script.createClient({ merchantId: 'm', authorization: 't', baseUrl: 'https://gw.example' });
    // Past the client check: the next check refuses the missing fields, not the client.
    expect(() => script.mountFields({ client } as never)).toThrowError(expect.objectContaining({ code: 'invalid_config' }));
    expect(() => script.mountFields({ client } as never)).not.toThrowError(/createClient/);
  });

  it('refuses attachForm with invalid_config naming the full bundle', () => {
    expect(() => script.attachForm({} as never)).toThrowError(
      expect.objectContaining({
        code: 'invalid_config',
        message: "attachForm is in payframe.full.umd.min.js, not in the hosted form's bundle",
      }),
    );
  });
});
