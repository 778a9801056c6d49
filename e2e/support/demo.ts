// Shared by the demo's Playwright specs: `npm start`'s launcher run as a child process, payments made
// through the shop's own pay route with nonces from payframe's client in Node, and the checks every
// page passes (no CSP violation, no axe violation).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Locator, type Page, test, type TestInfo } from '@playwright/test';
import { createClient } from '../../src';
import { testCards, type TestCard } from '../../src/sandbox';
import { emptyPglite } from '../../test/setup/pglite';

const START = new URL('../../demo/start.mjs', import.meta.url).pathname;

export interface Launched {
  child: ChildProcess;
  /** The shop: http://localhost:PORT */
  shop: string;
  /** The sandbox in its development mode: http://127.0.0.1:PORT */
  sandbox: string;
  /** The back office's address as printed, with this run's staff key: http://localhost:PORT/back-office#key=… */
  backOffice: string;
  output(): string;
  errors(): string;
  exited: Promise<number | null>;
}

/** Runs `npm start`'s launcher (random ports unless `args` name them) until it prints its block. */
export function run(args: string[]): Omit<Launched, 'shop' | 'sandbox' | 'backOffice'> {
  // A database folder of its own (PGlite opens one in one process), gone when the launcher ends.
  const data = args.includes('--data') ? undefined : mkdtempSync(join(tmpdir(), 'payframe-demo-'));
  if (data) emptyPglite(join(data, 'db'));
  const child = spawn(process.execPath, [START, ...args, ...(data ? ['--data', join(data, 'db')] : [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (data) child.on('exit', () => rmSync(data, { recursive: true, force: true }));
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, exited, output: () => out, errors: () => err };
}

export async function launch(args: string[] = []): Promise<Launched> {
  const launched = run(['--port', '0', '--sandbox-port', '0', ...args]);
  // The first run may build the demo's bundles (a React app): on two busy cores that takes a while.
  for (let i = 0; i < 1200; i++) {
    const match = /the shop on (http:\/\/localhost:\d+), the sandbox on (http:\/\/127\.0\.0\.1:\d+)/.exec(launched.output());
    const office = /Back office +(http:\/\/localhost:\d+\/back-office#key=[0-9a-f]{32})\n/.exec(launched.output());
    if (match && office && launched.output().includes('Ctrl-C stops everything.')) {
      return { ...launched, shop: match[1]!, sandbox: match[2]!, backOffice: office[1]! };
    }
    if (launched.child.exitCode !== null) throw new Error(`npm start exited: ${launched.output()}${launched.errors()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  launched.child.kill('SIGTERM');
  throw new Error(`npm start never printed its block: ${launched.output()}${launched.errors()}`);
}

/**
 * One launcher for a spec file: started before its tests, stopped after them. The object is filled
 * in when it has started.
 */
export function useDemo(args: string[] = []): Launched {
  const demo = {} as Launched;
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    Object.assign(demo, await launch(args));
  });
  test.afterAll(async () => {
    demo.child?.kill('SIGTERM');
    await demo.exited;
  });
  return demo;
}

/** A single-use nonce for a test card, from payframe's client in Node (no Origin: served as a server's call). */
export async function nonceFor(launched: Launched, card: TestCard = testCards.approved): Promise<string> {
  const client = createClient({
    merchantId: 'sandbox-merchant',
    baseUrl: launched.sandbox,
    authorization: () => fetch(`${launched.shop}/api/client-token`, { method: 'POST' }).then((r) => r.json()),
  });
  return (await client.tokenize({ number: card.number, expireMonth: card.expireMonth, expireYear: card.expireYear, cvv: card.cvv })).nonce;
}

export interface PayAnswer {
  status: 'approved' | 'pending' | 'declined';
  state: string;
  code: string;
  text: string;
  referenceId: string;
  orderId: string;
  amount: { currency: string; total: string };
  pending?: { referenceId: string; sessionId: string; redirectUrl: string; otp: boolean };
}

/**
 * Pays the shop's order through its own pay route, as the checkout page does. `request` may be a
 * browser context's (it then shares the context's cookies, as the page's fetch would).
 */
export async function pay(
  request: APIRequestContext,
  launched: Launched,
  body: { intent: 'auth' | 'sale'; card?: TestCard; email?: string; saveCard?: boolean; locale?: 'en' | 'ar' },
): Promise<PayAnswer> {
  const { card, ...rest } = body;
  const response = await request.post(`${launched.shop}/api/pay`, { data: { ...rest, card: { nonce: await nonceFor(launched, card) } } });
  expect(response.status(), await response.text()).toBe(200);
  return response.json();
}

/** Records every CSP violation of the page (Trusted Types included) from before its first script. */
export async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  const logged: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Trusted Type/i.test(message.text())) logged.push(message.text());
  });
  page.on('pageerror', (error) => logged.push(`page error: ${error.message}`));
  return async () => [...logged, ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []))];
}

/** axe-core on the page as it is: WCAG 2.1 A and AA, colour contrast included. */
export async function expectAccessible(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/**
 * A screenshot of the whole page kept with the test's results (test-results/...), attached to the
 * report. The viewport is made as tall as the page for it (then put back): Chromium's full-page capture
 * leaves cross-origin frames below the viewport unpainted, and the card fields are such frames.
 */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  const viewport = page.viewportSize() ?? { width: 1280, height: 720 };
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: viewport.width, height: Math.max(height, viewport.height) });
  await page.screenshot({ path });
  await page.setViewportSize(viewport);
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** The shop's and the sandbox's ports are free again: nothing answers there. */
export async function refused(url: string): Promise<boolean> {
  return fetch(url).then(
    () => false,
    () => true,
  );
}

/** The run's staff key, from the printed back office address. */
export const staffKey = (launched: Launched) => new URL(launched.backOffice).hash.slice('#key='.length);

/** Makes `request` (a browser context's, or one of its own) staff, as the back office's page does with the printed key. */
export async function asStaff(request: APIRequestContext, launched: Launched): Promise<void> {
  const response = await request.post(`${launched.shop}/api/staff/session`, { data: { key: staffKey(launched) } });
  expect(response.status(), await response.text()).toBe(200);
}

/** Opens the back office at the printed address and the payment's panel from its row, as the merchant's staff would. */
export async function openPayment(page: Page, launched: Launched, referenceId: string): Promise<Locator> {
  // A page of its own: the back office's address differs from the one open only by its fragment, which
  // would not load it again.
  await page.goto('about:blank');
  await page.goto(launched.backOffice);
  await page.getByRole('button', { name: referenceId, exact: true }).click();
  const panel = page.getByRole('region', { name: `Payment ${referenceId}` });
  await expect(panel).toBeVisible();
  return panel;
}

/** The value of a fact (`<dt>term</dt><dd>…</dd>`) in a back-office panel. */
export const fact = (panel: Locator, term: string) => panel.locator(`dt:text-is("${term}") + dd`);

/** A payment's row in the back office's list. */
export const row = (page: Page, referenceId: string) =>
  page
    .getByRole('table', { name: /Choose a payment/ })
    .getByRole('row')
    .filter({ hasText: referenceId });

/** The demo shop's own process (demo/shop.mjs, the launcher's child): its id. */
export const shopPid = (launched: Launched) =>
  Number(execFileSync('ps', ['-o', 'pid=', '--ppid', String(launched.child.pid)], { encoding: 'utf8' }).trim());

/** Kills the shop as a crash does (SIGKILL) and waits until the launcher has it answering again; answers how long that took, in ms. */
export async function crashShop(launched: Launched): Promise<number> {
  const before = shopPid(launched);
  const started = performance.now();
  process.kill(before, 'SIGKILL');
  await expect
    .poll(
      async () =>
        fetch(`${launched.shop}/api/checkout`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 120_000, intervals: [200] },
    )
    .toBe(200);
  expect(shopPid(launched)).not.toBe(before);
  return performance.now() - started;
}
