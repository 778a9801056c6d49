import { describe, expect, it } from 'vitest';
import { frameSrc, newChannel, postTarget, readFrameAddress, readSibling, readToFrame, readToPage } from '../../src/protocol';
import { readConfig } from '../../src/protocol/guards';
import type { Config } from '../../src/protocol/messages';
import type { FrameAddress } from '../../src/protocol/address';
import { isAnswer } from '../../src/protocol/job-answer';

const ch = 'a'.repeat(32);
const state = { isEmpty: false, isValid: true, isPotentiallyValid: true, isFocused: false };
const brand = { id: 'visa', name: 'Visa', code: { name: 'CVV', size: 3 } };
const result = { nonce: 'n', brand: 'visa', last4: '1111', expireMonth: 1, expireYear: 2030, expiresAt: 't' };

describe('readToPage (frame → page)', () => {
  it.each([
    { t: 'ready', label: 'Card number' },
    { t: 'state', event: 'input', state, brand },
    { t: 'state', event: 'input', state, n: 3 },
    { t: 'state', event: 'focus', state, brand: null },
    { t: 'state', state },
    { t: 'state', state: { ...state, isValid: false, isPotentiallyValid: false, reason: 'unsupported_brand' } },
    { t: 'resize', height: 44 },
    { t: 'result', id: 1, result },
    { t: 'result', id: 1, result: { ...result, brand: undefined, name: 'A' } },
    { t: 'posted', id: 3, body: { status: 'approved' } },
    { t: 'posted', id: 3, body: null },
    { t: 'failure', id: 3, error: { code: 'not_found', message: 'm', status: 404, body: { error: { code: 'not_found' } } } },
    { t: 'failure', id: 0, error: { code: 'invalid_config', message: 'mountFields: brand …' } },
    { t: 'failure', id: 2, error: { code: 'invalid_card', message: 'm', fields: ['cvv'] } },
    { t: 'failure', id: 2, error: { code: 'invalid_card', message: 'm', fields: ['number'], reasons: { number: 'unsupported_brand' } } },
    { t: 'failure', id: 2, error: { code: 'unauthorized', message: 'm', status: 401, reason: 'R', resultCode: '5081', eventId: 'e' } },
  ])('reads %j', (m) => {
    expect(readToPage({ ...m, ch }, ch)).toEqual({ ...m, ch });
  });

  it.each([
    ['another channel', { t: 'ready', label: 'L', ch: 'b'.repeat(32) }],
    ['no channel', { t: 'ready', label: 'L' }],
    ['hello, which frames of an older payframe said', { t: 'hello', ch }],
    ['an unknown type', { t: 'nonce', ch }],
    ['ready without a label', { t: 'ready', ch }],
    ['a prototype key as type', { t: '__proto__', ch }],
    ['constructor as type', { t: 'constructor', ch }],
    ['a state that misses a flag', { t: 'state', ch, event: 'input', state: { isEmpty: true } }],
    ['a state flag that is not a boolean', { t: 'state', ch, event: 'input', state: { ...state, isValid: 1 } }],
    ['a reason that is not text', { t: 'state', ch, event: 'input', state: { ...state, reason: 7 } }],
    ['an unknown event', { t: 'state', ch, event: 'click', state }],
    ['a version that is text', { t: 'state', ch, event: 'input', state, n: '3' }],
    ['a negative version', { t: 'state', ch, event: 'input', state, n: -1 }],
    ['a brand without a code', { t: 'state', ch, state, brand: { id: 'visa', name: 'Visa' } }],
    ['a negative height', { t: 'resize', ch, height: -1 }],
    ['an infinite height', { t: 'resize', ch, height: Infinity }],
    ['a result without an id', { t: 'result', ch, result }],
    ['a post answer without an id', { t: 'posted', ch, body: {} }],
    ['a job answer of id 0', { t: 'result', ch, id: 0, result }],
    ['an id that is text', { t: 'result', ch, id: '1', result }],
    ['a refused config without a message', { t: 'failure', ch, id: 0, error: { code: 'invalid_config' } }],
    ['a string', 'hello'],
    ['null', null],
    ['an array', [ch]],
  ])('ignores %s', (_, m) => {
    expect(readToPage(m, ch)).toBeUndefined();
  });
});

