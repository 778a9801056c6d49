// Another origin for the browser tests: https://localhost:PORT, the merchant's host on another port, so
// another origin of the same site (the hardest case: same cookies' site, same storage partition). It
// serves a blank page at every path unless a test gives a file.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { trustedTls } from './tls';

export interface Origin {
  /** https://localhost:PORT */
  url: string;
  /**
   * A file by path; `headers` are added to its answer, which `delayMs` holds back (a slow host); with
   * `lateFrom`, only the body from that offset is held back (the head and the first bytes go at once).
   */
  files: Map<string, { type: string; body: string | Buffer; headers?: Record<string, string>; delayMs?: number; lateFrom?: number }>;
  /** Every request it received: a test checks that nothing reached it. */
  requests: { method: string; path: string }[];
  close(): Promise<void>;
}

const BLANK = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Another site</title></head><body></body></html>';

export async function startOrigin(): Promise<Origin> {
  const bundle = async (name: string) => ({
    type: 'text/javascript',
    body: await readFile(new URL(`../../dist/${name}`, import.meta.url)),
  });
  const files: Origin['files'] = new Map([
    ['/payframe.umd.min.js', await bundle('payframe.umd.min.js')],
    ['/payframe.full.umd.min.js', await bundle('payframe.full.umd.min.js')],
    ['/payframe.pending.umd.min.js', await bundle('payframe.pending.umd.min.js')],
  ]);
  const requests: Origin['requests'] = [];
  const server = createServer(trustedTls(), (req, res) => {
    const path = new URL(req.url ?? '/', 'https://localhost').pathname;
    requests.push({ method: req.method ?? 'GET', path });
    const file = files.get(path) ?? { type: 'text/html; charset=utf-8', body: BLANK };
    const head = () => res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store', ...file.headers });
    if (file.lateFrom !== undefined) {
      head().write(file.body.slice(0, file.lateFrom));
      setTimeout(() => res.end(file.body.slice(file.lateFrom)), file.delayMs ?? 0);
    } else if (file.delayMs) setTimeout(() => head().end(file.body), file.delayMs);
    else head().end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  return {
    url: `https://localhost:${(server.address() as AddressInfo).port}`,
    files,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
