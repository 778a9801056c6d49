// createFrameHost makes each of its pages once and serves it from memory: how many it keeps whatever Host
// headers clients send, that each request still gets its own page, and that toNodeListener's way of
// serving a kept page (no Request, no Response) puts on the wire exactly what the Fetch handler answers.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFrameHost, type Handler, toNodeListener } from '../../src/server';

/** How many pages the frame host made (the page module's `framePage`, counted as it is called). */
const made = vi.hoisted(() => ({ pages: 0 }));
vi.mock('../../src/protocol/frame-page', async (original) => {
  const page = await original<typeof import('../../src/protocol/frame-page')>();
  return { ...page, framePage: (...args: Parameters<typeof page.framePage>) => (made.pages++, page.framePage(...args)) };
});

const SHOP = 'https://shop.example';
const WWW = 'https://www.shop.example:8443';
const options = { gateway: 'https://api.ompay.com', merchantOrigins: [SHOP, WWW] };
const policy = (r: Response) =>
  Object.fromEntries(
    (r.headers.get('content-security-policy') ?? '').split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]),
  );

describe('createFrameHost keeps its pages', () => {
  it('makes at most two pages per merchant origin and two more, whatever Host headers 10,000 requests send', async () => {
    const host = createFrameHost(options);
    const before = made.pages;
    const tags = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      // Hosts no one configured, with ports and letter cases; now and then a merchant origin's own host.
      const k = i / 100;
      const own = i % 100 === 0;
      const reached = own ? ['SHOP.example', 'shop.example:443', 'www.shop.example:8443'][k % 3]! : `h${i}.Example:${1000 + (i % 5000)}`;
      const path = (own ? k % 2 : i % 2) ? '/cvv/' : `/f${i}/`;
      const page = await host(new Request(`http://${reached}${path}`));
      expect(page.status).toBe(200);
      tags.add(page.headers.get('etag')!);
      // The kept bytes, whole each time they are served.
      expect((await page.arrayBuffer()).byteLength).toBeGreaterThan(20_000);
    }
    // The page and the CVV-only page for other hosts, and for each merchant origin's host (not its own ancestor).
    expect(made.pages - before).toBe(6);
    expect(tags.size).toBe(6);
  });

  it('gives each request the page for its form and the host it reached, in any order, and a 304 for its own tag only', async () => {
    const host = createFrameHost(options);
    const ask = (url: string, headers: Record<string, string> = {}) => host(new Request(url, { headers }));
    const other = await ask('https://frames.shop.example/');
    for (let round = 0; round < 3; round++) {
      const [onShop, onWww, cvv, cvvOnShop, again] = await Promise.all([
        ask('http://shop.example/frames/'),
        ask('https://www.shop.example:8443/frames/'),
        ask('https://frames.shop.example/cvv/'),
        ask('https://shop.example/x/cvv/'),
        ask('https://frames.example:4000/'),
      ]);
      expect(policy(onShop)['frame-ancestors']).toBe(WWW);
      expect(policy(onWww)['frame-ancestors']).toBe(SHOP);
      expect(policy(again)['frame-ancestors']).toBe(`${SHOP} ${WWW}`);
      expect(policy(cvv)['connect-src']).toBe(`https://api.ompay.com ${SHOP} ${WWW}`);
      expect(policy(cvv)['frame-ancestors']).toBe(`${SHOP} ${WWW}`);
      expect(policy(cvvOnShop)['connect-src']).toBe(`https://api.ompay.com ${WWW}`);
      expect(await cvvOnShop.text()).toContain('<meta name="payframe-ancestors" content="https://www.shop.example:8443">');
      expect(again.headers.get('etag')).toBe(other.headers.get('etag'));
      const tags = [onShop, onWww, cvv, cvvOnShop, again].map((r) => r.headers.get('etag'));
      expect(new Set(tags).size).toBe(5);
      // A tag is fresh for its own page only.
      expect((await ask('http://shop.example/frames/', { 'if-none-match': tags[0]! })).status).toBe(304);
      for (const tag of tags.slice(1, 4)) expect((await ask('http://shop.example/frames/', { 'if-none-match': tag! })).status).toBe(200);
    }
    // Another host's options make other pages: nothing is shared between hosts.
    const alone = await createFrameHost({ ...options, merchantOrigins: [SHOP] })(new Request('https://frames.shop.example/'));
    expect(policy(alone)['frame-ancestors']).toBe(SHOP);
    expect(alone.headers.get('etag')).not.toBe(other.headers.get('etag'));
  });
});

