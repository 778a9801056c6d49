// `npx payframe frames`, as a merchant runs it: served over http on loopback, refused elsewhere without a
// certificate, and exported for a static host with the very headers the handler sends.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { createFrameHost } from '../../src/server';

const BIN = new URL('../../bin/payframe.mjs', import.meta.url).pathname;
const exec = promisify(execFile);
const OPTIONS = [
  '--gateway',
  'https://api.ompay.com',
  '--merchant-origin',
  'https://shop.example',
  '--merchant-origin',
  'https://www.shop.example',
];
const host = createFrameHost({ gateway: 'https://api.ompay.com', merchantOrigins: ['https://shop.example', 'https://www.shop.example'] });

const failure = (args: string[]) =>
  exec(process.execPath, [BIN, ...args]).then(
    () => {
      throw new Error('expected a failure');
    },
    (e) => e as { code: number; stdout: string; stderr: string },
  );

let running: ChildProcess | undefined;
afterEach(() => void running?.kill('SIGTERM'));

describe('payframe frames', () => {
  it('serves the frames and prints the frameUrl to pass; the page answers as createFrameHost answers it', async () => {
    const child = (running = spawn(process.execPath, [BIN, 'frames', ...OPTIONS, '--port', '0']));
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    await expect.poll(() => out, { timeout: 10_000 }).toMatch(/frameUrl +(http:\/\/127\.0\.0\.1:\d+\/)/);
    const frameUrl = /frameUrl +(\S+)/.exec(out)![1]!;
    const page = await fetch(`${frameUrl}?merchant=m`);
    const direct = await host(new Request(`${frameUrl}?merchant=m`));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(direct.headers.get('content-security-policy'));
    expect(await page.text()).toBe(await direct.text());
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(out).toContain('payframe frames stopped.');
  });

  it('refuses an export to no folder (an empty name would be the current one)', async () => {
    const { code, stderr } = await failure(['frames', 'export', '', ...OPTIONS]);
    expect(code).toBe(2);
    expect(stderr.trim()).toMatch(/^payframe: export takes one folder/);
  });

  it('says a bad option, a missing one, or a busy port in one line', async () => {
    for (const args of [
      ['--gateway', 'http://api.ompay.com', '--merchant-origin', 'https://shop.example'],
      ['--gateway', 'https://api.ompay.com'],
      [...OPTIONS, '--merchant-origin', '*'],
    ]) {
      const { code, stderr } = await failure(['frames', ...args]);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(stderr).toMatch(/^payframe: --(gateway|merchant-origin) /);
    }
    const said = async (args: string[]) => {
      const { code, stderr } = await failure(['frames', ...args]);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      return stderr.trim();
    };
    expect(await said(['--gateway', '--merchant-origin', 'https://shop.example'])).toMatch(/^payframe: --gateway needs a value /);
    expect(await said([...OPTIONS, '--gateway'])).toMatch(/^payframe: --gateway needs a value /);
    expect(await said(['export', tmpdir(), ...OPTIONS, '--port', '1', '--cert-dir=x'])).toMatch(
      /^payframe: export takes no --port, --cert-dir: your static host serves the files /,
    );
    const { code, stderr } = await failure(['frames', ...OPTIONS, '--host', '0.0.0.0']);
    expect(code).toBe(2);
    expect(stderr).toContain('needs https: give --cert-dir DIR');
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = String((busy.address() as { port: number }).port);
    const taken = await failure(['frames', ...OPTIONS, '--port', port]);
    busy.close();
    expect(taken.code).toBe(1);
    expect(taken.stderr.trim()).toBe(
      `payframe: port ${port} on 127.0.0.1 is already in use: stop what uses it, or pick another port (--port 0 picks a free one)`,
    );
  });

  it('refuses a check without a frame URL or a merchant origin, in one line (exit 2)', async () => {
    for (const args of [
      ['check'],
      ['check', 'frames.shop.example', '--merchant-origin', 'https://shop.example'],
      ['check', 'https://frames.shop.example/'],
      ['check', 'https://frames.shop.example/', '--merchant-origin', 'https://shop.example/checkout'],
    ]) {
      const { code, stderr } = await failure(['frames', ...args]);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });

  it('prints its options on --help, on stdout', async () => {
    const { stdout } = await exec(process.execPath, [BIN, 'frames', '--help']);
    expect(stdout).toMatch(/^Usage: payframe frames --gateway URL --merchant-origin ORIGIN/);
    expect(stdout).toContain('payframe frames export DIR');
  });
});

describe('payframe frames export', () => {
  /** `_headers` (Cloudflare Pages, Netlify): a path, then its headers indented under it. */
  const readHeadersFile = (text: string) =>
    new Map(
      text
        .trim()
        .split('\n\n')
        .map((block) => {
          const [path, ...lines] = block.split('\n');
          return [
            path!,
            Object.fromEntries(
              lines.map((l) => [l.trim().slice(0, l.trim().indexOf(':')).toLowerCase(), l.trim().slice(l.trim().indexOf(':') + 2)]),
            ),
          ];
        }),
    );

  it('writes the pages, with _headers and vercel.json holding what the handler sends for each (but its validator)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payframe-export-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const { stdout } = await exec(process.execPath, [BIN, 'frames', 'export', dir, ...OPTIONS]);
    expect(readdirSync(dir).sort()).toEqual(['404.html', '_headers', 'cvv', 'index.html', 'vercel.json']);
    // A page that is not the frame page at every other path: no script in it.
    expect(readFileSync(join(dir, '404.html'), 'utf8')).not.toContain('<script');
    // The export checked itself, path by path, before it finished.
    expect(stdout.split('\n').filter((line) => /^(?:ok|FAIL) /.test(line))).toEqual([
      expect.stringMatching(/^ok {4}\/ +the card form's page, its headers hold$/),
      expect.stringMatching(/^ok {4}\/cvv\/ +the CVV-only form's page, its headers hold$/),
      expect.stringMatching(/^ok {4}\/index\.html +the card form's page, its headers hold$/),
      expect.stringMatching(/^ok {4}\/payframe-check\/ +no frame page \(404\)$/),
      expect.stringMatching(/^ok {4}\/payframe-check\/cvv\/ +no frame page \(404\)$/),
      expect.stringMatching(/^ok {4}\/%63vv\/ +the CVV-only form's page, its headers hold$/),
    ]);
    const headersFile = readHeadersFile(readFileSync(join(dir, '_headers'), 'utf8'));
    const vercel = new Map(
      (
        JSON.parse(readFileSync(join(dir, 'vercel.json'), 'utf8')).headers as {
          source: string;
          headers: { key: string; value: string }[];
        }[]
      ).map(({ source, headers }) => [source, Object.fromEntries(headers.map((h) => [h.key, h.value]))]),
    );
    const files: [string, string][] = [
      ['/', 'index.html'],
      ['/index.html', 'index.html'],
      ['/cvv/', 'cvv/index.html'],
      ['/cvv/index.html', 'cvv/index.html'],
    ];
    // The CVV page without its slash, which static hosts serve or redirect: its headers too (Vercel redirects it).
    // A static host makes its own ETag for the file it serves.
    const sentBy = (answer: Response) => Object.fromEntries([...answer.headers].filter(([key]) => key !== 'etag'));
    const cvvPage = sentBy(await host(new Request('https://frames.shop.example/cvv/')));
    expect([headersFile.get('/cvv'), vercel.get('/cvv')]).toEqual([cvvPage, cvvPage]);
    // Every path first (a path the rules below miss: a percent-encoded one, which a host may match as it
    // came and serve decoded): the CVV-only page's policy, which each page's own narrows, and nosniff.
    const any = { 'content-security-policy': cvvPage['content-security-policy'], 'x-content-type-options': 'nosniff' };
    expect([[...headersFile.keys()][0], headersFile.get('/*'), vercel.get('/(.*)')]).toEqual(['/*', any, any]);
    expect(JSON.parse(readFileSync(join(dir, 'vercel.json'), 'utf8')).trailingSlash).toBe(true);
    for (const [path, file] of files) {
      // What a frame host on another origin than the merchant's answers at this path.
      const answer = await host(new Request(`https://frames.shop.example${path.replace(/index\.html$/, '')}`));
      const sent = sentBy(answer);
      expect(headersFile.get(path), path).toEqual(sent);
      expect(vercel.get(path), path).toEqual(sent);
      expect(readFileSync(join(dir, file), 'utf8'), path).toBe(await answer.text());
    }
  });
});
