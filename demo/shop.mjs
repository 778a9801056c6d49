// The demo shop's own process, started by demo/start.mjs (and started again should it die, as a
// merchant's process manager does): its server on its port, its ledger in the database folder. The
// sandbox lives in the launcher, so killing this process is what a merchant's crash looks like: the
// service keeps its payments and its notifications, and the shop comes back to its orders.
import { createServer } from 'node:http';
import { createGateway } from 'payframe/server';
import { openDatabase, payframeStore } from './server/db.mjs';
import { createMerchantServer } from './server/merchant.mjs';

/** @type {{ port: number, dataDir: string, gatewayUrl: string, merchantId: string, clientId: string, clientSecret: string, publicOrigin: string, staffKey: string, notifyAuthorization: string }} */
const settings = JSON.parse(process.env['PAYFRAME_DEMO_SHOP'] ?? '{}');
const { port, dataDir, gatewayUrl, merchantId, clientId, clientSecret, publicOrigin, staffKey, notifyAuthorization } = settings;
const db = await openDatabase({ folder: dataDir, databaseUrl: process.env['DATABASE_URL'] });
const records = await payframeStore(db, process.env['REDIS_URL']);
const gateway = createGateway({
  merchantId,
  clientId,
  clientSecret,
  baseUrl: gatewayUrl,
  store: records.store, // what handlers.notification keeps: the ids it handled, in the shop's database
  onEvent: (event) => console.log(`payframe: ${event.message}`), // each call to the service, and the cause of a handler's 5xx
});
const server = createServer(
  await createMerchantServer({
    gateway,
    merchantId,
    gatewayUrl,
    frameOrigin: new URL(gatewayUrl).origin,
    publicOrigin,
    staffKey,
    notifyAuthorization,
    db,
  }),
);
server.once('error', (error) => {
  process.send?.({ error: /** @type {NodeJS.ErrnoException} */ (error).code ?? error.message });
  process.exit(1);
});
server.listen(port, '127.0.0.1', () => process.send?.({ listening: true }));

const stop = async () => {
  server.close();
  server.closeAllConnections();
  await records.close();
  await db.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
// A Ctrl-C reaches the launcher and this process alike: the launcher stops the shop, in its order.
process.on('SIGINT', () => {});
process.on('disconnect', stop); // the launcher is gone
