// Real engines for the store tests: PostgreSQL 15 (Debian's binaries; its server refuses root, so as
// root it runs as the `postgres` user) and Redis 7, each in a temporary folder on a free port, started
// once per test file and stopped after it (docs/architecture.md, the test suites), and by the bench's
// part 9. Plain JavaScript, so that the bench runs it as it is; its types are in engines.d.mts.
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** A port nobody listens on now. */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

const asRoot = process.getuid?.() === 0;
/** Runs a PostgreSQL program, as `postgres` when this process is root. */
const pg = (program, args) =>
  asRoot
    ? execFileSync('runuser', ['-u', 'postgres', '--', join(PG_BIN, program), ...args], { stdio: 'pipe' })
    : execFileSync(join(PG_BIN, program), args, { stdio: 'pipe' });

/** PostgreSQL 15, initdb'd into a temporary folder. */
export async function startPostgres() {
  if (!existsSync(join(PG_BIN, 'initdb')))
    throw new Error(`no PostgreSQL in ${PG_BIN}: install Debian's postgresql (.ci/run does), or set PG_BIN`);
  const started = performance.now();
  const dir = await mkdtemp(join(tmpdir(), 'payframe-pg-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    chownSync(dir, uid, uid);
  }
  const port = await freePort();
  const data = join(dir, 'data');
  pg('initdb', ['-D', data, '-A', 'trust', '-U', 'payframe', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`;
  const start = async () => void pg('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  const stop = async () => void pg('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  await start();
  return {
    url: `postgres://payframe@127.0.0.1:${port}/postgres`,
    kill: stop,
    start,
    close: async () => {
      await stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
    startedInMs: performance.now() - started,
  };
}

/** Redis with its append-only file written at every change: what survives a crash (docs/stores.md). */
export async function startRedis() {
  const started = performance.now();
  const dir = await mkdtemp(join(tmpdir(), 'payframe-redis-'));
  const port = await freePort();
  let server;
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    'yes',
    '--appendfsync',
    'always',
  ];
  const start = () =>
    new Promise((resolve, reject) => {
      const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      server = child;
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk.toString();
        if (out.includes('Ready to accept connections')) resolve();
      });
      child.on('error', (error) =>
        reject(new Error(`redis-server did not start (install Debian's redis-server; .ci/run does): ${error.message}`)),
      );
      child.on('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out.slice(-500)}`)));
    });
  const kill = () =>
    new Promise((resolve) => {
      if (!server || server.exitCode !== null || server.signalCode !== null) return resolve();
      server.once('exit', () => resolve());
      server.kill('SIGKILL');
    });
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    kill,
    start,
    close: async () => {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
    startedInMs: performance.now() - started,
  };
}
