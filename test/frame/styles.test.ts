// @vitest-environment happy-dom
// The merchant's styles and fonts inside the frame: an allowlist of properties, values that cannot
// load or inject anything, fonts over https in woff2. (Chromium applies them in e2e/hosted-look.)
import { describe, expect, it, vi } from 'vitest';
import { ALLOWED, loadFonts, merchantSheet } from '../../src/frame/styles';

const declarations = (sheet: CSSStyleSheet) =>
  [...sheet.cssRules].map((r) => `${(r as CSSStyleRule).selectorText}{${(r as CSSStyleRule).style.cssText}}`).join(' ');

describe('merchantSheet', () => {
  it('applies allowed properties per state, in kebab or camel case, numbers in pixels', () => {
    const { sheet, dropped } = merchantSheet(
      { base: { color: '#222', fontSize: 18, 'font-weight': 600 }, invalid: { color: 'rgb(179, 38, 30)' } },
      'dark',
    );
    expect(dropped).toEqual([]);
    const css = declarations(sheet);
    expect(css).toContain('color-scheme: dark');
    expect(css).toMatch(/input\{color: #222; font-size: 18px; font-weight: 600;?\}/);
    expect(css).toContain('input.is-invalid{color: rgb(179, 38, 30)');
  });

  it.each([
    ['a property that is not allowed', { base: { 'background-image': 'linear-gradient(red, blue)' } }, 'base.background-image'],
    ['a url()', { base: { color: 'url(https://evil.example/x)' } }, 'base.color'],
    ['an escaped url()', { base: { color: 'u\\72l(x)' } }, 'base.color'],
    ['image-set()', { base: { 'box-shadow': 'image-set("x.png" 1x)' } }, 'base.box-shadow'],
    ['expression()', { base: { color: 'expression(alert(1))' } }, 'base.color'],
    ['javascript:', { base: { color: 'javascript:alert(1)' } }, 'base.color'],
    ['a semicolon', { base: { color: 'red; background: url(x)' } }, 'base.color'],
    ['a brace', { base: { color: 'red} input{color:blue' } }, 'base.color'],
    ['@import', { base: { 'font-family': '@import "x"' } }, 'base.font-family'],
    ['a comment', { base: { color: 're/**/d' } }, 'base.color'],
    ['an object value', { base: { color: { toString: (): string => 'red' } } }, 'base.color'],
    ['an unknown state', { hover: { color: 'red' } }, 'hover'],
    ['a state that is not an object', { base: 'color: red' }, 'base'],
  ])('drops %s, by name', (_, styles, name) => {
    const { sheet, dropped } = merchantSheet(styles, undefined);
    expect(dropped).toEqual([name]);
    expect(declarations(sheet)).not.toMatch(/url|expression|javascript|import|blue/);
  });

  it('drops a color-scheme it does not know', () => {
    expect(declarations(merchantSheet({}, 'dark; color: red').sheet)).toBe('');
  });

  it('has no property in its allowlist that can load a resource', () => {
    expect([...ALLOWED].filter((p) => /image|url|src|content|cursor|background$|mask|filter|list-style|border-image/.test(p))).toEqual([]);
  });
});

describe('loadFonts', () => {
  // happy-dom has no FontFace: a stand-in that keeps what it was given.
  vi.stubGlobal(
    'FontFace',
    class {
      constructor(
        readonly family: string,
        readonly source: string,
        readonly descriptors: object,
      ) {}
      load = () => Promise.resolve(this);
    },
  );

  it('adds https and loopback woff2 fonts, and names every other one', () => {
    const added: any[] = [];
    const set = { add: (f: FontFace) => added.push(f) } as unknown as FontFaceSet;
    const dropped = loadFonts(
      [
        { family: 'Brand', src: 'https://cdn.example/brand.woff2?v=2' },
        { family: 'Local', src: 'http://127.0.0.1:3000/local.woff2', weight: 700 },
        { family: 'Plain', src: 'http://cdn.example/plain.woff2' },
        { family: 'Old', src: 'https://cdn.example/old.ttf' },
        { family: 'Quote"d', src: 'https://cdn.example/q.woff2' },
        { family: 'Data', src: 'data:font/woff2;base64,AAAA' },
        { family: 'Creds', src: 'https://u:p@cdn.example/c.woff2' },
        null,
      ],
      set,
    );
    expect(added.map((f) => [f.family, f.source, f.descriptors])).toEqual([
      ['Brand', 'url("https://cdn.example/brand.woff2?v=2") format("woff2")', { display: 'swap' }],
      ['Local', 'url("http://127.0.0.1:3000/local.woff2") format("woff2")', { weight: '700', display: 'swap' }],
    ]);
    expect(dropped).toEqual(['fonts.Plain', 'fonts.Old', 'fonts.Quote"d', 'fonts.Data', 'fonts.Creds', 'fonts.?']);
  });

  it('takes nothing from what is not a list, and at most eight fonts', () => {
    const set = { add: vi.fn() } as unknown as FontFaceSet;
    expect(loadFonts('https://cdn.example/x.woff2', set)).toEqual([]);
    loadFonts(
      Array.from({ length: 20 }, (_, i) => ({ family: `F${i}`, src: 'https://cdn.example/f.woff2' })),
      set,
    );
    expect(set.add).toHaveBeenCalledTimes(8);
  });
});
