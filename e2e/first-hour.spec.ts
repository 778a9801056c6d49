// A merchant's first hour, as a new user lives it (issue 7): the packed package installed into an
// empty app with production dependencies only, the README's quick start run as written against
// `npx payframe sandbox` and against startSandbox({ plainHttp: true }) with TLS verification on, and
// paid by a person in Chromium; the HTTPS way with the sandbox's certificate trusted; CommonJS; and the
// five-minute integration of docs/integration.md (the hosted card form), bundled as an ES module and by script tag.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import resolve from '@rollup/plugin-node-resolve';
import { createServer as createNetServer } from 'node:net';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { rollup } from 'rollup';
import { makeCertificate, startSandbox } from '../src/sandbox';
import { docPages, readmeBlock } from '../test/readme';
import { emptyPglite } from '../test/setup/pglite';

const exec = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;

/** A merchant's process: TLS verification on, should the shell that runs the tests have turned it off. */
function merchantEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env['NODE_TLS_REJECT_UNAUTHORIZED'];
  return env;
}

const running: ChildProcess[] = [];

/** Starts a process in its own group (npx starts the CLI as a grandchild), collecting what it prints. */
function start(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(command, args, { cwd: app, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (out += chunk));
  return {
    child,
    output: () => out,
    printed: async (pattern: RegExp): Promise<string> => {
      for (let i = 0; i < 300; i++) {
        const match = out.match(pattern);
        if (match) return match[1]!;
        if (child.exitCode !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`never printed ${pattern}:\n${out}`);
    },
  };
}

/** The README's server example, as written, against the sandbox at `url`. */
function merchantServer(url: string, extra: Record<string, string> = {}) {
  return start(process.execPath, ['server.mjs'], merchantEnv({ PAYFRAME_URL: url, PORT: '0', ...extra }));
}
const checkoutUrl = (server: ReturnType<typeof merchantServer>) => server.printed(/checkout on (http:\/\/\S+)/);

/** A person pays on the README's checkout page, with nothing but what they see (no TLS errors ignored). */
async function pay(browser: Browser, url: string, screenshot?: string) {
  const context = await browser.newContext({ ignoreHTTPSErrors: false });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  await page.goto(url);
  await page.getByLabel('Card number').fill('4111 1111 1111 1111');
  await page.getByLabel('Expiry month').fill('12');
  await page.getByLabel('Expiry year').fill('34');
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: 'Pay 10.00 USD' }).click();
  await expect(page.getByRole('status')).toHaveText('Paid with the card ending 1111', { timeout: 15_000 });
  if (screenshot) await page.screenshot({ path: test.info().outputPath(screenshot) });

  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.getByRole('button', { name: 'Pay 10.00 USD' }).click();
  await expect(page.getByRole('status')).toHaveText('Not paid: Do not honor');
  await page.getByLabel('Card number').fill('4644 2605 8166 1836'); // the bank asks for a one-time password
  await page.getByRole('button', { name: 'Pay 10.00 USD' }).click();
  await expect(page.getByRole('status')).toHaveText('Your bank asks for a one-time password: the five-minute integration finishes it');
  await page.getByLabel('Card number').fill('4111 1111 1111 1112');
  await page.getByRole('button', { name: 'Pay 10.00 USD' }).click();
  await expect(page.getByRole('status')).toHaveText('Check the card number');
  expect(problems).toEqual([]);
  await context.close();
}

let app: string;
const pgliteVersion = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> })
  .devDependencies['@electric-sql/pglite']!;

/** The guide's server (docs/integration.md), as written, with its database in a folder of its own unless `data` names one. */
async function guideServer(extra: Record<string, string>, data?: string) {
  return start(process.execPath, ['guide/server.mjs'], merchantEnv({ SHOP_DATA: data ?? (await guideData()), ...extra }));
}
let folders = 0;
/**
 * A new data folder for one start of the guide's server, so that two starts never share one (PGlite is one
 * process per folder): a copy of one PGlite made once, since making a database takes seconds.
 */