/**
 * One request written as is on a fresh connection (`Connection: close`: the server ends it), and the answer as it came: its status line, its header
 * lines (names in lower case, in name order, the Date left out) and its body's bytes.
 */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const answer = Buffer.concat(chunks).toString('latin1');
      const [status, ...lines] = answer.slice(0, answer.indexOf('\r\n\r\n')).split('\r\n');
      const headers = lines.map((l) => l.replace(/^[^:]+/, (name) => name.toLowerCase())).filter((l) => !l.startsWith('date:'));
      resolve([status, ...headers.sort(), '', answer.slice(answer.indexOf('\r\n\r\n') + 4)].join('\n'));
    });
  });
}

describe('createFrameHost on node:http', () => {
  const host = createFrameHost(options);
  // The same handler without what lets toNodeListener skip the Request and the Response.
  const viaFetch: Handler = (request) => host(request);
  const servers: Server[] = [];
  const ports: number[] = [];
  beforeAll(async () => {
    for (const handler of [host, viaFetch]) {
      const server = createServer(toNodeListener(handler));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
      ports.push((server.address() as AddressInfo).port);
    }
  });
  afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

  it('sends every answer as its Fetch handler answers it: status, headers and bytes', async () => {
    const tag = (await host(new Request('https://frames.shop.example/'))).headers.get('etag')!;
    const body = ['Content-Length: 2', 'Content-Type: text/plain'];
    const requests: [string, string, string[]?, string?][] = [
      ['GET /', 'frames.shop.example'],
      ['GET /cvv/', 'frames.shop.example'],
      ['GET /frames/?merchant=m', 'shop.example'],
      ['GET /frames/', 'SHOP.example:443'],
      ['HEAD /', 'frames.shop.example'],
      ['GET /', 'frames.shop.example', [`If-None-Match: ${tag}`]],
      ['GET /', 'frames.shop.example', [`If-None-Match: "other", W/${tag}`]],
      ['HEAD /', 'frames.shop.example', [`If-None-Match: ${tag}`]],
      ['GET /cvv/', 'frames.shop.example', [`If-None-Match: ${tag}`]],
      ['GET /nope', 'frames.shop.example'],
      ['HEAD /frame.js', 'frames.shop.example'],
      ['GET /x/../frame.js.map', 'frames.shop.example'],
      ['GET /%2e%2e/server.mjs', 'frames.shop.example'],
      ['POST /', 'frames.shop.example', body, 'hi'],
      ['GET /', 'frames.shop.example', body, 'hi'],
      ['OPTIONS /', 'frames.shop.example'],
      ['GET /', 'user:pass@frames.shop.example'],
      ['GET //user:pass@frames.shop.example/', 'frames.shop.example'],
      ['GET /\\user:pass@frames.shop.example/', 'frames.shop.example'],
      ['GET http://frames.shop.example/cvv/', 'shop.example'],
      ['TRACE /', 'frames.shop.example'],
    ];
    for (const [line, hostHeader, headers = [], content = ''] of requests) {
      const text = [`${line} HTTP/1.1`, `Host: ${hostHeader}`, 'Connection: close', ...headers, '', content].join('\r\n');
      // Twice: a page's first request makes it (and is served the Fetch way); the next is served from memory.
      for (const time of ['first', 'again']) {
        const [plain, fetched] = await Promise.all(ports.map((port) => exchange(port, text)));
        expect(plain, line).toMatch(/^HTTP\/1\.1 \d{3} /);
        expect(plain, `${line} (Host: ${hostHeader}), ${time}`).toBe(fetched);
      }
    }
  });

  it('answers 400 to a Host that is not one, or a target with userinfo, whatever the path', async () => {
    for (const [target, hostHeader] of [
      ['/', 'user:pass@frames.shop.example'],
      ['/', 'frames.shop.example:x'],
      ['//frames.shop.example/', 'user@frames.shop.example'],
      ['//user:pass@frames.shop.example/', 'frames.shop.example'],
      ['/\\user:pass@frames.shop.example/', 'frames.shop.example'],
    ]) {
      const answer = await exchange(ports[0]!, `GET ${target} HTTP/1.1\r\nHost: ${hostHeader}\r\nConnection: close\r\n\r\n`);
      expect(answer, `${target} (Host: ${hostHeader})`).toMatch(/^HTTP\/1\.1 400 /);
    }
  });
});
