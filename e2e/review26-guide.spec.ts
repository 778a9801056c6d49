// Review 26 ("no payment lost"), on the five-minute integration of docs/integration.md as written: its
// page, checking a payment whose answer was lost, asks GET /order every 2 s; one of those asks fails
// (a blip of the shopper's connection). The page must keep checking, never say "Not paid" and offer
// Pay again: the card was charged. Fails on main as of a567e42.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startSandbox } from '../src/sandbox';
import { readmeBlock } from '../test/readme';

const root = new URL('..', import.meta.url).pathname;
// Inside the package, so that `payframe/server` resolves to this worktree's dist/ (a self-reference).
const app = join(root, 'test-results', 'review26-guide');

let child: ChildProcess | undefined;
test.afterEach(() => {
  if (child?.exitCode === null) child.kill('SIGTERM');
});

test("the guide's page, checking a payment whose answer was lost, keeps checking when one of its asks fails", async ({ browser }) => {
  test.setTimeout(60_000);
  await mkdir(app, { recursive: true });
  for (const name of ['server.mjs', 'checkout.html', 'checkout.css', 'checkout.js']) await writeFile(join(app, name), readmeBlock(`guide/${name}`));
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = s.address() as { port: number };
      s.close(() => resolve(p));
    });
  });
  const sandbox = await startSandbox({ plainHttp: true, notifyUrl: `http://127.0.0.1:${port}/payframe/notify`, notifyAuthorization: 'sandbox-notify-secret' });
  try {
    child = spawn(process.execPath, ['server.mjs'], { cwd: app, env: { ...process.env, PAYFRAME_URL: sandbox.httpUrl!, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (c) => (out += c));
    child.stderr!.on('data', (c) => (out += c));
    await expect.poll(() => /checkout on (http:\/\/\S+)/.exec(out)?.[1], { timeout: 15_000 }).toBeTruthy();
    const url = /checkout on (http:\/\/\S+)/.exec(out)![1]!;

    // The service charges; its answer never comes back, so the order is checked until its notification.
    // The notification route is down for now (a deploy): the page keeps asking meanwhile.
    sandbox.injectFault({ kind: 'lose', method: 'POST', path: '/v1/merchants/sandbox-merchant/payment' });
    sandbox.injectFault({ kind: 'drop', method: 'GET', path: '/v1/merchants/sandbox-merchant/payment/', times: 100 });
    const context = await browser.newContext();
    const page = await context.newPage();
    let asks = 0;
    await page.route('**/order?*', (route) => (++asks === 2 ? route.abort('internetdisconnected') : route.continue()));
    await page.goto(url);
    for (const [id, label, text] of [['card-number', 'Card number', '4111111111111111'], ['card-expiry', 'Expiry date', '1234'], ['card-cvv', 'Security code', '123']]) {
      await page.frameLocator(`#${id} iframe`).getByLabel(label!).click();
      await page.keyboard.type(text!);
    }
    await page.getByRole('button', { name: 'Pay' }).click();
    const status = page.locator('#checkout').getByRole('status');
    await expect(status).toHaveText('We are checking your payment. Do not pay again.', { timeout: 15_000 });
    await expect.poll(() => asks, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    await page.waitForTimeout(500);
    expect(await status.textContent()).not.toMatch(/^Not paid/);
    await expect(page.getByRole('button', { name: 'Pay' })).toBeDisabled();
    await context.close();
  } finally {
    await sandbox.close();
  }
});
