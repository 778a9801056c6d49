// The sandbox serves the hosted fields' page with its own strict CSP, and lets only the merchant's
// configured origins frame it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { frameScript } from 'payframe/frame-bundle';
import { afterAll, describe, expect, it } from 'vitest';
import { useSandbox } from './helpers';

const frameDir = mkdtempSync(join(tmpdir(), 'payframe-frame-csp-'));
writeFileSync(join(frameDir, 'index.html'), '<!doctype html><title>frame</title>');
mkdirSync(join(frameDir, 'cvv'));
writeFileSync(join(frameDir, 'cvv', 'index.html'), '<!doctype html><title>frame of a CVV-only form</title>');
writeFileSync(join(frameDir, 'plain.js'), '');
// A frame page of another build: its inline script is not the one this sandbox's policy allows.
writeFileSync(join(frameDir, 'stale.html'), '<!doctype html><title>frame</title><body><script>start()</script></body>');
afterAll(() => rmSync(frameDir, { recursive: true, force: true }));

const box = useSandbox({
  frameDir,
  merchants: [
    { id: 'loopback', clientId: 'c', clientSecret: 's' },
    {
      id: 'shop',
      clientId: 'c2',
      clientSecret: 's2',
      origins: ['https://shop.example', 'https://www.shop.example:8443', "https://x.example 'unsafe-inline'"],
    },
    { id: 'nobody', clientId: 'c3', clientSecret: 's3', origins: [] },
  ],
});

const csp = async (query: string) => {
  const res = await fetch(`${box.sb.url}/frame/${query}`);
  expect(res.status).toBe(200);
  const policy = res.headers.get('content-security-policy') ?? '';
  return { res, directives: Object.fromEntries(policy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')])) };
};

describe('the frame page', () => {
  it('has a strict policy: its own inline script only (by its hash), styles only through the CSSOM, the nonce call to its own origin and nowhere else', async () => {
    const { res, directives } = await csp('?merchant=loopback');
    expect(directives).toEqual({
      'default-src': "'none'",
      'script-src': `'${frameScript.hash}'`,
      'style-src': "'none'",
      'font-src': 'https: http://localhost:* http://127.0.0.1:*',
      'connect-src': "'self'",
      'base-uri': "'none'",
      'form-action': "'none'",
      'frame-ancestors': 'https://localhost:* https://127.0.0.1:* http://localhost:* http://127.0.0.1:*',
      'require-trusted-types-for': "'script'",
      'trusted-types': "'none'",
    });
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    // Revalidated at every load, so that a new release's page is used at once; an agent cluster of its own.
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('origin-agent-cluster')).toBe('?1');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it("lets only the merchant's configured origins frame it, and drops an entry that is not an origin", async () => {
    expect((await csp('?merchant=shop')).directives['frame-ancestors']).toBe('https://shop.example https://www.shop.example:8443');
    expect((await csp('?merchant=nobody')).directives['frame-ancestors']).toBe("'none'");
  });

  // A page script that points a full form's gateway at another origin the merchant has (or at any
  // loopback origin, the default) gets no request out of its frames: the review sent a card that way.
  it("lets a CVV-only form's frame post to the merchant's origins, and a full form's frames reach the gateway alone", async () => {
    expect((await csp('?merchant=shop')).directives['connect-src']).toBe("'self'");
    expect((await csp('cvv/?merchant=shop')).directives['connect-src']).toBe("'self' https://shop.example https://www.shop.example:8443");
    expect((await csp('cvv/?merchant=loopback')).directives['connect-src']).toBe(
      "'self' https://localhost:* https://127.0.0.1:* http://localhost:* http://127.0.0.1:*",
    );
    expect((await csp('?merchant=loopback&form=card')).directives['connect-src']).toBe("'self'");
    expect((await csp('cvv/?merchant=nobody')).directives['connect-src']).toBe("'self'");
    // The query no longer picks the page: a full form's page asked with `form=cvv` stays a full form's.
    expect((await csp('?merchant=shop&form=cvv')).directives['connect-src']).toBe("'self'");
  });

  it('may be framed by nobody for an unknown or missing merchant', async () => {
    expect((await csp('?merchant=someone-else')).directives['frame-ancestors']).toBe("'none'");
    expect((await csp('')).directives['frame-ancestors']).toBe("'none'");
  });

  it('answers a repeat visit of a page with an empty 304, as createFrameHost does, and keeps no other file', async () => {
    const first = await fetch(`${box.sb.url}/frame/?merchant=shop`);
    const tag = first.headers.get('etag')!;
    expect(tag).toMatch(/^"[\w+/]{24}"$/);
    const again = await fetch(`${box.sb.url}/frame/?merchant=shop`, { headers: { 'if-none-match': tag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'));
    // Another merchant's page has another policy, and the CVV-only page another body: each is a page of its own.
    for (const query of ['?merchant=nobody', 'cvv/?merchant=shop']) {
      expect((await fetch(`${box.sb.url}/frame/${query}`, { headers: { 'if-none-match': tag } })).status, query).toBe(200);
    }
    const stale = await fetch(`${box.sb.url}/frame/stale.html?merchant=shop`);
    expect(stale.status).toBe(500);
    expect(await stale.text()).toContain("the frame page stale.html in frameDir is not this version's");
    const plain = await fetch(`${box.sb.url}/frame/plain.js`);
    expect(plain.headers.get('cache-control')).toBe('no-store');
    expect(plain.headers.get('etag')).toBeNull();
  });
});

// The review's finding 2: `<sandbox>/frame/%63vv/` was a full form (the frames decide "CVV-only" on the
// path as it came) under the CVV page's policy (the sandbox decoded the path twice), whose connect-src
// admits every loopback origin: a page's own loopback "gateway" received the card.
describe('the frame page of this build, as the sandbox makes it', () => {
  const real = useSandbox({ merchants: [{ id: 'loopback', clientId: 'c', clientSecret: 's' }] });
  const get = async (path: string) => {
    const res = await fetch(`${real.sb.url}/frame/${path}?merchant=loopback`);
    const connect = /connect-src ([^;]*)/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
    return { status: res.status, connect, html: await res.text() };
  };

  it("is a CVV-only form's page exactly where the frames take it for one: the path as it came, decoded once", async () => {
    const cvv = await get('cvv/');
    expect(cvv.connect).toBe("'self' https://localhost:* https://127.0.0.1:* http://localhost:* http://127.0.0.1:*");
    expect(cvv.html).toContain('<meta name="payframe-form" content="cvv">');
    for (const path of ['%63vv/', 'cvv%2F..%2F', 'cvv%252F..%252F', '%63vv%2F']) {
      const page = await get(path);
      // A full form's page, under a full form's policy, or no page at all.
      if (page.status === 200) {
        expect(page.connect, path).toBe("'self'");
        expect(page.html, path).not.toContain('payframe-form');
      } else expect(page.status, path).toBe(404);
    }
  });

  it('names its gateway, itself, so that a frame pointed at another one refuses to start', async () => {
    expect((await get('')).html).toContain('<meta name="payframe-gateway" content="/">');
  });
});
