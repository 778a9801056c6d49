// `npx payframe sandbox`: what a developer runs, driven with what it prints.
import { type ChildProcess, spawn } from 'node:child_process';
import { expect, test } from '@playwright/test';

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
});

test('refuses a bad port and an unknown command with usage', async () => {
  const badPort = run(['sandbox', '--port', 'eighty']);
  expect(await badPort.exited).toBe(2);
  expect(badPort.errors()).toContain('--port must be a number');
  const unknown = run(['serve']);
  expect(await unknown.exited).toBe(2);
  expect(unknown.errors()).toContain('Usage: payframe sandbox');
});
