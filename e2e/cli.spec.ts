// `npx payframe sandbox`: what a developer runs, driven with what it prints.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';

const exec = promisify(execFile);

const BIN = new URL('../bin/payframe.mjs', import.meta.url).pathname;

function run(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, exited, output: () => out, errors: () => err };
}

async function waitFor(read: () => string, pattern: RegExp): Promise<RegExpMatchArray> {
  for (let i = 0; i < 100; i++) {
    const match = read().match(pattern);
    if (match) return match;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never printed ${pattern}: ${read()}`);
}

let running: ChildProcess | undefined;
test.afterEach(() => void running?.kill('SIGTERM'));

test('prints a sandbox that answers with the credentials it printed, and stops on SIGTERM', async ({ request }) => {
  const cli = run(['sandbox', '--port', '0', '--test-mode']);
  running = cli.child;
  const [, url] = await waitFor(cli.output, /listening on (https:\/\/127\.0\.0\.1:\d+)/);
  const field = async (name: string) => (await waitFor(cli.output, new RegExp(`${name}\\s+(\\S+)`)))[1]!;
  const [merchant, clientId, secret] = [await field('merchant id'), await field('client id'), await field('client secret')];
  expect(cli.output()).toMatch(/approved\s+4111111111111111/);

  const basic = `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
  const token = await request.post(`${url}/v1/merchants/${merchant}/client_token`, {
    headers: { authorization: basic, 'content-type': 'application/json' },
    data: Buffer.from("'grant_type=client_credentials'"), // the literal the service's docs send
  });
  expect(token.status()).toBe(200);
  expect((await token.json()).tokenType).toBe('Bearer');

  // --test-mode turns on the clock control
  const clock = await request.post(`${url}/__sandbox/clock`, { data: { advanceMs: 8 * 24 * 3600_000 } });
  expect(clock.status()).toBe(200);
  expect(Date.parse((await clock.json()).now) - Date.now()).toBeGreaterThan(7 * 24 * 3600_000);

  cli.child.kill('SIGTERM');
  expect(await cli.exited).toBe(0);
  expect(cli.output()).toMatch(/Ctrl-C stops the sandbox\.\npayframe sandbox stopped\.\n$/);
});

test('says it stopped on Ctrl-C, and stops listening', async () => {
  const cli = run(['sandbox', '--port', '0']);
  running = cli.child;
  const [, url] = await waitFor(cli.output, /development URL (http:\/\/127\.0\.0\.1:\d+)/);
  expect((await fetch(`${url}/`)).status).toBe(200);
  cli.child.kill('SIGINT');
  expect(await cli.exited).toBe(0);
  expect(cli.output().endsWith('\npayframe sandbox stopped.\n')).toBe(true);
  expect(cli.errors()).toBe('');
  await expect(fetch(`${url}/`)).rejects.toThrow();
});

test('refuses a bad port and an unknown command with usage', async () => {
  const badPort = run(['sandbox', '--port', 'eighty']);
  expect(await badPort.exited).toBe(2);
  expect(badPort.errors()).toContain('--port must be a number');
  const unknown = run(['serve']);
  expect(await unknown.exited).toBe(2);
  expect(unknown.errors()).toContain('payframe: unknown command "serve"');
  expect(unknown.errors()).toContain('Usage: payframe <command>');
});

test('answers --help and -h on stdout for both commands, --version, and usage errors on stderr', async () => {
  for (const args of [['--help'], ['-h'], ['sandbox', '--help'], ['sandbox', '-h']]) {
    const cli = run(args);
    expect(await cli.exited, args.join(' ')).toBe(0);
    expect(cli.output(), args.join(' ')).toMatch(/^Usage: payframe /);
    expect(cli.errors()).toBe('');
  }
  const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
  for (const flag of ['--version', '-v']) {
    const cli = run([flag]);
    expect(await cli.exited).toBe(0);
    expect(cli.output().trim()).toBe(version);
  }
  const bare = run([]);
  expect(await bare.exited).toBe(2);
  expect(bare.errors()).toMatch(/^Usage: payframe <command>/);
  expect(bare.output()).toBe('');
});

test('says in one line, without a stack trace, why a busy port or an unavailable host cannot serve', async () => {
  const busy = createNetServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  const port = String((busy.address() as AddressInfo).port);
  try {
    const inUse = run(['sandbox', '--port', port]);
    expect(await inUse.exited).toBe(1);
    expect(inUse.errors()).toBe(
      `payframe: port ${port} on 127.0.0.1 is already in use: stop what uses it, or pick another port (--port 0 picks a free one)\n`,
    );
  } finally {
    busy.close();
  }
  // 192.0.2.1 is a documentation address (RFC 5737): never one of this machine's.
  const elsewhere = run(['sandbox', '--port', '0', '--host', '192.0.2.1']);
  expect(await elsewhere.exited).toBe(1);
  expect(elsewhere.errors()).toMatch(/^payframe: cannot listen on 192\.0\.2\.1: it is not an address of this machine/);
  expect(elsewhere.errors()).not.toMatch(/\n\s+at /);
  const unknown = run(['sandbox', '--port', '0', '--host', 'no-such-host.invalid']);
  expect(await unknown.exited).toBe(1);
  expect(unknown.errors()).toMatch(/^payframe: cannot listen on no-such-host\.invalid: the name does not resolve/);
});

test('--cert-dir keeps one certificate across starts, which Node trusts through NODE_EXTRA_CA_CERTS', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'payframe-cert-'));
  try {
    const urlOf = async () => {
      const cli = run(['sandbox', '--port', '0', '--cert-dir', dir]);
      running = cli.child;
      const [, url] = await waitFor(cli.output, /listening on (https:\/\/127\.0\.0\.1:\d+)/);
      expect(cli.output()).toContain(`NODE_EXTRA_CA_CERTS=${join(dir, 'cert.pem')}`);
      return { cli, url: url! };
    };
    const first = await urlOf();
    const cert = await readFile(join(dir, 'cert.pem'), 'utf8');
    expect((await stat(join(dir, 'key.pem'))).mode & 0o777).toBe(0o600);
    first.cli.child.kill('SIGTERM');
    await first.cli.exited;

    const second = await urlOf();
    expect(await readFile(join(dir, 'cert.pem'), 'utf8')).toBe(cert);
    // A Node process with verification on (the default) trusts it through the kept file, and only so.
    const script = `fetch(process.argv[1]).then((r) => r.json()).then((b) => console.log(b.service), (e) => console.log(e.cause?.code))`;
    // Verification on, should the shell that runs the tests have turned it off.
    const env = { ...process.env };
    delete env['NODE_TLS_REJECT_UNAUTHORIZED'];
    const trusted = await exec(process.execPath, ['-e', script, `${second.url}/`], {
      env: { ...env, NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') },
    });
    expect(trusted.stdout.trim()).toBe('payframe sandbox');
    const untrusted = await exec(process.execPath, ['-e', script, `${second.url}/`], { env });
    expect(untrusted.stdout.trim()).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
