// docs/hosted-page.md's server block run as written (against this build's dist/: `npm run build` first),
// pointed at a sandbox of the test's own: the payer sent to the page, paying, and settled on return.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox, testCards } from '../setup/sandbox';
import { readmeBlock } from '../readme';

const root = new URL('../..', import.meta.url).pathname;
let sandbox: SandboxHandle;
let block: Record<string, any>;

beforeAll(async () => {
  sandbox = await startSandbox();
  const code = readmeBlock('hosted-page-server');
  expect(code).toContain('http://127.0.0.1:8443');
  const dir = join(root, 'reports/readme');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `hosted-page-${process.pid}-${Date.now()}.mjs`);
  writeFileSync(file, code.replaceAll('http://127.0.0.1:8443', sandbox.url));
  block = await import(pathToFileURL(file).href);
});
afterAll(() => sandbox?.close());

it('sends the payer to the page, and settles the order when they come back paid', async () => {
  const started: Response = await block.startHosted(new Request('https://shop.example/checkout/hosted', { method: 'POST' }));
  expect(started.status).toBe(303);
  const link = started.headers.get('location')!;
  const [invoice] = [...block.orders.keys()];
  expect(block.orders.get(invoice)).toBe('sent to the page');
  const card = testCards.approved;
  const paid = await fetch(link, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ number: card.number, expiry: '12/34', cvv: card.cvv, name: 'Ada Lovelace' }).toString(),
    redirect: 'manual',
  });
  const back = paid.headers.get('location')!;
  expect(back.startsWith('https://shop.example/checkout/return?payment-session-id=')).toBe(true);
  const page: Response = await block.hostedReturn(new Request(back));
  expect(await page.text()).toBe('Thank you: your order is paid.');
  expect(block.orders.get(invoice)).toBe('captured');
});
