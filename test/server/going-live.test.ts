// docs/going-live.md's server-side blocks, run as written: the Node frame host started and fetched as a
// browser would (page, CVV-only page, headers), the command and its export, the page's CSP, and
// the live CVV route's CORS. (Its worker block runs in workerd: test/server/frame-host-edge.test.ts; its
// page block in test/client/going-live.test.ts.)
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:https';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { pageCsp } from '../../e2e/support/merchant';
import { createFrameHost, createGateway, PayframeError } from '../../src/server';
import { readmeBlock } from '../readme';

const root = new URL('../../', import.meta.url).pathname;
const BIN = join(root, 'bin/payframe.mjs');
const exec = promisify(execFile);

/** A block as an ES module inside the package, so that `payframe/...` resolves to this build; `edits` are [written, run] pairs, each checked to be in the block. */
async function load(block: string, edits: [string, string][] = []): Promise<Record<string, any>> {
  let code = block;
  for (const [written, run] of edits) {
    expect(code).toContain(written);
    code = code.replace(written, run);
  }
  const dir = join(root, 'reports/readme');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `going-live-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, code);
  return import(pathToFileURL(file).href);
}

const directives = (csp: string | null) =>
  new Map(
    (csp ?? '')
      .replace(/^Content-Security-Policy:\s*/, '')
      .split(/;\s*/)
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.split(/\s+/)[0]!, d.split(/\s+/).slice(1).join(' ')]),
  );

describe('going-live/frames.mjs: the frames on Node', () => {
  let server: Server | undefined;
  afterAll(() => new Promise((done) => (server ? server.close(done) : done(undefined))));

  it('serves the page and the CVV-only page as createFrameHost answers them, with the frames’ policy', async () => {
    ({ server } = await load(readmeBlock('going-live/frames.mjs'), [['.listen(8444)', ".listen(0, '127.0.0.1')"]]));
    await new Promise((done) => (server!.listening ? done(undefined) : server!.once('listening', done)));
    const at = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
    // What the handler itself answers for the same options, as the block wrote them.
    const handler = createFrameHost({ gateway: 'https://api.ompay.com', merchantOrigins: ['https://shop.example'] });

    const page = await fetch(`${at}/?merchant=m&gateway=${encodeURIComponent('https://api.ompay.com/')}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<meta name="payframe-gateway" content="https://api.ompay.com/">');
    const csp = directives(page.headers.get('content-security-policy'));
    expect(csp.get('connect-src')).toBe('https://api.ompay.com');
    expect(csp.get('frame-ancestors')).toBe('https://shop.example');
    expect(page.headers.get('origin-agent-cluster')).toBe('?1');
    expect(page.headers.get('cache-control')).toBe('no-cache');

    const cvv = await fetch(`${at}/cvv/?merchant=m`);
    expect(cvv.status).toBe(200);
    expect(directives(cvv.headers.get('content-security-policy')).get('connect-src')).toBe('https://api.ompay.com https://shop.example');

    for (const [path, answer] of [
      ['/', page],
      ['/cvv/', cvv],
    ] as const) {
      const direct = await handler(new Request(`${at}${path}`));
      for (const [key, value] of direct.headers) expect(answer.headers.get(key), `${path} ${key}`).toBe(value);
    }
    // A repeat visit: an empty 304 over the wire too.
    const again = await fetch(`${at}/`, { headers: { 'if-none-match': page.headers.get('etag')! } });
    expect([again.status, await again.text()]).toEqual([304, '']);
    expect((await fetch(`${at}/package.json`)).status).toBe(404);
    expect((await fetch(`${at}/`, { method: 'POST' })).status).toBe(405);
  });
});

