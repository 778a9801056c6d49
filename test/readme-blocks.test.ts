// The blocks of the README and the docs that run on a server or a shell, run (or, for commands and headers, checked) as
// written. A block that names the sandbox's default development URL (http://127.0.0.1:8443) is pointed
// at a sandbox of the test's own. Browser blocks run in Chromium (e2e/readme-blocks.spec.ts, first-hour).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../src';
import { frameScript } from 'payframe/frame-bundle';
import { frameHeadersFor } from '../src/sandbox/http/frame-pages';
import { type SandboxHandle, startSandbox, testCards } from './setup/sandbox';
import { pageCsp } from '../e2e/support/merchant';
import { readmeBlock } from './readme';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const DEFAULT_URL = 'http://127.0.0.1:8443';

/** Runs a block's code as an ES module inside the package (so `payframe/...` resolves to this build), pointed at `url`. */
async function load(code: string, url?: string): Promise<Record<string, any>> {
  const dir = join(root, 'reports/readme');
  mkdirSync(dir, { recursive: true });
  if (url) expect(code).toContain(DEFAULT_URL);
  const file = join(dir, `block-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, url ? code.replaceAll(DEFAULT_URL, url) : code);
  return import(pathToFileURL(file).href);
}

describe('README commands', () => {
  it('installs the package by its name', () => {
    expect(readmeBlock('install.sh')).toBe(`npm install ${pkg.name}\n`);
  });

  it('names npm scripts and bench parts that exist', () => {
    const scripts = (block: string) => [...block.matchAll(/npm (?:run )?(\w(?:[\w:-]*\w)?)/g)].map((m) => m[1]!).filter((s) => s !== 'ci');
    for (const script of [...scripts(readmeBlock('two-commands.sh')), ...scripts(readmeBlock('bench.sh'))]) {
      expect(pkg.scripts, script).toHaveProperty(script);
    }
    const parts = readdirSync(join(root, 'bench/parts'));
    for (const n of /-- ([\d ]+)/.exec(readmeBlock('bench.sh'))![1]!.trim().split(' '))
      expect(
        parts.some((p) => p.startsWith(`${n}-`)),
        n,
      ).toBe(true);
  });

  it("shows the sandbox CLI's own usage, and its help commands run", () => {
    const [synopsis, help] = readmeBlock('sandbox/cli.sh').trim().split('\n');
    const cli = (...args: string[]) => execFileSync(process.execPath, [join(root, 'bin/payframe.mjs'), ...args], { encoding: 'utf8' });
    expect(cli('sandbox', '--help').split('\n')[0]).toBe(synopsis!.replace('npx payframe', 'Usage: payframe'));
    expect(help).toMatch(/^npx payframe --help +# and: payframe sandbox --help, payframe --version$/);
    expect(cli('--help')).toContain('Usage: payframe <command>');
    expect(cli('--version').trim()).toBe(pkg.version);
  });
});

describe('README Content-Security-Policy blocks', () => {
  const directives = (text: string) =>
    new Map(
      text
        .replace(/^Content-Security-Policy: /, '')
        .split(/;\s*/)
        .map((d) => d.trim())
        .filter(Boolean)
        .map((d) => [d.split(/\s+/)[0]!, d.split(/\s+/).slice(1).join(' ')]),
    );

  it("the merchant page's policy is the one the browser tests run under", () => {
    const gateway = 'https://127.0.0.1:8443';
    const tested = directives(pageCsp(gateway));
    const block = readmeBlock('csp/page.txt').replaceAll('<frame origin>', gateway).replaceAll('<gateway origin>', gateway);
    for (const [name, value] of directives(block)) expect(tested.get(name), name).toBe(value);
  });

  it("the frame host's policy is the one the sandbox serves (it is the gateway: 'self')", () => {
    const lines = readmeBlock('csp/frame.txt').split('\n');
    const policy = lines.filter((l) => !l.startsWith('Referrer-Policy')).join(' ');
    const block = directives(
      policy
        .replaceAll('<gateway origin>', "'self'")
        .replaceAll("<the merchant's origins>", 'https://shop.example')
        .replace("'<the script's sha256->'", `'${frameScript.hash}'`),
    );
    const shop = { id: 'shop', clientId: 'c', clientSecret: 's', origins: ['https://shop.example'] };
    const served = frameHeadersFor(shop);
    // And the CVV-only form's, as the text under the block says.
    expect(directives(frameHeadersFor(shop, true)['content-security-policy']!).get('connect-src')).toBe("'self' https://shop.example");
    const actual = directives(served['content-security-policy']!);
    for (const [name, value] of block) {
      // The sandbox also admits loopback http fonts (its development mode).
      if (name === 'font-src') expect(actual.get(name)!.startsWith(value), name).toBe(true);
      else expect(actual.get(name), name).toBe(value);
    }
    expect([...actual.keys()].sort()).toEqual([...block.keys()].sort());
    expect(lines).toContain(`Referrer-Policy: ${served['referrer-policy']}`);
  });
});

describe('README server blocks', () => {
  let sandbox: SandboxHandle;
  const nonce = async (card = testCards.approved) => {
    const client = createClient({
      merchantId: sandbox.merchant.id,
      baseUrl: sandbox.httpUrl!,
      authorization: async () =>
        (
          await fetch(`${sandbox.httpUrl}/v1/merchants/${sandbox.merchant.id}/client_token`, {
            method: 'POST',
            headers: { authorization: `Basic ${btoa('sandbox-client:sandbox-secret')}`, 'content-type': 'application/json' },
            body: '{"grant_type":"client_credentials"}',
          })
        ).json(),
    });
    return (await client.tokenize({ number: card.number, expireMonth: card.expireMonth, expireYear: card.expireYear, cvv: card.cvv }))
      .nonce;
  };
  beforeAll(async () => {
    sandbox = await startSandbox({ plainHttp: true });
  });
  afterAll(() => sandbox?.close());

  it('every page names the local sandbox at 127.0.0.1:8443 by its development URL, plain http as the sandbox serves it', async () => {
    const { docPages, readPage } = await import('./readme');
    const scheme = new URL(sandbox.httpUrl!).protocol;
    const named = docPages().flatMap((page) =>
      [...readPage(page).matchAll(/\b(\w+):\/\/127\.0\.0\.1:8443\b/g)].map((m) => `${page}: ${m[1]}:`),
    );
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((n) => !n.endsWith(` ${scheme}`))).toEqual([]);
  });

  it('sandbox/start.mjs starts a sandbox, moves its clock and closes it (any failure rejects the import)', async () => {
    await expect(load(readmeBlock('sandbox/start.mjs'))).resolves.toBeDefined();
  });

  it('sandbox/notifications.mjs sets a notification URL, chaos, waits for quiet delivery and closes', async () => {
    await expect(load(readmeBlock('sandbox/notifications.mjs'))).resolves.toBeDefined();
  });

  it('server/gateway.mjs creates a payment from a nonce and reads it', async () => {
    const { pay } = await load(readmeBlock('server/gateway.mjs'), sandbox.httpUrl!);
    expect(await pay(await nonce())).toMatchObject({ status: 'approved', state: 'captured', code: '0000' });
  });

  it('hosted/keep-card.mjs keeps the card of an approved first payment under the payer, and nothing of a declined one', async () => {
    const { createGateway } = await import('../src/server');
    const gateway = createGateway({
      merchantId: sandbox.merchant.id,
      clientId: 'sandbox-client',
      clientSecret: 'sandbox-secret',
      baseUrl: sandbox.httpUrl!,
    });
    const { payAndKeep } = await load(readmeBlock('hosted/keep-card.mjs'));
    const email = `keep-${Date.now()}@example.com`;
    const paid = await payAndKeep(gateway, { nonce: await nonce(), email });
    expect(paid).toEqual({
      status: 'approved',
      code: '0000',
      kept: { cardId: expect.stringMatching(/^CARD-/), brand: 'visa', last4: '1111' },
    });
    // The payer's saved cards list it; paid again with its CVV, it pays.
    const payer = await gateway.payers.byEmail(email);
    expect(payer.funding_instrument.credit_cards.map((c) => c.id)).toEqual([paid.kept.cardId]);
    const again = await gateway.payments.create({
      intent: 'sale',
      amount: { currency: 'USD', total: '5.00' },
      card: { savedCardId: paid.kept.cardId, cvv: '123' },
    });
    expect(again.state).toBe('captured');
    expect(await payAndKeep(gateway, { nonce: await nonce(testCards.declined), email: `declined-${email}` })).toMatchObject({
      status: 'declined',
      kept: undefined,
    });
  });

  it('pending/server.mjs: pending, finished with the OTP by its own shopper only, then read by session', async () => {
    const { pay, authenticate, paymentSession } = await load(readmeBlock('pending/server.mjs'), sandbox.httpUrl!);
    const as = (shopper: string, body: unknown) =>
      new Request('https://shop.example/x', {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: `shopper=${shopper}` },
        body: JSON.stringify(body),
      });
    const { pending } = await (await pay(as('ada', { nonce: await nonce(testCards.otp) }))).json();
    expect(pending).toEqual({
      referenceId: expect.stringMatching(/^PAY-/),
      sessionId: expect.stringMatching(/^[0-9a-f]{32}$/),
      redirectUrl: expect.any(String),
      otp: true,
    });
    const otp = { referenceId: pending.referenceId, sessionId: pending.sessionId, otp: testCards.otp.otp };
    expect((await authenticate(as('eve', otp))).status).toBe(403);
    expect(await (await authenticate(as('ada', otp))).json()).toMatchObject({ status: 'approved', state: 'captured' });
    expect((await paymentSession(as('eve', { sessionId: pending.sessionId }))).status).toBe(403);
    expect(await (await paymentSession(as('ada', { sessionId: pending.sessionId }))).json()).toEqual({
      status: 'approved',
      state: 'captured',
      code: '0000',
      text: 'Approved',
    });
  });
});