describe("isAnswer (a job's answer, read whole when its job takes it)", () => {
  it.each([
    { t: 'result', id: 1, result },
    { t: 'result', id: 1, result: { ...result, brand: undefined, name: 'A' } },
    { t: 'posted', id: 3, body: null },
    { t: 'failure', id: 2, error: { code: 'invalid_card', message: 'm', fields: ['number'], reasons: { number: 'unsupported_brand' } } },
  ])('reads %j', (m) => {
    expect(isAnswer(m)).toBe(true);
  });

  it.each([
    ['reasons that are not an object', { t: 'failure', id: 2, error: { code: 'invalid_card', message: 'm', reasons: 'number' } }],
    ['a result without a nonce', { t: 'result', id: 1, result: { ...result, nonce: undefined } }],
    ['an error with a field we do not have', { t: 'failure', id: 1, error: { code: 'invalid_card', message: 'm', fields: ['pin'] } }],
    ['an error without a message', { t: 'failure', id: 1, error: { code: 'network' } }],
    ['a post answer without a body', { t: 'posted', id: 1 }],
    ['a message of another type', { t: 'ready', id: 1, label: 'L' }],
  ])('refuses %s', (_, m) => {
    expect(isAnswer(m)).toBe(false);
  });
});

describe('readToFrame (page → frame)', () => {
  const config = { t: 'config', locale: 'en', label: 'Card number', fields: ['number', 'expiry', 'cvv'] };
  it.each([
    config,
    { ...config, locale: 'ar', placeholder: 'x', styles: { base: {} }, fonts: [], scheme: 'light dark' },
    { t: 'focus' },
    { t: 'clear' },
    { t: 'touch' },
    { t: 'placeholder', text: '1234' },
    { t: 'tokenize', id: 1, token: 'tok.en-_~+/=', timeoutMs: 15_000, retries: 2, seen: { expiry: 3, cvv: 0, name: 12 } },
    { t: 'tokenize', id: 1, token: 't', timeoutMs: 15_000, retries: 0, seen: {} },
    { t: 'tokenize', id: 1, token: 't'.repeat(4096), timeoutMs: 15_000, retries: 0, seen: {} },
    { t: 'cancel', id: 1 },
    { ...config, fields: ['cvv'], brand: 'american-express' },
    { ...config, locale: 'pt-BR', texts: { 'pt-BR': { numberLabel: '<b>Número</b>' } } },
    { ...config, brandMark: false, disabled: true },
    { t: 'post', id: 1, url: 'https://shop.example/pay', body: { ticket: 't' }, timeoutMs: 15_000 },
  ])('reads %j', (m) => {
    expect(readToFrame({ ...m, ch }, ch)).toEqual({ ...m, ch });
  });

  it.each([
    // A locale the frame does not ship passes only with texts for it (the frame checks them), and only as a tag.
    ['a locale we do not speak, and no texts for it', { ...config, locale: 'fr' }],
    ['a locale the texts do not give', { ...config, locale: 'fr', texts: { de: {} } }],
    ['a locale that is no BCP 47 tag', { ...config, locale: 'fr_FR', texts: { fr_FR: {} } }],
    ['a locale too long for a tag', { ...config, locale: `fr-${'a1234567-'.repeat(4)}x` }],
    ['a field we do not have', { ...config, fields: ['number', 'pin'] }],
    ['a label of a page', { ...config, label: 'x'.repeat(201) }],
    ['a token with a line break', { t: 'tokenize', id: 1, token: 'a\r\nb', timeoutMs: 1, retries: 0, seen: {} }],
    ['a token with a space', { t: 'tokenize', id: 1, token: 'a b', timeoutMs: 1, retries: 0, seen: {} }],
    ['an empty token', { t: 'tokenize', id: 1, token: '', timeoutMs: 1, retries: 0, seen: {} }],
    [
      'a token longer than a client takes (client/core)',
      { t: 'tokenize', id: 1, token: 't'.repeat(4097), timeoutMs: 1, retries: 0, seen: {} },
    ],
    ['no time to answer', { t: 'tokenize', id: 1, token: 't', timeoutMs: 0, retries: 0, seen: {} }],
    ['more time than a timer holds', { t: 'tokenize', id: 1, token: 't', timeoutMs: 2 ** 31, retries: 0, seen: {} }],
    ['a time that is not a number', { t: 'tokenize', id: 1, token: 't', timeoutMs: '9', retries: 0, seen: {} }],
    ['endless retries', { t: 'tokenize', id: 1, token: 't', timeoutMs: 1, retries: 1e6, seen: {} }],
    ['a placeholder that is not text', { t: 'placeholder', text: 5 }],
    ['a cancel without an id', { t: 'cancel' }],
    ['a tokenize that names no versions', { t: 'tokenize', id: 1, token: 't', timeoutMs: 1, retries: 0 }],
    ['versions that are not an object', { t: 'tokenize', id: 1, token: 't', timeoutMs: 1, retries: 0, seen: 3 }],
    ['a version that is text', { t: 'tokenize', id: 1, token: 't', timeoutMs: 1, retries: 0, seen: { cvv: '3' } }],
    ['a negative version', { t: 'tokenize', id: 1, token: 't', timeoutMs: 1, retries: 0, seen: { cvv: -1 } }],
    ['a version that is no number', { t: 'tokenize', id: 1, token: 't', timeoutMs: 1, retries: 0, seen: { cvv: NaN } }],
    ['a share, which frames of an older payframe took', { t: 'share', id: 1 }],
    ['a brand that is not text', { ...config, brand: 7 }],
    ['a brand mark that is not true or false', { ...config, brandMark: 'no' }],
    ['disabled that is not true or false', { ...config, disabled: 1 }],
    ['a post body that is an array', { t: 'post', id: 1, url: 'https://shop.example/pay', body: [], timeoutMs: 1 }],
    ['a post body that is text', { t: 'post', id: 1, url: 'https://shop.example/pay', body: 'cvv', timeoutMs: 1 }],
    ['a post without a URL', { t: 'post', id: 1, body: {}, timeoutMs: 1 }],
    ['a post URL too long', { t: 'post', id: 1, url: `https://shop.example/${'x'.repeat(2048)}`, body: {}, timeoutMs: 1 }],
    ['a post with no time to answer', { t: 'post', id: 1, url: 'https://shop.example/pay', body: {}, timeoutMs: 0 }],
  ])('ignores %s', (_, m) => {
    expect(readToFrame({ ...m, ch }, ch)).toBeUndefined();
    expect(readToFrame({ ...config, ch: 'b'.repeat(32) }, ch)).toBeUndefined();
  });
});

