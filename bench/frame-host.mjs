// Part 6's frame host of the merchant's: createFrameHost of the build under test on its own origin
// (127.0.0.1, the shop's certificate), counting what it answers, so that the table can say what a
// first and a repeat visit cost in requests, statuses and bytes.
import { createServer } from 'node:https';
import { pathToFileURL } from 'node:url';

const distRoot = process.env.PAYFRAME_BENCH_DIST
  ? pathToFileURL(`${process.env.PAYFRAME_BENCH_DIST.replace(/\/?$/, '/')}`)
  : new URL('../dist/', import.meta.url);
const { createFrameHost, toNodeListener } = await import(new URL('server.mjs', distRoot));

/** Listens on 127.0.0.1; answers its port, `take()` (the answers since the last take: status and body bytes) and `close()`. */
export async function startFrameHost(shop, gateway) {
  const host = toNodeListener(createFrameHost({ gateway, merchantOrigins: [shop.origin] }));
  let answers = [];
  const server = createServer(shop.tls, (req, res) => {
    let bytes = 0;
    const { write, end } = res;
    res.write = function (chunk, ...rest) {
      bytes += chunk ? Buffer.byteLength(chunk) : 0;
      return write.call(this, chunk, ...rest);
    };
    res.end = function (chunk, ...rest) {
      if (chunk && typeof chunk !== 'function') bytes += Buffer.byteLength(chunk);
      answers.push({ status: res.statusCode, bytes });
      return end.call(this, chunk, ...rest);
    };
    host(req, res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    take() {
      const taken = answers;
      answers = [];
      return taken;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
