// A merchant's notification endpoint for tests: a real node:http server on 127.0.0.1 that keeps what
// arrives and answers as the test says (a status, a delay, a huge body), and can go down and come back.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  params: URLSearchParams;
  payload: any;
}

export interface Receiver {
  url: string;
  port: number;
  got: Received[];
  /** The most requests it has had open at once. */
  maxOpen: number;
  /** How the next requests are answered: status (200), after `delayMs` (counted once `held` has settled), with `bodyBytes` of body. */
  answer: { status: number; delayMs?: number; bodyBytes?: number; held?: Promise<unknown> };
  /** Resolves once `n` notifications have arrived in all (already, or later). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  stop(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  let server: Server;
  const waiters: (() => void)[] = [];
  const r = { got: [] as Received[], answer: { status: 200 } as Receiver['answer'], maxOpen: 0 } as Receiver;
  let open = 0;
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server = createServer((req, res) => {
        r.maxOpen = Math.max(r.maxOpen, ++open);
        res.on('close', () => open--);
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          const params = new URLSearchParams(body);
          const raw = params.get('pg_payload');
          r.got.push({
            headers: req.headers,
            body,
            params,
            payload: raw ? JSON.parse(Buffer.from(raw, 'base64').toString('utf8')) : undefined,
          });
          waiters.splice(0).forEach((w) => w());
          const { status, delayMs = 0, bodyBytes = 0, held } = r.answer;
          let timer: ReturnType<typeof setTimeout> | undefined;
          const answer = () => {
            res.writeHead(status, { 'content-type': 'text/plain' });
            // A huge answer is written in chunks for as long as the client reads it.
            let left = bodyBytes;
            const more = () => {
              while (left > 0 && !res.destroyed) {
                const n = Math.min(left, 64 * 1024);
                left -= n;
                if (!res.write(Buffer.alloc(n, 'x'))) return void res.once('drain', more);
              }
              if (!res.destroyed) res.end();
            };
            more();
          };
          if (held) void held.then(() => !res.destroyed && (timer = setTimeout(answer, delayMs)));
          else timer = setTimeout(answer, delayMs);
          res.on('close', () => clearTimeout(timer));
        });
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  await listen(0);
  r.port = (server!.address() as AddressInfo).port;
  r.url = `http://127.0.0.1:${r.port}/ipn`;
  r.waitFor = (n, timeoutMs = 5000) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${r.got.length} notifications arrived, not ${n}`)), timeoutMs);
      const check = () => {
        if (r.got.length >= n) {
          clearTimeout(timer);
          resolve(r.got);
        } else waiters.push(check);
      };
      check();
    });
  r.stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  r.restart = () => listen(r.port);
  return r;
}

/** What a receiver checks: the signature the sandbox documents (HMAC-SHA256 hex of pg_payload, keyed with the client secret). */
export const signatureOf = (payload: string, secret: string) => createHmac('sha256', secret).update(payload).digest('hex');