describe('readSibling (frame ↔ frame)', () => {
  it.each([
    { t: 'ask' },
    { t: 'value', field: 'cvv', value: '123', n: 3 },
    { t: 'value', field: 'expiry', value: '', n: 0 },
    { t: 'sizes', sizes: [3] },
  ])('reads %j', (m) => {
    expect(readSibling({ ...m, ch }, ch)).toEqual({ ...m, ch });
  });
  it.each([
    { t: 'value', field: 'pin', value: '1', n: 1 },
    { t: 'value', field: 'cvv', value: 'x'.repeat(257), n: 1 },
    { t: 'value', field: 'cvv', value: '123', n: '1' },
    { t: 'value', field: 'cvv', value: '123', n: -1 },
    { t: 'value', field: 'cvv', value: '123' },
    { t: 'value', field: 'cvv', n: 1 },
    { t: 'sizes', sizes: [] },
    { t: 'sizes', sizes: [3.5] },
    { t: 'collect', id: '1' },
    { t: 'share', id: 1 },
  ])('ignores %j', (m) => {
    expect(readSibling({ ...m, ch }, ch)).toBeUndefined();
  });
  it('ignores a value on another channel', () => {
    expect(readSibling({ t: 'value', field: 'cvv', value: '123', n: 1, ch: 'b'.repeat(32) }, ch)).toBeUndefined();
  });
});

/** A mount's config as the page puts it in a frame's URL. */
const configOn = (ch: string): Config => ({
  ch,
  t: 'config',
  locale: 'en',
  label: 'Card number',
  fields: ['number', 'expiry', 'cvv'],
  styles: { input: { color: '#123' } },
});

