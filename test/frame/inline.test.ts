// The frame page carries its script inline, allowed by its sha256: the build refuses a script the HTML
// parser would cut short or hand over changed, and the page the build writes runs exactly the text hashed.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { frameScript } from 'payframe/frame-bundle';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in JavaScript, with no declarations
import { checkInlineable } from '../../scripts/frame-bundle.mjs';

describe('the inline frame script', () => {
  it.each([
    ['an end tag in a string', 'const a="</script>";'],
    ['an end tag in any case', 'x="</SCRIPT "'],
    ['a comment opener in a regex', 'const r=/<!--/;'],
    ['a start tag in a template literal', 'const t=`<script ${a}`;'],
    ['a carriage return', 'a=1;\r\nb=2'],
    ['a NUL', 'a="\0"'],
  ])('is refused with %s', (_, code) => {
    expect(() => checkInlineable(code)).toThrow(/the frame script cannot be inlined: it holds "/);
  });

  it('takes a script without them, Arabic text and an escaped end tag included', () => {
    expect(() => checkInlineable('const a="<\\/script>", b="٠١٢", c=1<2&&3>2;')).not.toThrow();
  });

  it('is the exact text of the built page, between its one <script> and the first </script>, hashed as its policy says', () => {
    for (const page of ['index.html', 'cvv/index.html']) {
      const html = readFileSync(new URL(`../../dist/frame/${page}`, import.meta.url), 'utf8');
      const start = html.indexOf('<script>') + '<script>'.length;
      const text = html.slice(start, html.indexOf('</script', start));
      expect(text, page).toBe(frameScript.code);
      expect(`sha256-${createHash('sha256').update(text).digest('base64')}`, page).toBe(frameScript.hash);
    }
  });
});
