// One merchant process of the soak (soak.test.ts): a shop built as docs/outcomes.md and docs/stores.md
// say, on PostgreSQL through node-postgres, so that any number of its processes share everything:
// handlers.pay (GET ?attempt= for an outcome whose answer was lost), the notification route, and
// settleOpen as its job. Its orders sit in a table beside payframe's.
import { createServer } from 'node:http';
import pg from 'pg';
import { createGateway, postgresStore, toNodeListener } from 'payframe/server';

const { DATABASE_URL, PAYFRAME_URL, PORT, NOTIFY_AUTHORIZATION } = process.env;
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 6 });
await pool.query(`create table if not exists shop_orders (id text primary key, status text not null default 'open', reference_id text)`);
const gateway = createGateway({
  merchantId: 'sandbox-merchant',
  clientId: 'sandbox-client',
  clientSecret: 'sandbox-secret',
  baseUrl: PAYFRAME_URL,
  store: postgresStore(pool, { lapseMs: 10_000 }),
});

/** An order follows its payment, and a paid order never moves back (docs/outcomes.md). */
const setOrder = (id, status, referenceId) =>
  pool.query(`update shop_orders set status = $2, reference_id = $3 where id = $1 and status <> 'paid'`, [id, status, referenceId]);
const statusOf = (state) => (state === 'captured' || state === 'authorised' ? 'paid' : state === 'declined' ? 'declined' : undefined);

const pay = gateway.handlers.pay({
  // The amount is the shop's; the order is the shopper's session's (here: named by the driver).
  payment: async (_request, body) => {
    const order = String(body.order);
    await pool.query('insert into shop_orders (id) values ($1) on conflict do nothing', [order]);
    return { intent: 'sale', amount: { currency: 'EUR', total: '10.00' }, order };
  },
});
const notify = gateway.handlers.notification({
  authorization: NOTIFY_AUTHORIZATION,
  onPayment: async (payment, _notice, attempt) => {
    if (!attempt?.order) return console.log(`a payment of no order of this shop: ${payment.reference_id}`);
    const status = statusOf(payment.state);
    if (status) await setOrder(attempt.order, status, payment.reference_id);
  },
});

const routes = {
  'POST /client-token': gateway.handlers.clientToken(),
  'POST /pay': pay,
  'GET /pay': pay,
  'POST /notify': notify,
  // The scheduled job, run by the soak at its end.
  'POST /settle': async () => {
    const { settled, open, failed } = await gateway.settleOpen({ olderThan: 0, limit: 1000 });
    for (const a of settled) if (a.order && a.status === 'approved') await setOrder(a.order, 'paid', a.referenceId);
    for (const a of settled) if (a.order && a.status === 'declined') await setOrder(a.order, 'declined', a.referenceId);
    return Response.json({ settled: settled.length, open: open.length, failed: failed.length });
  },
};
const server = createServer(
  toNodeListener(async (request) => {
    const route = routes[`${request.method} ${new URL(request.url).pathname}`];
    return route ? route(request) : new Response('Not found', { status: 404 });
  }),
);
server.listen(Number(PORT), '127.0.0.1', () => process.send?.('listening'));
