// docs/outcomes.md's blocks, as written: the notification route at the edge (bundled as a merchant's
// worker is and run in workerd through miniflare, reading payments from a real sandbox), and the settle job.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, testCards } from '../setup/sandbox';
import { createGateway, memoryNotificationStore, type Gateway } from '../../src/server';
import { readmeBlock } from '../readme';

const ROOT = new URL('../../', import.meta.url).pathname;
const AUTH = 'notify-edge-5b1e';
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let gateway: Gateway;
let mf: Miniflare;

beforeAll(async () => {
  sandbox = await startSandbox({ plainHttp: true });
  const { id, clientId, clientSecret } = sandbox.merchant;
  gateway = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: sandbox.httpUrl! });
  const { outputFiles } = await build({
    stdin: { contents: readmeBlock('outcomes/worker.mjs'), resolveDir: ROOT, sourcefile: 'worker.mjs', loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    conditions: ['worker', 'browser'],
  });
  mf = new Miniflare({
    modules: true,
    script: outputFiles[0]!.text,
    compatibilityDate: '2026-01-01',
    kvNamespaces: ['NOTIFIED', 'ORDERS'],
    bindings: {
      MERCHANT_ID: id,
      CLIENT_ID: clientId,
      CLIENT_SECRET: clientSecret,
      GATEWAY_URL: sandbox.httpUrl!,
      NOTIFY_AUTHORIZATION: AUTH,
    },
  });
}, 60_000);
afterAll(async () => {
  await mf?.dispose();
  await sandbox?.close();
});

const form = (payload: unknown) =>
  new URLSearchParams({ pg_signature: 'x', pg_payload: Buffer.from(JSON.stringify(payload)).toString('base64') }).toString();

describe('docs/outcomes.md', () => {
  it('worker.mjs: settles the order from the service, once per notification, and refuses a wrong Authorization', async () => {
    const invoiceNumber = `INV-EDGE-${Date.now()}`;
    const declined = await gateway.payments.create({
      intent: 'sale',
      amount: { currency: 'EUR', total: '4.00' },
      invoiceNumber,
      card: { number: testCards.declined.number, expireMonth: 12, expireYear: 2034, cvv: '123' },
    });
    // A lie: the notification says captured; the order must say what the service says.
    const body = form({
      id: 'WH-EDGE-1',
      create_time: new Date().toISOString(),
      resource_type: 'payment',
      kind: 'PAYMENT.SALE.COMPLETED',
      resource: { reference_id: declined.reference_id, state: 'captured' },
    });
    const post = (authorization: string) =>
      mf.dispatchFetch('https://shop.example/payframe/notify', {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
    expect((await post('wrong')).status).toBe(401);
    const orders = (await mf.getKVNamespace('ORDERS')) as unknown as { get(key: string): Promise<string | null> };
    expect(await orders.get(invoiceNumber)).toBeNull();
    expect((await post(AUTH)).status).toBe(204);
    expect(JSON.parse((await orders.get(invoiceNumber))!)).toEqual({ referenceId: declined.reference_id, state: 'declined' });
    const reads = () => sandbox.requests().filter((r) => r.method === 'GET' && r.path.endsWith(declined.reference_id)).length;
    const before = reads();
    expect((await post(AUTH)).status).toBe(204); // a duplicate: answered, not handled again
    expect(reads()).toBe(before);
    expect((await mf.dispatchFetch('https://shop.example/elsewhere')).status).toBe(404);
  });

  it('settle.mjs: settles open orders by reference id and by invoice number, and leaves the unknown open', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'settle-'));
    await writeFile(join(dir, 'settle.mjs'), readmeBlock('outcomes/settle.mjs'));
    const { settleOpenOrders } = (await import(join(dir, 'settle.mjs'))) as {
      settleOpenOrders: (g: Gateway, orders: Record<string, unknown>[], store: unknown) => Promise<void>;
    };
    const card = { number: testCards.otp.number, expireMonth: 12, expireYear: 2034, cvv: '400' };
    const pending = await gateway.payments.create({ intent: 'sale', amount: { currency: 'EUR', total: '9.00' }, card });
    const lost = await gateway.payments.create({
      intent: 'sale',
      amount: { currency: 'EUR', total: '2.00' },
      invoiceNumber: 'INV-LOST-1',
      card: { ...card, number: testCards.approved.number },
    });
    const store = memoryNotificationStore();
    // As the notification route records it once it has handled the payment's notification:
    await store.claim('WH-1');
    await store.finish('WH-1', { referenceId: lost.reference_id, invoiceNumber: 'INV-LOST-1' });
    const orders = [
      { status: 'pending', referenceId: pending.reference_id },
      { status: 'checking', invoiceNumber: 'INV-LOST-1' },
      { status: 'checking', invoiceNumber: 'INV-NEVER' },
      { status: 'approved', referenceId: 'PAY-LEFT-ALONE' },
    ];
    await settleOpenOrders(gateway, orders, store);
    expect(orders.map((o) => o.status)).toEqual(['pending', 'approved', 'checking', 'approved']);
    sandbox.advanceClock(15 * 60_000); // the payer never finished on the bank's page
    await settleOpenOrders(gateway, orders, store);
    expect(orders[0]).toMatchObject({ status: 'declined', state: 'declined' });
    expect(orders[1]).toMatchObject({ status: 'approved', state: 'captured', referenceId: lost.reference_id });
  });
});
