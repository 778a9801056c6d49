// createFrameHost: the card frames served from the merchant's own origin, on any runtime with fetch. Its
// answers as the Fetch handler gives them, and as node:http serves them through toNodeListener.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFrameHost, toNodeListener } from '../../src/server';

const HOST = 'https://frames.shop.example';
const SHOP = 'https://shop.example';
const options = { gateway: 'https://api.ompay.com', merchantOrigins: [SHOP, 'https://www.shop.example:8443'] };
const host = createFrameHost(options);
const get = (path: string, method = 'GET') => host(new Request(`${HOST}${path}`, { method }));
const directives = (csp: string | null) =>
  Object.fromEntries((csp ?? '').split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
const inlineScript = (html: string) => /<script>([\s\S]*)<\/script>/.exec(html)![1]!;

describe('createFrameHost', () => {
  it('serves the frame page at the root of wherever it is mounted, with the strict policy of the frames', async () => {
    for (const path of ['/', '/frames/', '/a/b/', '/?merchant=m&gateway=https%3A%2F%2Fapi.ompay.com%2F']) {
      const page = await get(path);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await page.text()).toContain('<meta name="payframe-gateway" content="https://api.ompay.com/">');
    }
    const page = await get('/');
    expect(directives(page.headers.get('content-security-policy'))).toEqual({
      'default-src': "'none'",
      'script-src': expect.stringMatching(/^'sha256-[\w+/]{43}='$/),
      'style-src': "'none'",
      // No loopback source in a live page's policy (a loopback gateway's, in development, has them).
      'font-src': 'https:',
      'connect-src': 'https://api.ompay.com',
      'base-uri': "'none'",
      'form-action': "'none'",
      'frame-ancestors': 'https://shop.example https://www.shop.example:8443',
      'require-trusted-types-for': "'script'",
      'trusted-types': "'none'",
    });
    expect(Object.fromEntries(page.headers)).toMatchObject({
      'cache-control': 'no-cache',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'origin-agent-cluster': '?1',
    });
  });

  it("admits the merchant's origins as a CVV-only form's post target, and never its own origin as an ancestor", async () => {
    expect(directives((await get('/cvv/')).headers.get('content-security-policy'))['connect-src']).toBe(
      'https://api.ompay.com https://shop.example https://www.shop.example:8443',
    );
    // Mounted on one of the merchant's origins by mistake: that origin is no ancestor of its own frames.
    const onShop = await createFrameHost(options)(new Request(`${SHOP}/frames/`));
    expect(directives(onShop.headers.get('content-security-policy'))['frame-ancestors']).toBe('https://www.shop.example:8443');
    const alone = await createFrameHost({ ...options, merchantOrigins: [SHOP] })(new Request(`${SHOP}/frames/`));
    expect(directives(alone.headers.get('content-security-policy'))['frame-ancestors']).toBe("'none'");
    // Behind a proxy that ends TLS, the request arrives over http: its own origin is still left out.
    const proxied = await createFrameHost(options)(new Request(`${SHOP.replace('https:', 'http:')}/frames/`));
    expect(directives(proxied.headers.get('content-security-policy'))['frame-ancestors']).toBe('https://www.shop.example:8443');
    // A proxy that writes the default port (`Host: shop.example:443`) names the same origin.
    for (const reached of ['http://shop.example:443', 'http://SHOP.example:80', 'https://www.shop.example:8443']) {
      const named = await createFrameHost(options)(new Request(`${reached}/frames/`));
      expect(directives(named.headers.get('content-security-policy'))['frame-ancestors'], reached).not.toContain(
        reached
          .replace(/^http:/, 'https:')
          .replace(/:(443|80)$/, '')
          .toLowerCase(),
      );
    }
  });

  it('carries in the page itself what must hold where a host sends no header: its policy but frame-ancestors, the gateway, the merchant origins, its form', async () => {
    const meta = (html: string, name: string) =>
      new RegExp(`<meta (?:name="payframe-${name}"|http-equiv="(${name})") content="([^"]*)">`).exec(html)?.[2];
    const [page, cvv] = [await (await get('/')).text(), await (await get('/cvv/')).text()];
    const header = directives((await get('/')).headers.get('content-security-policy'));
    const { 'frame-ancestors': _, ...rest } = header;
    expect(directives(meta(page, 'Content-Security-Policy')!)).toEqual(rest);
    expect(meta(page, 'ancestors')).toBe('https://shop.example https://www.shop.example:8443');
    expect(meta(page, 'gateway')).toBe('https://api.ompay.com/');
    expect([meta(page, 'form'), meta(cvv, 'form')]).toEqual([undefined, 'cvv']);
    expect(directives(meta(cvv, 'Content-Security-Policy')!)['connect-src']).toBe(
      'https://api.ompay.com https://shop.example https://www.shop.example:8443',
    );
    // Before the script, which it governs.
    expect(page.indexOf('Content-Security-Policy')).toBeLessThan(page.indexOf('<script>'));
  });

  it('carries its script inline, allowed by its hash alone: no script file, no unsafe-inline', async () => {
    for (const path of ['/', '/cvv/']) {
      const page = await get(path);
      const html = await page.text();
      const csp = directives(page.headers.get('content-security-policy'));
      expect(csp['script-src'], path).toBe(`'sha256-${createHash('sha256').update(inlineScript(html)).digest('base64')}'`);
      expect(html.match(/<script/g), path).toHaveLength(1);
      expect(html, path).not.toMatch(/<script[^>]*src=|<style|style=/);
    }
  });

  it('answers a repeat visit with an empty 304, and a page whose policy changed with the new page', async () => {
    const first = await get('/');
    const tag = first.headers.get('etag')!;
    expect(tag).toMatch(/^"[\w+/]{24}"$/);
    for (const ifNoneMatch of [tag, `W/${tag}`, `"other", ${tag}`, '*']) {
      const again = await host(new Request(`${HOST}/`, { headers: { 'if-none-match': ifNoneMatch } }));
      expect(again.status, ifNoneMatch).toBe(304);
      expect(await again.text()).toBe('');
      expect(Object.fromEntries(again.headers), ifNoneMatch).toEqual(Object.fromEntries(first.headers));
    }
    // The CVV-only page, another merchant list or another gateway is another page: never a 304 for the first one's tag.
    const others = [
      host(new Request(`${HOST}/cvv/`, { headers: { 'if-none-match': tag } })),
      createFrameHost({ ...options, merchantOrigins: [SHOP] })(new Request(`${HOST}/`, { headers: { 'if-none-match': tag } })),
      createFrameHost({ ...options, gateway: 'https://sandbox.ompay.com' })(new Request(`${HOST}/`, { headers: { 'if-none-match': tag } })),
      host(new Request(`${HOST}/`, { headers: { 'if-none-match': '"stale"' } })),
    ];
    for (const other of await Promise.all(others)) expect(other.status).toBe(200);
  });

  it('answers HEAD as GET without a body, 405 to other methods, 404 to any other path, and never a file outside the bundle', async () => {
    const [head, getPage] = [await get('/', 'HEAD'), await get('/')];
    expect(head.status).toBe(200);
    expect(Object.fromEntries(head.headers)).toEqual(Object.fromEntries(getPage.headers));
    expect(await head.text()).toBe('');
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      const refused = await get('/', method);
      expect(refused.status, method).toBe(405);
      expect(refused.headers.get('allow')).toBe('GET, HEAD');
    }
    for (const path of [
      '/index.html',
      '/frame.js',
      '/cvv',
      '/package.json',
      '/..%2Fpackage.json',
      '/%2e%2e/server.mjs',
      '/etc/passwd',
      '/x/../frame.js.map',
    ]) {
      expect((await get(path)).status, path).toBe(404);
    }
  });

  it.each([
    ['no options', undefined, 'gateway'],
    ['no gateway', { merchantOrigins: [SHOP] }, 'gateway'],
    ['a gateway that is not a URL', { gateway: 'api.ompay.com', merchantOrigins: [SHOP] }, 'gateway'],
    ['a plain-http gateway outside loopback', { gateway: 'http://api.ompay.com', merchantOrigins: [SHOP] }, 'gateway'],
    ['a gateway with a query', { gateway: 'https://api.ompay.com/?x=1', merchantOrigins: [SHOP] }, 'gateway'],
    // Each would widen or split the page's connect-src.
    ['a gateway host with a wildcard', { gateway: 'https://*.ompay.com', merchantOrigins: [SHOP] }, 'gateway'],
    ['a gateway host with a comma', { gateway: 'https://api.ompay.com,evil.example', merchantOrigins: [SHOP] }, 'gateway'],
    ['a gateway host with a semicolon', { gateway: 'https://api.ompay.com;connect-src', merchantOrigins: [SHOP] }, 'gateway'],
    ['no merchant origins', { gateway: 'https://api.ompay.com' }, 'merchantOrigins'],
    ['an empty list', { gateway: 'https://api.ompay.com', merchantOrigins: [] }, 'merchantOrigins'],
    ['an origin with a path', { gateway: 'https://api.ompay.com', merchantOrigins: ['https://shop.example/checkout'] }, 'merchantOrigins'],
    ['a wildcard', { gateway: 'https://api.ompay.com', merchantOrigins: ['*'] }, 'merchantOrigins'],
    ['a wildcard host', { gateway: 'https://api.ompay.com', merchantOrigins: ['https://*.shop.example'] }, 'merchantOrigins'],
    // A Content-Security-Policy cannot name one: the frames would be framed by nobody, and nothing would say why.
    ['an IPv6 address', { gateway: 'https://api.ompay.com', merchantOrigins: ['https://[::1]:3000'] }, 'merchantOrigins'],
    [
      'a plain-http origin outside loopback',
      { gateway: 'https://api.ompay.com', merchantOrigins: ['http://shop.example'] },
      'merchantOrigins',
    ],
    ['a list that is a string', { gateway: 'https://api.ompay.com', merchantOrigins: SHOP }, 'merchantOrigins'],
  ])('refuses %s with invalid_config naming the option', (_, bad, option) => {
    expect(() => createFrameHost(bad as never)).toThrow(
      expect.objectContaining({ name: 'PayframeError', code: 'invalid_config', message: expect.stringContaining(option) }),
    );
  });

  it('takes a loopback gateway and loopback page origins over plain http (development)', async () => {
    const dev = createFrameHost({ gateway: 'http://127.0.0.1:8443', merchantOrigins: ['http://localhost:3000'] });
    const page = await dev(new Request('http://localhost:4000/'));
    expect(directives(page.headers.get('content-security-policy'))).toMatchObject({
      'connect-src': 'http://127.0.0.1:8443',
      'frame-ancestors': 'http://localhost:3000',
    });
  });
});

describe('createFrameHost on node:http (toNodeListener)', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer(toNodeListener(host));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('answers over the wire what the handler answers', async () => {
    for (const [path, method] of [
      ['/', 'GET'],
      ['/cvv/', 'GET'],
      ['/', 'HEAD'],
      ['/nope', 'GET'],
      ['/', 'POST'],
    ] as const) {
      const wire = await fetch(`${base}${path}`, { method });
      const direct = await host(new Request(`${base}${path}`, { method }));
      expect(wire.status, path).toBe(direct.status);
      const headers = (r: Response) =>
        Object.fromEntries(
          [...r.headers].filter(([k]) => !['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(k)),
        );
      expect(headers(wire), path).toEqual(headers(direct));
      expect(await wire.text(), path).toBe(await direct.text());
    }
  });

  it('answers 400 to a Host with userinfo, which no Request may carry', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      request(`${base}/`, { headers: { host: 'user:pass@frames.shop.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(400);
  });
});
