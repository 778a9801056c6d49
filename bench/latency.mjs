// A payer's network in front of a local server: a TCP proxy that holds back each chunk the browser
// sends by `ms` (in order), so that every request, and every TLS handshake flight, waits one trip more.
// Answers come back at once: `ms` is the round trip the payer's network adds. TLS passes through
// untouched (the certificate is the server's own, valid for 127.0.0.1).
import { createServer, connect } from 'node:net';

/** Listens on 127.0.0.1; answers its port and `close()`. */
export async function startLatency(targetPort, ms) {
  const sockets = new Set();
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
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
      // Never before an earlier chunk: order is the stream's.
      due = Math.max(Date.now() + ms, due);
      setTimeout(() => upstream.write(chunk), due - Date.now());
    });
    client.on('end', () => setTimeout(() => upstream.end(), Math.max(0, due - Date.now())));
    upstream.pipe(client);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    async close() {
      sockets.forEach((s) => s.destroy());
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
