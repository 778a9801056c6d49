// Part 10's demo shop at a payer's latency: the sandbox (the service and the card frames) and the demo's
// own shop server (demo/server, the code `npm start` runs), each behind a delaying proxy, so that every
// hop a Pay crosses waits one trip more: page ↔ shop (and the CVV frame ↔ shop), page and frames ↔ the
// frames' host and the service, and the shop ↔ the service. The service's proxy takes the sandbox's own
// port number on 127.0.0.1 (the sandbox listens on [::1]), so that the addresses the service hands out
// (a pending payment's redirect URL) are the proxy's, as the live service's are its public origin; the
// shop reaches the service through the same proxy. Each proxy logs the request lines it passes (plain
// HTTP, the demo's loopback development mode): the part prints which requests a Pay made, in order.
// They run in a process of their own, as a shop's server does: the bench's driver (Playwright's client,
// which hears every request and captures a stack per call) would otherwise share their event loop.
import { fork, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLatency } from './latency.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The demo's page bundles, built as `npm start` builds them when they are missing or older than dist/. */
function buildDemoPages() {
  const built = statSync(join(root, 'demo/build/checkout.js'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (built > statSync(join(root, 'dist/payframe.mjs')).mtimeMs) return;
  const run = spawnSync(process.execPath, [join(root, 'node_modules/rollup/dist/bin/rollup'), '-c', 'rollup.demo.config.mjs'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`the demo pages did not build: ${run.stderr}`);
}

/**
 * The sandbox and the demo shop, in a child process, behind their proxies. Answers the checkout's URL,
 * `setDelay(ms)` for every hop, `take()` (the requests since the last take, each with its hop), `close()`,
 * each a promise.
 */
export async function startPayShop() {
  const child = fork(fileURLToPath(import.meta.url), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = [];
  const ask = (m) => new Promise((resolve) => (waiting.push(resolve), child.send(m)));
  child.on('message', (m) => waiting.shift()?.(m));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const started = await Promise.race([ask({ do: 'start' }), exited.then((code) => ({ failed: code }))]);
  if ('failed' in started) throw new Error(`the pay shop's process ended (${started.failed}) before it started`);
  return {
    url: started.url,
    setDelay: (ms) => ask({ do: 'delay', ms }),
    take: () => ask({ do: 'take' }),
    close: async () => {
      await ask({ do: 'close' });
      await exited;
    },
  };
}

// The child: the servers, driven by the parent's messages, one answer each; gone with its parent.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let shop;
  process.on('disconnect', () => process.exit());
  process.on('message', async (m) => {
    if (m.do === 'start') shop = await servePayShop();
    else if (m.do === 'delay') shop.setDelay(m.ms);
    else if (m.do === 'close') await shop.close();
    process.send(m.do === 'start' ? { url: shop.url } : m.do === 'take' ? shop.take() : {});
    if (m.do === 'close') process.disconnect();
  });
}

/** The servers in this process: what startPayShop's child runs. */
async function servePayShop() {
  buildDemoPages();
  const { startSandbox } = await import('payframe/sandbox');
  const { createGateway } = await import('payframe/server');
  const { openDatabase } = await import('../demo/server/db.mjs');
  const { createMerchantServer } = await import('../demo/server/merchant.mjs');
  const { createServer: createHttp } = await import('node:http');

  // The service's proxy first: the sandbox then takes its port number on [::1].
  const target = { host: '::1', port: 0 };
  const service = await startLatency(target);
  target.port = service.port;
  const sandbox = await startSandbox({ host: '::1', port: service.port, plainHttp: true });
  const gatewayUrl = `http://127.0.0.1:${service.port}`;
  const { id: merchantId, clientId, clientSecret } = sandbox.merchant;
  const gateway = createGateway({ merchantId, clientId, clientSecret, baseUrl: gatewayUrl });

  const dataDir = mkdtempSync(join(tmpdir(), 'payframe-bench-pay-'));
  const db = await openDatabase({ folder: dataDir });
  let listener;
  const server = createHttp((req, res) => listener(req, res));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const shop = await startLatency({ host: '127.0.0.1', port: server.address().port });
  const publicOrigin = `http://localhost:${shop.port}`;
  listener = await createMerchantServer({
    gateway,
    merchantId,
    gatewayUrl,
    frameOrigin: gatewayUrl,
    publicOrigin,
    staffKey: '0'.repeat(32),
    notifyAuthorization: 'Bearer bench',
    db,
  });

  const hopOf = (proxy, path) => {
    if (proxy === shop) return 'page ↔ shop';
    if (path.startsWith('/frame/') || path.endsWith('/credit-card-nonce')) return 'page ↔ service';
    return 'shop ↔ service';
  };
  return {
    url: `${publicOrigin}/checkout`,
    setDelay(ms) {
      shop.delay = ms;
      service.delay = ms;
    },
    take() {
      const taken = [shop, service].flatMap((proxy) => proxy.log.map((r) => ({ ...r, hop: hopOf(proxy, r.path) })));
      shop.log = [];
      service.log = [];
      return taken.sort((a, b) => a.at - b.at);
    },
    async close() {
      await Promise.all([shop.close(), service.close()]);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await sandbox.close();
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