describe('the frame address', () => {
  const channel = newChannel();
  const address = {
    merchant: 'shop/1 & co',
    gateway: 'https://gw.example/api/',
    field: 'number',
    channel,
    origin: 'https://shop.example:8443',
    config: configOn(channel),
  } as const;

  it('goes into the URL and back; the field in the query, the channel, the page origin and the config in the fragment', () => {
    const src = frameSrc('https://gw.example/frame/', address);
    const url = new URL(src);
    expect(url.search).not.toContain(address.channel);
    expect(url.hash).toContain(address.channel);
    // Each field's frame has a URL of its own: a browser loads one URL's requests one after another.
    expect(url.searchParams.get('field')).toBe('number');
    expect(new URL(frameSrc('https://gw.example/frame/', { ...address, field: 'cvv' })).search).not.toBe(url.search);
    expect(readFrameAddress(src)).toEqual(address);
    expect(newChannel()).toMatch(/^[\da-f]{32}$/);
    expect(newChannel()).not.toBe(newChannel());
  });

  it.each([
    ['a page origin over plain http', { origin: 'http://shop.example' }],
    ['a page origin with a path', { origin: 'https://shop.example/checkout' }],
    ['a page origin with userinfo', { origin: 'https://u:p@shop.example' }],
    // Exactly an origin, as location.origin writes it (shared/url.ts, isExactOrigin): the URL's parse no longer mends it.
    ['a page origin with a slash', { origin: 'https://shop.example:8443/' }],
    ['a page origin in capitals', { origin: 'HTTPS://SHOP.EXAMPLE:8443' }],
    ['a javascript: origin', { origin: 'javascript:alert(1)' }],
    ['a gateway over plain http', { gateway: 'http://gw.example/' }],
    ['a gateway with a query', { gateway: 'https://gw.example/?a=1' }],
    ['a gateway not ending in a slash', { gateway: 'https://gw.example/api' }],
    ['a short channel', { channel: 'abc' }],
    ['an unknown field', { field: 'pin' }],
    ['no merchant', { merchant: '' }],
    ['a CVV-only form on the number field', { form: 'cvv' }],
    // A hostile script on the page could point the card at the page's own origin, which a frame host may
    // admit in connect-src for a saved card's CVV: the card number goes to the gateway only.
    ['a gateway on the page origin', { gateway: 'https://shop.example:8443/' }],
  ])('is refused with %s', (_, change) => {
    expect(readFrameAddress(frameSrc('https://gw.example/frame/', { ...address, ...change } as any))).toBeUndefined();
  });

  it("carries the merchant's label, placeholder, brand and brandMark as given, for the frame to refuse (a posted config's are read)", () => {
    const given = { ...configOn(channel), label: 'x'.repeat(201), placeholder: 5, brand: 7, brandMark: 'no' } as unknown as Config;
    expect(readFrameAddress(frameSrc('https://gw.example/frame/', { ...address, config: given }))?.config).toEqual(given);
    expect(readToFrame(given, channel)).toBeUndefined();
  });

  // One reader for the config of the URL and a posted one: the frame refuses in words what the port drops.
  it.each([
    ['no config', undefined, 'the frame cannot read its config (another payframe version?)'],
    ['a config on another channel', configOn(newChannel()), 'the frame cannot read its config (another payframe version?)'],
    ['a config that is another message', { ch: channel, t: 'focus' }, 'the frame cannot read its config (another payframe version?)'],
    [
      'a config with a field the form does not know',
      { ...configOn(channel), fields: ['number', 'pin'] },
      'the frame cannot read its config (another payframe version?)',
    ],
    ['a locale not given', { ...configOn(channel), locale: 'fr' }, 'the frame cannot read its config (another payframe version?)'],
    [
      'a label too long',
      { ...configOn(channel), label: 'x'.repeat(201) },
      'fields.cvv: placeholder and label must be text of at most 200 characters',
    ],
    [
      'a placeholder that is not text',
      { ...configOn(channel), placeholder: 5 },
      'fields.cvv: placeholder and label must be text of at most 200 characters',
    ],
    ['a brand that is not text', { ...configOn(channel), brand: 7 }, 'the frame cannot read its config (another payframe version?)'],
    ['a brand mark that is not true or false', { ...configOn(channel), brandMark: 'no' }, 'brandMark must be true or false'],
  ])('carries %s as given, and readConfig says what is wrong with it', (_, config, reason) => {
    const read = readFrameAddress(frameSrc('https://gw.example/frame/', { ...address, config } as any));
    expect(read).toEqual({ ...address, config });
    expect(readConfig(read!.config, channel, 'cvv')).toBe(reason);
    // Posted, it is no config either (the focus message is read as the focus it is).
    expect(readToFrame(config, channel)?.t).not.toBe('config');
  });

  it('reads a config whole, the one of the URL as a posted one: a label of 200 characters is text', () => {
    const config = { ...configOn(channel), label: 'x'.repeat(200), placeholder: '', brand: 'visa', brandMark: false, disabled: true };
    expect(readConfig(readFrameAddress(frameSrc('https://gw.example/frame/', { ...address, config }))!.config, channel)).toEqual(config);
    expect(readToFrame(config, channel)).toEqual(config);
  });

  it('takes loopback http for development', () => {
    const local = { ...address, gateway: 'http://127.0.0.1:8443/', origin: 'http://localhost:3000' };
    expect(readFrameAddress(frameSrc('http://127.0.0.1:8443/frame/', local))).toEqual(local);
  });
});