async function guideData(): Promise<string> {
  const folder = join(app, `shop-data-${++folders}`);
  await cp(join(app, 'shop-data-made'), folder, { recursive: true });
  return folder;
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await mkdtemp(join(tmpdir(), 'payframe-first-hour-'));
  // dist/ was built before the tests run; prepack would rebuild it under the other tests' feet.
  const { stdout } = await exec('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', app], { cwd: root });
  const { filename } = (JSON.parse(stdout) as { filename: string }[])[0]!;
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'shop', version: '1.0.0', private: true }));
  await exec('npm', ['install', join(app, filename), '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: app });
  // The guide's database, the merchant's own dependency (docs/integration.md: `npm install @electric-sql/pglite`), not payframe's.
  await exec('npm', ['install', `@electric-sql/pglite@${pgliteVersion}`, '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: app,
  });
  await writeFile(join(app, 'server.mjs'), readmeBlock('quick-start/server.mjs'));
  await writeFile(join(app, 'checkout.html'), readmeBlock('quick-start/checkout.html'));
  await writeFile(join(app, 'checkout.js'), readmeBlock('quick-start/checkout.js'));
  await writeFile(join(app, 'require.cjs'), readmeBlock('package/require.cjs'));
  emptyPglite(join(app, 'shop-data-made')); // the same PGlite version as the one installed above
  await mkdir(join(app, 'guide'));
  await writeFile(join(app, 'guide/server.mjs'), readmeBlock('guide/server.mjs'));
  await writeFile(join(app, 'guide/checkout.html'), readmeBlock('guide/checkout.html'));
  await writeFile(join(app, 'guide/checkout.css'), readmeBlock('guide/checkout.css'));
  await writeFile(join(app, 'guide/checkout.src.js'), readmeBlock('guide/checkout.js'));
});

test.afterEach(() => {
  for (const child of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(-child.pid, 'SIGTERM');
  }
});

test.afterAll(async () => {
  if (app) await rm(app, { recursive: true, force: true });
});

