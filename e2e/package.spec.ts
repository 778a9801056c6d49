// The package as a merchant installs it: the `exports` map, the built files and their .d.ts, used by
// a project of its own that has no Node types (an edge runtime's view of payframe/server).
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { trustedTls } from './support/tls';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;

// Its sandbox serves the run's certificate pair, which its process trusts (e2e/support/tls.ts).
const consumer = (tls: { key: string; cert: string }) => `
import { createClient, validateNumber, type TokenizeResult } from 'payframe';
import { createGateway, readPayment, type PaymentInput } from 'payframe/server';
import { startSandbox, testCards } from 'payframe/sandbox';

const sandbox = await startSandbox({ tls: ${JSON.stringify(tls)} });
const { id, clientId, clientSecret } = sandbox.merchant;
const gateway = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: sandbox.url });
const client = createClient({ merchantId: id, baseUrl: sandbox.url, authorization: () => gateway.clientToken() });
const c = testCards.approved;
const card: TokenizeResult = await client.tokenize({ number: c.number, expireMonth: c.expireMonth, expireYear: c.expireYear, cvv: c.cvv });
const input: PaymentInput = { intent: 'sale', amount: { currency: 'USD', total: '1.00' }, card: { nonce: card.nonce } };
console.log(readPayment(await gateway.payments.create(input)).status + ' ' + validateNumber('4111').isPotentiallyValid);
await sandbox.close();
`;

let dir: string;
test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'payframe-consumer-'));
  await mkdir(join(dir, 'node_modules'));
  await symlink(root, join(dir, 'node_modules', 'payframe'), 'dir');
  await writeFile(join(dir, 'main.mts'), consumer(trustedTls()));
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'node16',
        moduleResolution: 'node16',
        target: 'es2022',
        strict: true,
        skipLibCheck: false,
        lib: ['es2022', 'dom'],
        types: [],
        outDir: 'out',
      },
      files: ['main.mts'],
    }),
  );
});
test.afterAll(() => rm(dir, { recursive: true, force: true }));

test('a TypeScript project without Node types compiles against all three entries, and the result runs', async () => {
  test.setTimeout(120_000); // tsc over every .d.ts (skipLibCheck off): all computing, 12 s alone on two cores
  await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir]).catch((error) => {
    throw new Error(`tsc failed:\n${error.stdout}${error.stderr}`);
  });
  const { stdout } = await run(process.execPath, [join(dir, 'out', 'main.mjs')]);
  expect(stdout.trim()).toBe('approved true');
});
