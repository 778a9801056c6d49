// The demo on servers instead of its folder: DATABASE_URL puts its orders and payframe's records on a
// PostgreSQL server, REDIS_URL the notification ids on Redis (both real, started here: PostgreSQL 15
// and Redis 7, as the store tests start them). A shop killed and started again reads its orders back.
import { expect, test } from '@playwright/test';
import Redis from 'ioredis';
import pg from 'pg';
import { startPostgres, startRedis, type Engine } from '../test/setup/engines.mjs';
import { asStaff, crashShop, type Launched, launch, pay } from './support/demo';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

let postgres: Engine;
let redis: Engine;
let demo: Launched;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  process.env['DATABASE_URL'] = postgres.url;
  process.env['REDIS_URL'] = redis.url;
  try {
    demo = await launch(['--test-mode']);
  } finally {
    delete process.env['DATABASE_URL'];
    delete process.env['REDIS_URL'];
  }
});
test.afterAll(async () => {
  demo?.child.kill('SIGTERM');
  await demo?.exited;
  await Promise.all([postgres?.close(), redis?.close()]);
});

test('orders on PostgreSQL, notification ids on Redis: a paid order outlives the shop’s process', async ({ playwright, request }) => {
  const payer = await playwright.request.newContext();
  const paid = await pay(payer, demo, { intent: 'sale' });
  expect(paid).toMatchObject({ status: 'approved', orderId: expect.stringMatching(/^ORD-/) });
  await request.post(`${demo.sandbox}/__sandbox/notifications/idle`, { data: {} });

  const db = new pg.Client({ connectionString: postgres.url });
  await db.connect();
  const { rows } = await db.query('select body from demo_orders where order_id = $1', [paid.orderId]);
  await db.end();
  expect(rows[0]?.body).toMatchObject({ orderId: paid.orderId, referenceId: paid.referenceId });
  const keys = new Redis(redis.url);
  expect((await keys.keys('payframe:*')).length).toBeGreaterThan(0); // the handled notification's id
  keys.disconnect();

  await crashShop(demo);
  expect(await (await payer.get(`${demo.shop}/api/payment/${paid.referenceId}`)).json()).toMatchObject({
    status: 'approved',
    orderId: paid.orderId,
  });
  await asStaff(request, demo);
  const { payment } = await (await request.get(`${demo.shop}/api/payments/${paid.referenceId}`)).json();
  expect(payment).toMatchObject({ orderId: paid.orderId, state: 'captured' });
  await payer.dispose();
});
