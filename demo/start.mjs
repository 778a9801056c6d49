#!/usr/bin/env node
// `npm start`: builds what is missing, starts the sandbox (plain HTTP on loopback: its development
// mode) and the demo shop's server in a process of its own (demo/shop.mjs: started again should it
// die, its orders kept in a database folder), prints where to go, and stops both on Ctrl-C.
import { fork, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const usage = `Usage: npm start -- [--port 3000] [--sandbox-port 8443] [--test-mode] [--notify-url URL] [--data DIR]

  --port N           the shop's pages and API, on http://localhost:N        default 3000
  --sandbox-port N   the sandbox and the card frames, on http://127.0.0.1:N   default 8443
                     (0 picks a free port)
  --test-mode        turn on the sandbox's /__sandbox/ controls (clock, faults)
  --notify-url URL   where the sandbox posts its notifications     default the shop's /api/notifications
  --data DIR         the shop's database folder (PGlite)             default .payframe-demo`;

const fail = (/** @type {string} */ line, code = 1) => {
  console.error(line);
  process.exit(code);
};

/** @type {{ port: string, 'sandbox-port': string, 'test-mode': boolean, 'notify-url'?: string, data?: string, help: boolean }} */
let options;
try {
  ({ values: options } = parseArgs({
    options: {
      port: { type: 'string', default: '3000' },
      'sandbox-port': { type: 'string', default: '8443' },
      'test-mode': { type: 'boolean', default: false },
      'notify-url': { type: 'string' },
      data: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  }));
} catch (error) {
  fail(`${/** @type {Error} */ (error).message}\n\n${usage}`, 2);
}
if (options.help) {
  console.log(usage);
  process.exit(0);
}
const portOf = (/** @type {'port' | 'sandbox-port'} */ name) => {
  const text = options[name];
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) fail(`--${name} must be a number from 0 to 65535, not "${text}"`, 2);
  return Number(text);
};
const shopPort = portOf('port');
const sandboxPort = portOf('sandbox-port');
if (shopPort !== 0 && shopPort === sandboxPort) fail(`--port and --sandbox-port must be two ports, not both ${shopPort}\n\n${usage}`, 2);

// ---- build what is missing or older than its sources ----

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (/** @type {string} */ path) => `${root}${path}`;

/** The newest modification time under these files and folders. @param {string[]} paths */
function newest(paths) {
  let time = 0;
  const visit = (/** @type {string} */ path) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(`${path}/${name}`);
    else time = Math.max(time, stat.mtimeMs);
  };
  paths.forEach((p) => visit(at(p)));
  return time;
}
/** @param {string[]} outputs @param {string[]} inputs */
const stale = (outputs, inputs) => {
  const times = outputs.map((o) => statSync(at(o), { throwIfNoEntry: false })?.mtimeMs ?? 0);
  return Math.min(...times) < newest(inputs);
};

const BUILDS = [
  {
    what: 'payframe',
    // dist/frame/index.html is the card frames' page: the sandbox serves it, its script inline.
    outputs: [
      'dist/payframe.mjs',
      'dist/payframe.umd.min.js',
      'dist/server.mjs',
      'dist/sandbox.mjs',
      'dist/react.mjs',
      'dist/frame/index.html',
    ],
    inputs: ['src', 'rollup.config.mjs'],
    config: 'rollup.config.mjs',
  },
  {
    what: 'the demo pages',
    outputs: ['demo/build/checkout.js', 'demo/build/spa.js', 'demo/build/back-office.js', 'demo/build/return.js', 'demo/build/account.js'],
    inputs: ['demo/web', 'rollup.demo.config.mjs', 'dist/payframe.mjs', 'dist/react.mjs'],
    config: 'rollup.demo.config.mjs',
  },
];

/**
 * One build at a time across processes (two `npm start`s, parallel tests): a lock file next to the
 * demo's bundles, holding the builder's process id. A lock whose process is gone (Ctrl-C during a
 * build) is taken over.
 */
