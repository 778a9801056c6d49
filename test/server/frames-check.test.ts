// `payframe frames check`'s verdict on one answer, path by path: the frame page must come with its
// full headers (the policies of the header, each value of a joined one, and of the page's own meta, all
// enforced); a path with no frame page passes. The answers are createFrameHost's, changed as a host would.
import { describe, expect, it } from 'vitest';
import { createFrameHost } from '../../src/server';
// @ts-expect-error: the CLI's module, in JavaScript, with no declarations
import { verdict } from '../../bin/check.mjs';

const SHOP = 'https://shop.example';
const host = createFrameHost({ gateway: 'https://api.ompay.com', merchantOrigins: [SHOP] });
const answer = async (path: string) => {
  const response = await host(new Request(`https://frames.shop.example${path}`));
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
};
const judge = (a: unknown, want: 'page' | 'cvv' | 'any', merchants = [SHOP]) => verdict(a, want, { merchants });

describe('frames check, one answer', () => {
  it('passes each page with its headers, and a path with no frame page where any may be', async () => {
    expect(judge(await answer('/'), 'page')).toEqual({ ok: true, says: "the card form's page, its headers hold" });
    expect(judge(await answer('/cvv/'), 'cvv')).toEqual({ ok: true, says: "the CVV-only form's page, its headers hold" });
    expect(judge(await answer('/index.html'), 'any')).toEqual({ ok: true, says: 'no frame page (404)' });
    expect(judge({ status: 200, headers: {}, body: '<title>Shop</title><script>app()</script>' }, 'any').ok).toBe(true);
    expect(judge(await answer('/index.html'), 'page')).toEqual({ ok: false, says: 'no frame page here (404)' });
    expect(judge(await answer('/'), 'cvv').ok).toBe(false);
  });

  it('fails the frame page without its headers, or under a looser or other policy', async () => {
    const page = await answer('/');
    expect(judge({ ...page, headers: {} }, 'any')).toMatchObject({
      ok: false,
      says: expect.stringMatching(/^the card form's page without its headers: no Content-Security-Policy header; script-src without/),
    });
    const { 'x-content-type-options': _, ...sniffable } = page.headers;
    expect(judge({ ...page, headers: sniffable }, 'page').says).toContain('no X-Content-Type-Options: nosniff');
    expect(judge(page, 'page', [SHOP, 'https://www.shop.example']).says).toContain(
      `frame-ancestors ${SHOP}, not ${SHOP} https://www.shop.example`,
    );
    const looser = page.headers['content-security-policy']!.replace(
      'connect-src https://api.ompay.com',
      'connect-src https://api.ompay.com https://evil.example',
    );
    // The page's own meta policy narrows a looser header back: both are enforced.
    expect(judge({ ...page, headers: { ...page.headers, 'content-security-policy': looser } }, 'page').ok).toBe(true);
    const bare = page.body.replace(/<meta http-equiv[^>]*>/, '');
    expect(judge({ ...page, body: bare, headers: { ...page.headers, 'content-security-policy': looser } }, 'page').says).toContain(
      'connect-src https://api.ompay.com https://evil.example, not https://api.ompay.com',
    );
  });

  it('takes a header two rules joined with a comma as the two policies it is', async () => {
    const page = await answer('/');
    const cvv = await answer('/cvv/');
    const joined = `${cvv.headers['content-security-policy']}, ${page.headers['content-security-policy']}`;
    expect(
      judge(
        { ...page, headers: { ...page.headers, 'content-security-policy': joined, 'x-content-type-options': 'nosniff, nosniff' } },
        'page',
      ).ok,
    ).toBe(true);
  });
});
