// createFrameHost at the edge: the same handler, unchanged, bundled as a merchant's worker is (esbuild,
// from the package's build) and run in Cloudflare's workerd through miniflare, on this machine, without
// an account or a network. Its answers are the Node handler's, byte for byte and header for header. The
// worker is docs/going-live.md's block, read from the page.
import { build } from 'esbuild';
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
  // As wrangler would: one module, `payframe/server` resolved from the installed package (here, this checkout's build).
  const { outputFiles } = await build({
    stdin: { contents: WORKER, resolveDir: ROOT, sourcefile: 'worker.mjs', loader: 'js' },
    bundle: true, format: 'esm', platform: 'neutral', write: false, conditions: ['worker', 'browser'],
  });
  mf = new Miniflare({ modules: true, script: outputFiles[0]!.text, compatibilityDate: '2026-01-01' });
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
      ['GET', '/'], ['GET', '/frames/?merchant=m&gateway=https%3A%2F%2Fapi.ompay.com%2F'], ['GET', '/cvv/'], ['HEAD', '/'],
      ['GET', '/', { 'if-none-match': tag }], ['GET', '/cvv/', { 'if-none-match': tag }],
      ['GET', '/nope.js'], ['GET', '/..%2Fserver.mjs'], ['POST', '/'], ['DELETE', '/'],
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