async function withBuildLock(/** @type {() => string | undefined} */ run) {
  const lock = at('demo/build/.lock');
  mkdirSync(at('demo/build'), { recursive: true });
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
      if (!alive(Number(readFileSync(lock, 'utf8')))) rmSync(lock, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  let problem;
  try {
    problem = run();
  } finally {
    rmSync(lock, { force: true });
  }
  if (problem) fail(problem);
}

/** Whether a process with this id runs (a lock being written reads as 0: still alive). @param {number} pid */
function alive(pid) {
  if (!pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

const ROLLUP = at('node_modules/rollup/dist/bin/rollup');
await withBuildLock(() => {
  for (const build of BUILDS) {
    if (!stale(build.outputs, build.inputs)) continue;
    console.log(`Building ${build.what}...`);
    const result = spawnSync(process.execPath, [ROLLUP, '-c', build.config], { cwd: root, encoding: 'utf8' });
    if (result.status !== 0) return `The build of ${build.what} failed:\n${result.stderr || result.error?.message}`;
  }
  return undefined;
});

// ---- start the sandbox and the shop ----

// One demo at a time per database folder (PGlite opens a folder in one process): a lock beside it.
const dataDir = resolve(root, options.data ?? '.payframe-demo');
mkdirSync(dataDir, { recursive: true });
const dataLock = `${dataDir}.lock`;
try {
  writeFileSync(dataLock, String(process.pid), { flag: 'wx' });
} catch (error) {
  if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
  if (alive(Number(readFileSync(dataLock, 'utf8')))) fail(`Another demo uses ${dataDir}: stop it, or give another folder with --data DIR.`);
  writeFileSync(dataLock, String(process.pid));
}
process.on('exit', () => rmSync(dataLock, { force: true }));
// PGlite makes a new database in seconds (more on a busy machine): said, so that the wait is not a hang.
if (!process.env['DATABASE_URL'] && !existsSync(join(dataDir, 'PG_VERSION'))) console.log("Making the shop's database...");

const { startSandbox, testCards } = await import('payframe/sandbox');
const { newStaffKey } = await import('./server/staff.mjs');

/** A busy or forbidden port is one line, never a stack trace. @param {unknown} error @param {number} port @param {string} flag */
function portProblem(error, port, flag) {
  const code = /** @type {NodeJS.ErrnoException} */ (error)?.code ?? error;
  if (code === 'EADDRINUSE') return `Port ${port} is already in use: stop what uses it, or choose another port with ${flag} N.`;
  if (code === 'EACCES') return `Port ${port} needs privileges this user lacks: choose a port above 1023 with ${flag} N.`;
  return undefined;
}

// The shop's port first (0: a free one, found by listening there a moment), so that the sandbox knows
// where to post its notifications; the sandbox is started either way, so that every busy port is named in one go.
const probe = createServer();
const shopStart = await new Promise((resolve, reject) => {
  probe.once('error', reject);
  probe.listen(shopPort, '127.0.0.1', () => resolve(/** @type {import('node:net').AddressInfo} */ (probe.address()).port));
}).then(
  (value) => ({ status: /** @type {const} */ ('fulfilled'), value: /** @type {number} */ (value) }),
  (reason) => ({ status: /** @type {const} */ ('rejected'), reason }),
);
await new Promise((resolve) => probe.close(resolve));
// The Authorization value the shop asks the service to add to its notifications: new at each start.
const notifyAuthorization = `Bearer ${newStaffKey()}`;
const notifyUrl =
  options['notify-url'] ?? (shopStart.status === 'fulfilled' ? `http://127.0.0.1:${shopStart.value}/api/notifications` : undefined);
const [sandboxStart] = await Promise.allSettled([
  startSandbox({
    port: sandboxPort,
    host: '127.0.0.1',
    plainHttp: true,
    testMode: options['test-mode'],
    ...(notifyUrl ? { notifyUrl, notifyAuthorization } : {}),
  }),
]);
/** @param {{ status: 'fulfilled' } | { status: 'rejected', reason: unknown }} shop */
const startFailed = async (shop) => {
  if (sandboxStart.status === 'fulfilled') await sandboxStart.value.close();
  const failures = /** @type {const} */ ([
    [shop, shopPort, '--port'],
    [sandboxStart, sandboxPort, '--sandbox-port'],
  ]);
  const lines = [];
  for (const [start, port, flag] of failures) {
    if (start.status === 'fulfilled') continue;
    const line = portProblem(start.reason, port, flag);
    if (!line) throw start.reason;
    lines.push(line);
  }
  fail(lines.join('\n'));
};
if (sandboxStart.status === 'rejected' || shopStart.status === 'rejected') await startFailed(shopStart);
const sandbox = /** @type {PromiseFulfilledResult<import('payframe/sandbox').SandboxHandle>} */ (sandboxStart).value;
const gatewayUrl = /** @type {string} */ (sandbox.httpUrl);
const { id: merchantId, clientId, clientSecret } = sandbox.merchant;
const port = /** @type {{ value: number }} */ (shopStart).value;
const shop = `http://localhost:${port}`;
// The back office's key, printed in its address's fragment (never sent to the server, so never in a
// log or a Referer); the page trades it for a staff cookie. New at each start: a restart ends old cookies.
const staffKey = newStaffKey();
const shopSettings = { port, dataDir, gatewayUrl, merchantId, clientId, clientSecret, publicOrigin: shop, staffKey, notifyAuthorization };

let stopping = false;
/** @type {import('node:child_process').ChildProcess | undefined} */
let shopProcess;
/** Starts the shop's process; resolves once it listens, or with the reason it could not. @returns {Promise<string | undefined>} */
const startShop = () =>
  new Promise((done) => {
    const child = fork(fileURLToPath(new URL('./shop.mjs', import.meta.url)), [], {
      env: { ...process.env, PAYFRAME_DEMO_SHOP: JSON.stringify(shopSettings) },
    });
    shopProcess = child;
    child.once('message', (/** @type {{ listening?: true, error?: string }} */ message) => done(message.error));
    child.once('exit', (code, signal) => {
      done(`exit ${signal ?? code}`);
      if (stopping || shopProcess !== child) return;
      // A merchant's process manager starts a crashed shop again: so does the demo, on the same port and database.
      console.error(`The shop stopped (${signal ?? `exit code ${code}`}): starting it again.`);
      void startShop().then((problem) => problem && console.error(`The shop did not start again: ${problem}`));
    });
  });
const shopProblem = await startShop();
if (shopProblem) {
  stopping = true;
  shopProcess?.kill('SIGTERM');
  await startFailed({ status: 'rejected', reason: shopProblem });
}

// Before the block below says Ctrl-C stops everything: a Ctrl-C (or a test's SIGINT) that follows it at
// once must find the handler, or the default action kills the process mid-way.
const stop = async () => {
  if (stopping) process.exit(1); // a second Ctrl-C does not wait
  stopping = true;
  if (shopProcess && shopProcess.exitCode === null && shopProcess.signalCode === null) {
    const exited = new Promise((resolve) => shopProcess?.once('exit', resolve));
    shopProcess.kill('SIGTERM');
    await exited;
  }
  await sandbox.close();
  console.log('payframe demo stopped.');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

const group = (/** @type {string} */ n) => n.replace(/(\d{4})(?=\d)/g, '$1 ');
console.log(`
payframe demo: the shop on ${shop}, the sandbox on ${gatewayUrl}${options['test-mode'] ? ' (test mode)' : ''}

  Checkout (script tag)   ${shop}/checkout
  Checkout (React)        ${shop}/spa/
  Your saved cards        ${shop}/account
  Back office             ${shop}/back-office#key=${staffKey}

  Test cards (any future expiry, any CVV):
    ${group(testCards.approved.number)}   approved
    ${group(testCards.declined.number)}   declined
    ${group(testCards.otp.number)}   asks for a one-time password in the page
    ${group(testCards.redirectOnly.number)}   asks for it on the bank's page only
  One-time password: ${testCards.otp.otp}

Plain HTTP on loopback only: no certificate to trust. Ctrl-C stops everything.`);
