/**
 * Time limits of the sandbox's connections. The sandbox serves HTTPS and plain HTTP on one port: it
 * reads the first byte of each connection and hands the socket to one of two servers that never
 * listen themselves. So every limit is set here: a connection that sends nothing, a TLS handshake
 * or a request head that stalls, is closed instead of being held open for good.
 */
import type { Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';

/** How long a connection may stay silent before its first byte, its TLS handshake or its request head. */
export const DEFAULT_IDLE_MS = 10_000;

/** Options for `http.createServer` and `https.createServer`. */
export function serverLimits(idleMs: number) {
  return {
    headersTimeout: idleMs,
    requestTimeout: Math.max(30_000, idleMs), // the whole request, a 64 KiB body included
    keepAliveTimeout: Math.min(5_000, idleMs),
    connectionsCheckingInterval: Math.min(1_000, Math.max(25, Math.floor(idleMs / 4))),
  };
}

/**
 * node:http checks headersTimeout and requestTimeout on a timer it starts when the server starts
 * listening. These servers only receive handed-over sockets and never listen, so start it here
 * (the timer is unref'd, and `close()` stops it). Tested: a stalled request head gets a 408.
 */
export function enforceLimits(...servers: HttpServer[]): void {
  for (const server of servers) server.emit('listening');
}

/** Calls `route` with the socket's first chunk, or closes the socket when none comes within `idleMs`. */
export function onFirstByte(socket: Socket, idleMs: number, route: (chunk: Buffer) => void): void {
  socket.setTimeout(idleMs, () => socket.destroy());
  socket.once('data', (chunk: Buffer) => {
    socket.setTimeout(0); // from here on the server's own limits apply
    socket.pause();
    socket.unshift(chunk);
    route(chunk);
    process.nextTick(() => socket.resume());
  });
}
