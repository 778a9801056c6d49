/**
 * Time limits of the sandbox's connections. The sandbox serves HTTPS and plain HTTP on one port: it
 * reads the first byte of each connection and hands the socket to one of two servers that never
 * listen themselves. So every limit is set here: a connection that sends nothing, a TLS handshake
 * or a request head that stalls, is closed instead of being held open for good.
 */
import { type Server as HttpServer, STATUS_CODES } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import { SandboxError } from '../errors';

/** How long a connection may stay silent before its first byte, its TLS handshake or its request head. */
export const DEFAULT_IDLE_MS = 10_000;

/**
 * Sets the servers' limits and starts their enforcement. node:http checks headersTimeout and
 * requestTimeout on a timer it starts when a server starts listening; these servers only receive
 * handed-over sockets and never listen, so the timer is started here (it is unref'd, and `close()`
 * stops it). Tested: a stalled request head gets a 408. (The TLS handshake's limit is an option of
 * `https.createServer`, `handshakeTimeout`.)
 */
export function enforceLimits(idleMs: number, ...servers: (HttpServer | HttpsServer)[]): void {
  for (const server of servers) {
    server.headersTimeout = idleMs;
    server.requestTimeout = Math.max(30_000, idleMs); // the whole request, a 64 KiB body included
    server.keepAliveTimeout = Math.min(5_000, idleMs);
    (server as { connectionsCheckingInterval?: number }).connectionsCheckingInterval = Math.min(
      1_000,
      Math.max(25, Math.floor(idleMs / 4)),
    );
    server.on('clientError', answerClientError);
    server.emit('listening');
  }
}

/**
 * What node:http would answer a request it could not take, but with the sandbox's JSON error body:
 * `408 REQUEST_TIMEOUT` for a head that stalled, `400 INVALID_REQUEST` for one that is not HTTP.
 * (An oversized head keeps node's own 431; a reset socket is just closed.)
 */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return void socket.end('HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n');
  const refusal =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new SandboxError('REQUEST_TIMEOUT', 'The request did not arrive in time')
      : error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW'
        ? new SandboxError('PAYLOAD_TOO_LARGE', 'A chunk extension is too large')
        : new SandboxError('INVALID_REQUEST', 'The request is not valid HTTP');
  const body = JSON.stringify(refusal.wireBody());
  const reason = STATUS_CODES[refusal.status];
  socket.end(
    `HTTP/1.1 ${refusal.status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
  );
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