describe('going-live/cli.sh: the command and its export', () => {
  const [serve, exportLine] = readmeBlock('going-live/cli.sh')
    .trim()
    .split('\n')
    .map((line) => line.split(' '));
  const args = (line: string[]) => {
    expect(line.slice(0, 3)).toEqual(['npx', 'payframe', 'frames']);
    return line.slice(2);
  };
  let child: ChildProcess | undefined;
  afterEach(() => void child?.kill('SIGTERM'));

  it('serves the frames over https with the certificate kept in --cert-dir, and prints the frameUrl', async () => {
    const given = args(serve!);
    const certDir = given.indexOf('--cert-dir');
    expect(certDir).toBeGreaterThan(0);
    const dir = mkdtempSync(join(tmpdir(), 'payframe-going-live-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    // Run as written, on a free port, its certificate in a folder of the test's own.
    const run = given.map((a, i) => (i === certDir + 1 ? join(dir, 'tls') : a));
    child = spawn(process.execPath, [BIN, ...run, '--port', '0']);
    let out = '';
    child.stdout!.on('data', (c) => (out += c));
    await expect.poll(() => out, { timeout: 10_000 }).toMatch(/frameUrl +https:\/\/127\.0\.0\.1:\d+\//);
    const frameUrl = /frameUrl +(\S+)/.exec(out)![1]!;
    // The pair made in --cert-dir is self-signed: the request trusts that certificate, as a merchant's would.
    const ca = readFileSync(join(dir, 'tls', 'cert.pem'));
    const page = await new Promise<{ status?: number; csp: string }>((resolve, reject) =>
      get(frameUrl, { ca }, (res) => {
        res.resume();
        resolve({ status: res.statusCode, csp: [res.headers['content-security-policy'] ?? ''].flat().join(', ') });
      }).on('error', reject),
    );
    expect(page.status).toBe(200);
    expect(directives(page.csp).get('frame-ancestors')).toBe('https://shop.example');
    expect(readdirSync(join(dir, 'tls')).sort()).toEqual(['cert.pem', 'key.pem']);
  });

  it('exports the files and their headers for a static host', async () => {
    const given = args(exportLine!);
    expect(given[1]).toBe('export');
    const parent = mkdtempSync(join(tmpdir(), 'payframe-going-live-'));
    onTestFinished(() => rmSync(parent, { recursive: true, force: true }));
    const dir = join(parent, 'frames');
    const { stdout } = await exec(process.execPath, [BIN, ...given.map((a, i) => (i === 2 ? dir : a))]);
    const files = readdirSync(dir).sort();
    expect(files).toEqual(['404.html', '_headers', 'cvv', 'index.html', 'vercel.json']);
    // It checked the folder as a static host serves it before it finished.
    expect(stdout).toContain('keeps the frames fenced in.');
    expect(readdirSync(join(dir, 'cvv'))).toEqual(['index.html']);
  });
});

describe('going-live/page-csp.txt', () => {
  it("is the merchant page's policy the browser tests run under, with the frame host as frame-src", () => {
    const frameHost = 'https://frames.shop.example';
    const block = directives(readmeBlock('going-live/page-csp.txt').replace(/\n\s*/g, ' '));
    const tested = directives(pageCsp('https://api.ompay.com', frameHost));
    expect(block.get('frame-src')).toBe(frameHost);
    // The tests' page also lets its own scripts call the gateway (client.tokenize); the hosted form's page needs only 'self'.
    expect(block.get('connect-src')).toBe("'self'");
    expect(tested.get('connect-src')!.split(' ')[0]).toBe("'self'");
    for (const [name, value] of block) if (name !== 'connect-src') expect(tested.get(name), name).toBe(value);
  });
});

describe('going-live/cvv-route.mjs: a saved card’s CVV route with a frame host of the merchant’s', () => {
  const gateway = createGateway({ merchantId: 'm', clientId: 'c', clientSecret: 's', baseUrl: 'https://api.ompay.com' });
  const preflight = (origin: string) =>
    new Request('https://shop.example/saved-card/pay', {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });

  it('answers CORS for the frame host and no other origin; without frameOrigin a live gateway refuses to make the route', async () => {
    const { paySavedCard } = await load(readmeBlock('going-live/cvv-route.mjs'));
    const seen: string[] = [];
    const route = paySavedCard(gateway, ({ cvv }: { cvv: string }) => {
      seen.push(cvv);
      throw new PayframeError('not_found', 'This payment has expired: press pay again.');
    });
    const allowed = await route(preflight('https://frames.shop.example'));
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://frames.shop.example');
    expect((await route(preflight('https://api.ompay.com'))).status).toBe(403);
    const post = await route(
      new Request('https://shop.example/saved-card/pay', {
        method: 'POST',
        headers: { origin: 'https://frames.shop.example', 'content-type': 'application/json' },
        body: '{"cvv":"123","ticket":"t"}',
      }),
    );
    expect(post.status).toBe(404);
    expect(seen).toEqual(['123']);
    // Without frameOrigin, a live gateway's route is refused when it is made: its origin serves no frames.
    expect(() =>
      gateway.handlers.cvv({
        handle: () => {
          throw new Error('not reached');
        },
      }),
    ).toThrow(expect.objectContaining({ code: 'invalid_config' }));
  });
});
