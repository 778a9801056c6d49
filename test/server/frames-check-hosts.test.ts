// `payframe frames check` run as a merchant runs it, against real local HTTP servers playing hosts that
// look fenced and are not: one that answers unknown paths with the frame page as a 404 without its
// headers (a single-page app's fallback), one that sends a `frame-ancestors *` policy before the right
// one, one whose policy gives `frame-ancestors` twice (browsers keep the first). Each fails, saying what
// to fix; the host as createFrameHost serves it passes.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createFrameHost } from '../../src/server';

const exec = promisify(execFile);
const BIN = new URL('../../bin/payframe.mjs', import.meta.url).pathname;
const SHOP = 'https://shop.example';
const frames = createFrameHost({ gateway: 'https://api.ompay.com', merchantOrigins: [SHOP] });
const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

/** A host on 127.0.0.1: createFrameHost's answers, changed by `change` (its headers as node:http sends them, its status, its body). */
async function host(change: (path: string, answer: { status: number; headers: [string, string][]; body: string }) => void) {
  const server = createServer(async (req, res) => {
    const response = await frames(new Request(`https://frames.example${req.url}`, { method: req.method }));
    const answer = { status: response.status, headers: [...response.headers], body: await response.text() };
    change(req.url ?? '/', answer);
    res.writeHead(answer.status, answer.headers.flat()).end(answer.body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** The CLI's exit status and its lines. */
async function check(url: string) {
  try {
    const { stdout } = await exec(process.execPath, [BIN, 'frames', 'check', url, '--merchant-origin', SHOP]);
    return { code: 0, lines: stdout.trim().split('\n') };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, lines: e.stdout.trim().split('\n') };
  }
}

describe('payframe frames check against hosts that look fenced', () => {
  it('passes the host as createFrameHost serves it', async () => {
    const url = await host(() => {});
    const { code, lines } = await check(url);
    expect(lines.at(-1)).toBe(`payframe frames check: ${url} keeps the frames fenced in.`);
    expect(code).toBe(0);
  });

  it('fails a host that answers unknown paths with the frame page as a 404 without its headers', async () => {
    const page = await (await frames(new Request('https://frames.example/'))).text();
    const url = await host((path, answer) => {
      if (path === '/' || path === '/cvv/') return;
      answer.status = 404;
      answer.headers = [['content-type', 'text/html; charset=utf-8']];
      answer.body = page;
    });
    const { code, lines } = await check(url);
    expect(code).toBe(1);
    const line = lines.find((l) => l.includes('/payframe-check/ '))!;
    expect(line).toMatch(
      /^FAIL {2}\/payframe-check\/ +the card form's page \(answered 404\) without its headers: no Content-Security-Policy header/,
    );
    expect(line).toContain('serve a 404 page of yours (404.html)');
    expect(lines.at(-1)).toBe(`payframe frames check: ${url} does not keep the frames fenced in (FAIL above).`);
  });

  it('fails a host that sends frame-ancestors * in a policy before the right one', async () => {
    const url = await host((_path, answer) => {
      if (answer.headers.some(([name]) => name === 'content-security-policy'))
        answer.headers.unshift(['content-security-policy', 'frame-ancestors *']);
    });
    const { code, lines } = await check(url);
    expect(code).toBe(1);
    expect(lines[0]).toMatch(
      /^FAIL {2}\/ +the card form's page under a wrong policy: frame-ancestors \* in Content-Security-Policy 1 of the 2 sent, not https:\/\/shop.example: send one policy/,
    );
  });

  it('fails a policy that gives frame-ancestors twice, the weaker first', async () => {
    const url = await host((_path, answer) => {
      for (const header of answer.headers) if (header[0] === 'content-security-policy') header[1] = `frame-ancestors *; ${header[1]}`;
    });
    const { code, lines } = await check(url);
    expect(code).toBe(1);
    expect(lines[0]).toContain('frame-ancestors *, not https://shop.example');
    expect(lines[0]).toContain('frame-ancestors given twice in one policy: browsers keep the first and ignore the rest; give it once');
  });
});