describe('a CVV-only form', () => {
  const channel = newChannel();
  const address: FrameAddress = {
    merchant: 'shop',
    gateway: 'https://gw.example/',
    field: 'cvv',
    channel,
    origin: 'https://shop.example',
    config: { ...configOn(channel), fields: ['cvv'] },
    form: 'cvv',
  };

  it('is fixed in the frame URL: the field frame reads it back, and a full form has none', () => {
    expect(readFrameAddress(frameSrc('https://gw.example/frame/', address))).toEqual(address);
    // In the path, so that a frame host, a static one too, gives this frame's page, and no other, the merchant's origins in connect-src.
    expect(new URL(frameSrc('https://gw.example/frame/', address)).pathname).toBe('/frame/cvv/');
    const { form: _, ...full } = address;
    expect(new URL(frameSrc('https://gw.example/frame/', full)).pathname).toBe('/frame/');
    expect(readFrameAddress(frameSrc('https://gw.example/frame/', full))).toEqual(full);
    // A query asks for nothing: the page of a full form stays one.
    expect(readFrameAddress(`${frameSrc('https://gw.example/frame/', full).replace('?', '?form=cvv&')}`)).toEqual(full);
  });

  it.each([
    ['a path', '/pay/saved-card', 'https://shop.example/pay/saved-card'],
    ['an absolute URL on the page origin', 'https://shop.example/pay?x=1#frag', 'https://shop.example/pay?x=1'],
    ['a relative path that climbs', '../../pay', 'https://shop.example/pay'],
  ])('posts to %s on the page origin', (_, text, href) => {
    expect(postTarget(text, 'https://shop.example', 'https://shop.example/checkout/')?.href).toBe(href);
  });

  it.each([
    ['another host', 'https://evil.example/pay'],
    ['a lookalike host', 'https://shop.example.evil.example/pay'],
    ['another port', 'https://shop.example:8443/pay'],
    ['plain http', 'http://shop.example/pay'],
    ['userinfo', 'https://u:p@shop.example/pay'],
    ['a protocol-relative URL', '//evil.example/pay'],
    ['javascript:', 'javascript:fetch(1)'],
    ['data:', 'data:application/json,{}'],
    ['blob:', 'blob:https://shop.example/1234'],
    ['not text', 7],
    ['too long', `/pay/${'x'.repeat(2048)}`],
  ])('refuses %s', (_, text) => {
    expect(postTarget(text, 'https://shop.example', 'https://shop.example/checkout')).toBeUndefined();
  });

  it('takes only absolute URLs without a base (in the frame), and loopback http for development', () => {
    expect(postTarget('/pay', 'https://shop.example')).toBeUndefined();
    expect(postTarget('http://localhost:3000/api/pay', 'http://localhost:3000')?.href).toBe('http://localhost:3000/api/pay');
    expect(postTarget('http://127.0.0.1:3000/api/pay', 'http://localhost:3000')).toBeUndefined();
  });
});
