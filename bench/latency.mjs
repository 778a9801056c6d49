// A payer's network in front of a local server: a TCP proxy that holds back each chunk the browser
// sends by `delay` ms (in order), so that every request, and every TLS handshake flight, waits one trip
// more. Answers come back at once: `delay` is the round trip the payer's network adds. TLS passes
// through untouched (the certificate is the server's own, valid for 127.0.0.1). Part 6 and part 10's
// shop (pay-shop.mjs) use it alike.
import { createServer, connect } from 'node:net';

const REQUEST_LINE = /^(GET|HEAD|POST|PUT|DELETE|OPTIONS) (\S+) HTTP\/1\.1\r\n/;

/**
 * Listens on `host:port` (0: a free one) in front of `target` (a port on 127.0.0.1, or `{ host, port }`,
 * read at each connection: its port may be set after the proxy's). Answers `{ port, delay, log, close() }`:
 * `delay` may be changed between requests; `log` gets each plain-HTTP request line it passes, with the
 * time it arrived.
 */
export async function startLatency(target, { delay = 0, host = '127.0.0.1', port = 0 } = {}) {
  const to = typeof target === 'number' ? { host: '127.0.0.1', port: target } : target;
  const sockets = new Set();
  const proxy = { delay, log: [], port: 0 };
  const server = createServer((client) => {
    const upstream = connect(to.port, to.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    let due = 0;
    client.on('data', (chunk) => {
      const line = REQUEST_LINE.exec(chunk.toString('latin1', 0, 300));
      if (line) proxy.log.push({ at: Date.now(), method: line[1], path: line[2] });
      // Never before an earlier chunk: order is the stream's.
      due = Math.max(Date.now() + proxy.delay, due);
      setTimeout(() => upstream.write(chunk), due - Date.now());
    });
    client.on('end', () => setTimeout(() => upstream.end(), Math.max(0, due - Date.now())));
    upstream.pipe(client);
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  proxy.port = server.address().port;
  proxy.close = async () => {
    sockets.forEach((s) => s.destroy());
    await new Promise((resolve) => server.close(resolve));
  };
  return proxy;
}
