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
/** The `postgres` user's uid and gid, which PostgreSQL's programs run as when this process is root. */
const pgUser = () => {
  const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres']).toString().trim()));
  return { uid, gid };
};
/** Spawn options for PostgreSQL's programs: as `postgres` when root, in `dir`, a folder that user owns. */
const asPostgres = (dir) => ({ cwd: dir, ...(asRoot ? pgUser() : {}) });

/**
 * A server run in the foreground as this process's child, in its process group: a run stopped by Ctrl-C or
 * by the runner's kill of the group stops it too (`pg_ctl` started PostgreSQL in a session of its own,
 * which outlived a killed run). `start` resolves once its output says `ready`; `kill` sends `signal`.
 */
function foreground(name, command, args, ready, signal, options = {}) {
  let server;
  const start = () =>
    new Promise((resolve, reject) => {
      const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
      server = child;
      let out = '';
      // pg_ctl -w gave up after 60 s: a server that neither starts nor exits is stopped then.
      const timer = setTimeout(() => {
        reject(new Error(`${name} was not ready in 60 s: ${out.slice(-500)}`));
        child.kill('SIGKILL');
      }, 60_000);
      const read = (chunk) => {
        out = (out + chunk.toString()).slice(-4_000); // read to the end, or a full pipe would stop the server
        if (out.includes(ready)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`${name} did not start (install Debian's ${name}; .ci/run does): ${error.message}`));
      });
      // After its output is read to the end, so the message holds its last lines.
      child.on('close', (code) => {
        clearTimeout(timer);
        reject(new Error(`${name} exited (${code}): ${out.slice(-500)}`));
      });
    });
  const kill = () =>
    new Promise((resolve) => {
      if (!server || server.exitCode !== null || server.signalCode !== null) return resolve();
      server.once('exit', () => resolve());
      server.kill(signal);
    });
  return { start, kill };
}

/**
 * Starts the server, and answers it as an Engine whose `close` stops it and removes its folder (removed
 * at once when the server does not start).
 */
async function engine(url, dir, { start, kill }, since) {
  const remove = () => rm(dir, { recursive: true, force: true });
  await start().catch(async (error) => {
    await remove();
    throw error;
  });
  const close = async () => {
    await kill();
    await remove();
  };
  return { url, kill, start, close, startedInMs: performance.now() - since };
}

/** PostgreSQL 15, initdb'd into a temporary folder. */
export async function startPostgres() {
  if (!existsSync(join(PG_BIN, 'initdb')))
    throw new Error(`no PostgreSQL in ${PG_BIN}: install Debian's postgresql (.ci/run does), or set PG_BIN`);
  const started = performance.now();
  const dir = await mkdtemp(join(tmpdir(), 'payframe-pg-'));
  if (asRoot) {
    const { uid, gid } = pgUser();
    chownSync(dir, uid, gid);
  }
  const port = await freePort();
  const data = join(dir, 'data');
  execFileSync(join(PG_BIN, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'payframe', '--no-sync'], { stdio: 'pipe', ...asPostgres(dir) });
  // SIGQUIT is PostgreSQL's immediate shutdown: no checkpoint, as a crash leaves the folder.
  const server = foreground(
    'postgresql',
    join(PG_BIN, 'postgres'),
    ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'logging_collector=off', '-c', 'lc_messages=C'],
    'database system is ready to accept connections',
    'SIGQUIT',
    asPostgres(dir),
  );
  return engine(`postgres://payframe@127.0.0.1:${port}/postgres`, dir, server, started);
}

/** Redis with its append-only file written at every change: what survives a crash (docs/stores.md). */
export async function startRedis() {
  const started = performance.now();
  const dir = await mkdtemp(join(tmpdir(), 'payframe-redis-'));
  const port = await freePort();
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
  const server = foreground('redis-server', 'redis-server', args, 'Ready to accept connections', 'SIGKILL');
  return engine(`redis://127.0.0.1:${port}`, dir, server, started);
}