test('a production install brings payframe and valibot, and nothing else', async () => {
  const { stdout } = await exec('npm', ['ls', '--all', '--omit=dev', '--parseable'], { cwd: app });
  const packages = stdout
    .trim()
    .split('\n')
    .slice(1)
    .map((path) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
  // The app's own database for the guide, installed by the merchant beside payframe: not counted as payframe's.
  const shop = JSON.parse(await readFile(join(app, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  expect(Object.keys(shop.dependencies).sort()).toEqual(['@electric-sql/pglite', 'payframe']);
  expect(packages.filter((name) => name !== '@electric-sql/pglite').sort()).toEqual(['payframe', 'valibot']);
  const manifest = JSON.parse(await readFile(join(app, 'node_modules/payframe/package.json'), 'utf8'));
  expect(Object.keys(manifest.dependencies)).toEqual(['valibot']);
});

test('the packed package has its LICENSE and the docs pages a merchant reads, builds before packing, and ships no source maps', async () => {
  const files = JSON.parse((await exec('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], { cwd: root })).stdout)[0].files as {
    path: string;
  }[];
  const paths = files.map((file) => file.path);
  expect(paths).toContain('LICENSE');
  expect(paths).toContain('dist/payframe.umd.min.js');
  expect(paths).toContain('dist/payframe.full.umd.min.js');
  expect(paths.filter((path) => path.endsWith('.map'))).toEqual([]);
  // The pages a merchant reads ship beside the README; the screenshots, the benchmark report and the source layout do not.
  expect(paths.filter((path) => path.startsWith('docs/') || path.startsWith('bench/')).sort()).toEqual(
    docPages()
      .filter((page) => page.startsWith('docs/') && page !== 'docs/architecture.md')
      .sort(),
  );
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  expect(manifest.scripts.prepack).toBe('npm run build');
  expect(await readFile(join(app, 'node_modules/payframe/LICENSE'), 'utf8')).toMatch(new RegExp(`^${manifest.license} License`));
  const bundle = await readFile(join(app, 'node_modules/payframe/dist/payframe.mjs'), 'utf8');
  expect(bundle).not.toContain('sourceMappingURL');
});

test("the README's quick start runs as written against `npx payframe sandbox`, and a person pays", async ({ browser }) => {
  test.setTimeout(90_000);
  const sandbox = start('npx', ['payframe', 'sandbox', '--port', '0'], merchantEnv());
  const url = await sandbox.printed(/development URL (http:\/\/127\.0\.0\.1:\d+)/);
  await pay(browser, await checkoutUrl(merchantServer(url)), 'quick-start.png');
});

test("the README's quick start runs as written against startSandbox({ plainHttp: true })", async ({ browser }) => {
  test.setTimeout(60_000);
  const sandbox = await startSandbox({ plainHttp: true });
  try {
    const checkout = await checkoutUrl(merchantServer(sandbox.httpUrl!));
    await pay(browser, checkout);
    // The page's nonce request came from the page's origin with a client token; the card went nowhere else.
    const nonces = sandbox.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/credit-card-nonce'));
    // Three cards paid (approved, declined, one-time password), one refused on the page before any request.
    expect(nonces.map((r) => r.headers['origin'])).toEqual([1, 2, 3].map(() => new URL(checkout).origin));
    const payments = sandbox.requests().filter((r) => r.path.endsWith('/payment'));
    expect(JSON.stringify(payments)).not.toMatch(/4111 ?1111 ?1111 ?1111|4000000000000002|4644260581661836/);
  } finally {
    await sandbox.close();
  }
});

test('over HTTPS, the server example works once it trusts sandbox.ca, and says why when it does not', async () => {
  test.setTimeout(60_000);
  const tls = makeCertificate();
  const sandbox = await startSandbox({ tls });
  try {
    const ca = join(app, 'ca.pem');
    await writeFile(ca, sandbox.ca);
    const trusted = await checkoutUrl(merchantServer(sandbox.url, { NODE_EXTRA_CA_CERTS: ca }));
    const token = await fetch(new URL('/client-token', trusted), { method: 'POST' });
    expect(token.status).toBe(200);
    expect(await token.json()).toMatchObject({ clientToken: expect.any(String), expiresAt: expect.any(String) });

    const untrusted = await checkoutUrl(merchantServer(sandbox.url));
    const refused = await fetch(new URL('/client-token', untrusted), { method: 'POST' });
    expect(refused.status).toBe(502);
    const { error } = await refused.json();
    expect(error.code).toBe('network');
    expect(error.message).toMatch(/TLS certificate is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\).*development URL.*NODE_EXTRA_CA_CERTS/);
  } finally {
    await sandbox.close();
  }
});

test('CommonJS: require() loads every entry on this Node, and the README block runs', async () => {
  const { stdout } = await exec(process.execPath, ['require.cjs'], { cwd: app });
  expect(stdout.trim()).toBe('function function');
  const script =
    "for (const entry of ['payframe', 'payframe/server', 'payframe/sandbox']) console.log(entry + ' ' + (Object.keys(require(entry)).length > 0))";
  const all = await exec(process.execPath, ['-e', script], { cwd: app });
  expect(all.stdout.trim().split('\n')).toEqual(['payframe true', 'payframe/server true', 'payframe/sandbox true']);
});

/** The guide's page script as a merchant ships it: as written for the script tag, or with its first line as docs/integration.md says for a bundler, bundled. */
async function guideScript(kind: 'bundle' | 'script-tag'): Promise<string> {
  const source = join(app, 'guide/checkout.src.js');
  const code = await readFile(source, 'utf8');
  if (kind === 'script-tag') return code;
  const line = "const { createClient, handlePending, mountFields } = Payframe; // the script tag's global";
  expect(code).toContain(line);
  const module = join(app, 'guide/checkout.module.js');
  await writeFile(module, code.replace(line, "import { createClient, handlePending, mountFields } from 'payframe';"));
  const bundle = await rollup({ input: module, plugins: [resolve({ browser: true })] });
  const { output } = await bundle.generate({ format: 'iife', inlineDynamicImports: true });
  await bundle.close();
  return output[0].code;
}

/** What a person sees of the card fields: each box has a border, and is tall enough to type in. */
async function expectVisibleBoxes(page: Page, ids: string[]) {
  for (const id of ids) {
    const box = page.locator(`#${id}`);
    expect(await box.evaluate((el) => getComputedStyle(el).borderTopStyle), id).toBe('solid');
    expect((await box.boundingBox())!.height, id).toBeGreaterThanOrEqual(40);
  }
}

/** Types a card into the guide's frames as a person does: a click into each field, then the keys. */
async function typeGuideCard(page: Page, number: string) {
  for (const [id, label, text] of [
    ['card-number', 'Card number', number],
    ['card-expiry', 'Expiry date', '1234'],
    ['card-cvv', 'Security code', '123'],
  ]) {
    await page.frameLocator(`#${id} iframe`).getByLabel(label!).click();
    await page.keyboard.type(text!);
  }
}

/** A person pays on the guide's page: a card approved at once, then one whose bank asks for a one-time password. */
async function payHosted(browser: Browser, url: string, screenshot?: string) {
  const context = await browser.newContext({ ignoreHTTPSErrors: false });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on(
    'console',
    (message) =>
      (message.type() === 'error' || /Content Security Policy|Trusted Type/i.test(message.text())) && problems.push(message.text()),
  );
  const status = page.locator('#checkout').getByRole('status');
  await page.goto(url);
  await expect(page.getByRole('button', { name: 'Pay' })).toBeDisabled();
  await expect(page.frameLocator('#card-number iframe').getByLabel('Card number')).toBeEditable({ timeout: 15_000 });
  await expectVisibleBoxes(page, ['card-number', 'card-expiry', 'card-cvv']);
  if (screenshot) await page.screenshot({ path: test.info().outputPath(screenshot) });
  await typeGuideCard(page, '4111111111111111');
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(status).toHaveText('Paid', { timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Pay' })).toBeDisabled();

  await page.reload();
  await typeGuideCard(page, '4644260581661836');
  await page.keyboard.press('Enter'); // in the CVV field: submits the page's form
  await expect(page.getByLabel('One-time password')).toBeFocused({ timeout: 15_000 });
  await page.keyboard.type('111111');
  await page.keyboard.press('Enter');
  await expect(status).toHaveText('Paid', { timeout: 15_000 });
  expect(problems).toEqual([]);
  await context.close();
}

test('the five-minute integration (docs/integration.md) runs as written: bundled as an ES module, and by script tag', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const sandbox = await startSandbox({ plainHttp: true });
  try {
    for (const kind of ['script-tag', 'bundle'] as const) {
      await writeFile(join(app, 'guide/checkout.js'), await guideScript(kind));
      const server = await guideServer({ PAYFRAME_URL: sandbox.httpUrl!, PORT: '0' });
      const url = await server.printed(/checkout on (http:\/\/\S+)/);
      const page = await fetch(url);
      expect(page.headers.get('content-security-policy'), kind).toContain(`frame-src ${new URL(sandbox.httpUrl!).origin}`);
      await payHosted(browser, url, `guide-${kind}.png`);
    }
    // The card went to the gateway from its frames only; the merchant's server saw nonces.
    const nonces = sandbox.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/credit-card-nonce'));
    expect(new Set(nonces.map((r) => r.headers['origin']))).toEqual(new Set([new URL(sandbox.httpUrl!).origin]));
    const authenticated = sandbox.requests().filter((r) => r.path.startsWith('/v1/authenticate/'));
    expect(authenticated).toHaveLength(2);
  } finally {
    await sandbox.close();
  }
});

test("the guide's notification route settles a payment whose answer was lost: the page says it is checking, then Paid, one charge", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const port = await closedPort(); // the guide's port, known before it starts: the sandbox posts there
  const sandbox = await startSandbox({
    plainHttp: true,
    notifyUrl: `http://127.0.0.1:${port}/payframe/notify`,
    notifyAuthorization: 'sandbox-notify-secret',
  });
  try {
    await writeFile(join(app, 'guide/checkout.js'), await guideScript('script-tag'));
    const server = await guideServer({ PAYFRAME_URL: sandbox.httpUrl!, PORT: String(port) });
    const url = await server.printed(/checkout on (http:\/\/\S+)/);
    const path = '/v1/merchants/sandbox-merchant/payment';
    sandbox.injectFault({ kind: 'lose', method: 'POST', path }); // the service charges; its answer never comes back

    const context = await browser.newContext({ ignoreHTTPSErrors: false });
    const page = await context.newPage();
    await page.goto(url);
    await typeGuideCard(page, '4111111111111111');
    await page.getByRole('button', { name: 'Pay' }).click();
    const status = page.locator('#checkout').getByRole('status');
    await expect(status).toHaveText('We are checking your payment. Do not pay again.', { timeout: 15_000 });
    await expect(page.getByRole('button', { name: 'Pay' })).toBeDisabled();
    await expect(status).toHaveText('Paid', { timeout: 15_000 });
    await context.close();
    expect(sandbox.requests().filter((r) => r.method === 'POST' && r.path === path)).toHaveLength(1);
    expect(sandbox.notifications().map((n) => [n.kind, n.state, n.attempts.at(-1)?.status])).toEqual([
      ['PAYMENT.SALE.COMPLETED', 'delivered', 204],
    ]);
  } finally {
    await sandbox.close();
  }
});

test("the guide's server killed between the payment request and its answer, restarted on its folder: the page ends Paid, one charge", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const port = await closedPort(); // the same address after the restart: the page keeps asking it
  const sandbox = await startSandbox({
    plainHttp: true,
    notifyUrl: `http://127.0.0.1:${port}/payframe/notify`,
    notifyAuthorization: 'sandbox-notify-secret',
  });
  try {
    await writeFile(join(app, 'guide/checkout.js'), await guideScript('script-tag'));
    const env = { PAYFRAME_URL: sandbox.httpUrl!, PORT: String(port) };
    const data = await guideData();
    const listening = async (server: Awaited<ReturnType<typeof guideServer>>) => {
      const started = Date.now();
      const url = await server.printed(/checkout on (http:\/\/\S+)/);
      return { url, ms: Date.now() - started };
    };
    const first = await guideServer(env, data);
    const { url, ms: made } = await listening(first); // its folder made, then listening
    const path = '/v1/merchants/sandbox-merchant/payment';
    // The service answers the payment request 5 s after it came: the shop is killed (SIGKILL) meanwhile.
    sandbox.injectFault({ kind: 'delay', method: 'POST', path, ms: 5000 });
    const charges = () => sandbox.requests().filter((r) => r.method === 'POST' && r.path === path).length;

    const context = await browser.newContext({ ignoreHTTPSErrors: false });
    const page = await context.newPage();
    const status = page.locator('#checkout').getByRole('status');
    await page.goto(url);
    await typeGuideCard(page, '4111111111111111');
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect.poll(charges, { timeout: 15_000 }).toBe(1);
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    process.kill(-first.child.pid!, 'SIGKILL');
    await exited;
    await expect(status).toHaveText('We are checking your payment. Do not pay again.', { timeout: 15_000 });

    // Started again on the same folder: it still has the attempt, and the service's notification names its payment.
    const { ms: opened } = await listening(await guideServer(env, data));
    test.info().annotations.push({ type: 'PGlite', description: `listening ${made} ms after start, ${opened} ms after the restart` });
    await expect(status).toHaveText('Paid', { timeout: 20_000 });
    await expect(page.getByRole('button', { name: 'Pay' })).toBeDisabled();
    await context.close();
    expect(charges()).toBe(1);
    expect(sandbox.notifications().map((n) => [n.kind, n.state, n.attempts.at(-1)?.status])).toEqual([
      ['PAYMENT.SALE.COMPLETED', 'delivered', 204],
    ]);
  } finally {
    await sandbox.close();
  }
});

test("the guide's page keeps checking when one of its asks fails, and when /pay's own answer is lost on its way back", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const port = await closedPort();
  const sandbox = await startSandbox({
    plainHttp: true,
    notifyUrl: `http://127.0.0.1:${port}/payframe/notify`,
    notifyAuthorization: 'sandbox-notify-secret',
  });
  try {
    await writeFile(join(app, 'guide/checkout.js'), await guideScript('script-tag'));
    const server = await guideServer({ PAYFRAME_URL: sandbox.httpUrl!, PORT: String(port) });
    const url = await server.printed(/checkout on (http:\/\/\S+)/);
    const context = await browser.newContext({ ignoreHTTPSErrors: false });
    const page = await context.newPage();
    const status = page.locator('#checkout').getByRole('status');
    // The service's answer is lost; the page's first ask fails (a blip of the payer's connection).
    sandbox.injectFault({ kind: 'lose', method: 'POST', path: '/v1/merchants/sandbox-merchant/payment' });
    let asks = 0;
    await page.route('**/pay?*', (route) => (++asks === 1 ? route.abort('internetdisconnected') : route.continue()));
    await page.goto(url);
    await typeGuideCard(page, '4111111111111111');
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect(status).toHaveText('We are checking your payment. Do not pay again.', { timeout: 15_000 });
    await expect.poll(() => asks, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    await expect(status).toHaveText('Paid', { timeout: 15_000 });

    // The shop paid, and its answer to /pay broke off on the way to the browser: asked for by the page's id, it is paid.
    await page.reload();
    await typeGuideCard(page, '4111111111111111');
    await page.route('**/pay', async (route) => {
      await route.fetch();
      await route.abort('connectionreset');
    });
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect(status).toHaveText('Paid', { timeout: 15_000 });
    await expect(page.getByRole('button', { name: 'Pay' })).toBeDisabled();
    await context.close();
    expect(sandbox.requests().filter((r) => r.method === 'POST' && r.path === '/v1/merchants/sandbox-merchant/payment')).toHaveLength(2);
  } finally {
    await sandbox.close();
  }
});

test("the guide's page is told `none` only once the server closed the attempt: the /pay that comes late charges nothing", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const sandbox = await startSandbox({ plainHttp: true });
  try {
    await writeFile(join(app, 'guide/checkout.js'), await guideScript('script-tag'));
    const server = await guideServer({ PAYFRAME_URL: sandbox.httpUrl!, PORT: '0' });
    const url = await server.printed(/checkout on (http:\/\/\S+)/);
    const context = await browser.newContext({ ignoreHTTPSErrors: false });
    const page = await context.newPage();
    // The page's /pay is held on its way (a slow proxy): the page's ask gets there first.
    let held: { body: string; cookie: string } | undefined;
    await page.route('**/pay', async (route) => {
      held = { body: route.request().postData()!, cookie: (await route.request().allHeaders())['cookie'] ?? '' };
      await route.abort('connectionreset');
    });
    await page.goto(url);
    await typeGuideCard(page, '4111111111111111');
    await page.getByRole('button', { name: 'Pay' }).click();
    const status = page.locator('#checkout').getByRole('status');
    await expect(status).toHaveText('Not paid: the shop never received the payment', { timeout: 15_000 });
    // Now the held request arrives: the attempt is closed, nothing is charged, and it says so.
    const late = await fetch(new URL('/pay', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: held!.cookie },
      body: held!.body,
    });
    expect(await late.json()).toEqual({ status: 'none' });
    await context.close();
    expect(sandbox.requests().filter((r) => r.method === 'POST' && r.path === '/v1/merchants/sandbox-merchant/payment')).toHaveLength(0);
  } finally {
    await sandbox.close();
  }
});

/** A port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test("the guide's server: HEAD as GET, and a 403 that names the missing shopper cookie", async () => {
  const sandbox = await startSandbox({ plainHttp: true });
  try {
    const server = await guideServer({ PAYFRAME_URL: sandbox.httpUrl!, PORT: '0' });
    const url = await server.printed(/checkout on (http:\/\/\S+)/);
    for (const path of ['/', '/payframe.js', '/config']) {
      const [get, head] = [await fetch(new URL(path, url)), await fetch(new URL(path, url), { method: 'HEAD' })];
      expect(head.status, path).toBe(200);
      expect(head.headers.get('content-type'), path).toBe(get.headers.get('content-type'));
      expect(await head.text(), path).toBe('');
    }
    expect((await fetch(new URL('/nothing', url), { method: 'HEAD' })).status).toBe(404);

    // A page served by another server (a bundler's dev server) posts the OTP without the cookie of GET /.
    const otp = { referenceId: 'PAY-1', sessionId: '0'.repeat(32), otp: '111111' };
    const refused = await fetch(new URL('/authenticate', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(otp),
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: { code: 'forbidden', message: 'no shopper cookie: open the checkout from this server (GET / sets it)' },
    });
    expect(sandbox.requests().filter((r) => r.path.startsWith('/v1/authenticate/'))).toEqual([]);

    // Its console shows each call to the service, in one line.
    expect((await fetch(new URL('/client-token', url), { method: 'POST' })).status).toBe(200);
    await server.printed(/(payframe: POST \/v1\/merchants\/sandbox-merchant\/client_token: 200 in \d+ ms)\n/);
  } finally {
    await sandbox.close();
  }
});

test("the guide's server says why a client token failed, where the page reads a generic 502: an unreachable service, a wrong secret", async () => {
  const port = await closedPort();
  const unreachable = await guideServer({ PAYFRAME_URL: `http://127.0.0.1:${port}`, PORT: '0' });
  const first = await unreachable.printed(/checkout on (http:\/\/\S+)/);
  const answer = await fetch(new URL('/client-token', first), { method: 'POST' });
  expect(answer.status).toBe(502);
  expect(await answer.json()).toEqual({ error: { code: 'network', message: 'the connection failed' } });
  const path = '/v1/merchants/sandbox-merchant/client_token';
  await unreachable.printed(
    new RegExp(`(payframe: handlers\\.clientToken\\(\\) answered 502: network: POST ${path}: the connection failed \\(ECONNREFUSED\\))\n`),
  );
  expect(unreachable.output()).toMatch(
    new RegExp(`payframe: POST ${path}: no answer in \\d+ ms: network: the connection failed \\(ECONNREFUSED\\)\n`),
  );

  const sandbox = await startSandbox({ plainHttp: true });
  try {
    const wrong = await guideServer({ PAYFRAME_URL: sandbox.httpUrl!, PORT: '0', PAYFRAME_CLIENT_SECRET: 'not-the-secret' });
    const second = await wrong.printed(/checkout on (http:\/\/\S+)/);
    const refused = await fetch(new URL('/client-token', second), { method: 'POST' });
    expect(refused.status).toBe(502);
    expect(await refused.json()).toEqual({ error: { code: 'unauthorized', message: 'the payment service failed or refused this server' } });
    const line = await wrong.printed(/(payframe: handlers\.clientToken\(\) answered 502: unauthorized: .*)\n/);
    expect(line).toMatch(
      new RegExp(
        `^payframe: handlers\\.clientToken\\(\\) answered 502: unauthorized: POST ${path}: UNAUTHORIZED \\(service event [\\da-f-]{36}\\)$`,
      ),
    );
    expect(wrong.output()).not.toContain('not-the-secret');
  } finally {
    await sandbox.close();
  }
});
