// createFrameHost at the edge: the same handler, unchanged, bundled as a merchant's worker is (the docs'
// esbuild command, on the package's build) and run in Cloudflare's workerd through miniflare, on this machine, without
// an account or a network. Its answers are the Node handler's, byte for byte and header for header. The
// worker is docs/going-live.md's block, read from the page.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFrameHost } from '../../src/server';
import { readmeBlock } from '../readme';

const ROOT = new URL('../../', import.meta.url).pathname;
/** The worker a merchant writes, as docs/going-live.md shows it: the page's block is what runs here. */
const WORKER = readmeBlock('going-live/worker.mjs');

let mf: Miniflare;
const node = createFrameHost({ gateway: 'https://api.ompay.com', merchantOrigins: ['https://shop.example'] });

beforeAll(async () => {
  // The docs' build command, as written, in a folder of the package (so that `payframe/server` resolves to
  // this checkout's build, as to the installed package in a merchant's): one module, as Wrangler makes it.
  const dir = join(ROOT, 'reports/readme', `edge-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'worker.mjs'), WORKER);
  const [npx, esbuild, ...args] = readmeBlock('going-live/worker-build.sh').trim().split(' ');
  expect([npx, esbuild]).toEqual(['npx', 'esbuild']);
  execFileSync(join(ROOT, 'node_modules/.bin/esbuild'), args, { cwd: dir, stdio: 'pipe' });
  mf = new Miniflare({ modules: true, script: readFileSync(join(dir, 'dist/worker.js'), 'utf8'), compatibilityDate: '2026-01-01' });
}, 60_000);
afterAll(() => mf?.dispose());

/** What workerd adds or leaves out on its own (the transfer encoding), beside what the handler answers. */
const TRANSPORT = new Set(['content-length', 'transfer-encoding', 'mf-content-encoding']);
const headersOf = (r: { headers: Headers | Iterable<[string, string]> }) =>
  Object.fromEntries([...(r.headers as Iterable<[string, string]>)].filter(([k]) => !TRANSPORT.has(k)));

describe('createFrameHost in workerd', () => {
  it('answers every path and method as on Node', async () => {
    const tag = (await node(new Request('https://frames.shop.example/'))).headers.get('etag')!;
    const asked: [string, string, Record<string, string>?][] = [
      ['GET', '/'],
      ['GET', '/frames/?merchant=m&gateway=https%3A%2F%2Fapi.ompay.com%2F'],
      ['GET', '/cvv/'],
      ['HEAD', '/'],
      ['GET', '/', { 'if-none-match': tag }],
      ['GET', '/cvv/', { 'if-none-match': tag }],
      ['GET', '/nope.js'],
      ['GET', '/..%2Fserver.mjs'],
      ['POST', '/'],
      ['DELETE', '/'],
    ];
    for (const [method, path, headers] of asked) {
      const url = `https://frames.shop.example${path}`;
      const edge = await mf.dispatchFetch(url, { method, headers });
      const here = await node(new Request(url, { method, headers }));
      expect(edge.status, `${method} ${path}`).toBe(here.status);
      expect(headersOf(edge), `${method} ${path}`).toEqual(headersOf(here));
      expect(Buffer.from(await edge.arrayBuffer()).equals(Buffer.from(await here.arrayBuffer())), `${method} ${path}`).toBe(true);
    }
  });

  it('never lists its own origin among the ancestors, there as here', async () => {
    const edge = await mf.dispatchFetch('https://shop.example/frames/');
    expect(edge.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});
