// The ESM build as a merchant's bundler splits it: a checkout that imports createClient, mountFields and
// handlePending from 'payframe', bundled by esbuild with code splitting, served from the merchant's origin
// under its strict CSP. What the page fetches at once, when the form is ready (the tokenize job), and at
// Pay (handlePending's flow, once the nonce is there) is counted where it arrives, at the merchant's server;
// then it pays.
import { mkdir, writeFile } from 'node:fs/promises';
import { build } from 'esbuild';
import { expect, test } from '@playwright/test';
import { type Merchant, startMerchant } from './support/merchant';

const root = new URL('../', import.meta.url);

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Split checkout</title>
<script type="module" src="/esm/main.js"></script></head><body><form>
<label for="n">Card number</label><div id="n"></div><label for="e">Expiry</label><div id="e"></div>
<label for="c">Security code</label><div id="c"></div><button>Pay</button><p role="status"></p></form></body></html>`;

const APP = `import { createClient, mountFields, handlePending } from 'payframe';
const query = new URLSearchParams(location.search);
const client = createClient({
  merchantId: query.get('merchant'),
  baseUrl: query.get('gateway'),
  authorization: () => fetch('/client-token', { method: 'POST' }).then((r) => r.json()),
});
const form = mountFields({ client, fields: { number: { container: '#n' }, expiry: { container: '#e' }, cvv: { container: '#c' } } });
const status = document.querySelector('[role=status]');
form.ready.then(() => (status.textContent = 'Ready'), (e) => (status.textContent = e.code));
window.handlePending = handlePending;
document.querySelector('form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const { nonce } = await form.tokenize();
  const paid = await fetch('/pay', { method: 'POST', body: JSON.stringify({ nonce }) }).then((r) => r.json());
  status.textContent = paid.status;
});
`;

let merchant: Merchant;
/** Each chunk's static imports, as esbuild wrote them: a chunk runs only once they all arrived. */
const imports = new Map<string, string[]>();
test.beforeAll(async () => {
  merchant = await startMerchant();
  const dir = new URL(`test-results/esm-${process.pid}/`, root);
  await mkdir(dir, { recursive: true });
  await writeFile(new URL('main.js', dir), APP);
  const { outputFiles } = await build({
    entryPoints: [new URL('main.js', dir).pathname],
    bundle: true,
    splitting: true,
    format: 'esm',
    outdir: new URL('out/', dir).pathname,
    write: false,
    platform: 'browser',
    target: 'es2022',
    minify: true,
    alias: { payframe: new URL('dist/payframe.mjs', root).pathname },
    logLevel: 'silent',
  });
  for (const file of outputFiles) {
    const name = file.path.split('/').pop()!;
    merchant.files.set(`/esm/${name}`, { type: 'text/javascript', body: file.text });
    imports.set(
      name,
      [...file.text.matchAll(/(?:from|import)\s*"\.\/([\w-]+\.js)"/g)].map((m) => m[1]!),
    );
  }
  merchant.files.set('/esm', { type: 'text/html; charset=utf-8', body: PAGE });
});
test.afterAll(() => merchant?.close());

/** The chunks the page asked the merchant for, by the module each is named after. */
const chunks = () => merchant.requests.filter((r) => r.path.startsWith('/esm/') && r.path.endsWith('.js')).map((r) => r.path.slice(5));
/** A chunk and those it imports statically, theirs included. */
const graphOf = (name: string, seen = new Set<string>()): Set<string> => {
  if (!seen.has(name)) {
    seen.add(name);
    for (const chunk of imports.get(name) ?? []) graphOf(chunk, seen);
  }
  return seen;
};

test('a split ESM checkout: the hosted form at once, its tokenize job when it is ready, the pending flow at Pay; it pays', async ({
  page,
}) => {
  const query = new URLSearchParams({ merchant: merchant.sandbox.merchant.id, gateway: merchant.sandbox.url });
  await page.goto(`${merchant.url}/esm?${query}`);
  await expect(page.getByRole('status')).toHaveText('Ready');
  // Without a click: the tokenize job's code arrives while the payer types.
  await expect.poll(() => chunks().filter((c) => c.startsWith('tokenize-job-'))).toHaveLength(1);
  // Its imports follow it, asked once it is read (a slow machine asked one after the count below was taken).
  const job = graphOf(chunks().find((c) => c.startsWith('tokenize-job-'))!);
  await expect.poll(() => [...job].filter((c) => !chunks().includes(c))).toEqual([]);
  expect(chunks().filter((c) => c.startsWith('pending-flow-'))).toEqual([]);
  const before = chunks().length;

  const frame = (label: string) => page.frameLocator(`iframe[title="${label}"]`).getByRole('textbox');
  await frame('Card number').pressSequentially('4111111111111111');
  await frame('Expiry').pressSequentially('1234');
  await frame('Security code').pressSequentially('123');
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByRole('status')).toHaveText('approved');
  // Paying fetched one chunk: the pending flow, in case the payment had come back pending.
  await expect.poll(() => chunks().slice(before)).toEqual([expect.stringMatching(/^pending-flow-/)]);

  // handlePending then fetches nothing more.
  await page.evaluate(() => (window as any).handlePending({}, {}).catch(() => undefined));
  expect(chunks().slice(before)).toHaveLength(1);
});
