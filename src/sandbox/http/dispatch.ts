import type { IncomingMessage, ServerResponse } from 'node:http';
import * as v from 'valibot';
import { readCapped } from '../../shared/body';
import { isLoopback } from '../../shared/url';
import { fail, SandboxError } from '../errors';
import { keep, maskBody, maskHeaders, maskPath, type Recorded } from './record';
import type { Reply, Req, Sandbox } from './context';
import { ROUTES } from './routes';

/**
 * The next `times` (default 1) requests matching `method` and `path` (a prefix, or a RegExp) are
 * dropped before they are handled, handled and then dropped (`lose`: the answer is lost after the
 * service acted, as a connection that breaks on its way back), answered 500, delayed by `ms`, or (`reply`) answered `status` (200) with `body` ('') as
 * `type` (application/json), the body `ms` after the head: malformed answers for clients to survive.
 */
export interface Fault {
  method?: string;
  path?: string | RegExp;
  kind: 'drop' | 'lose' | 'error' | 'delay' | 'reply';
  ms?: number;
  times?: number;
  status?: number;
  body?: string;
  type?: string;
  /** A `reply`'s Location header: a redirect, which no client of payframe follows. */
  location?: string;
}
export type { Recorded };

export const FaultSchema = v.strictObject({
  method: v.optional(v.string()),
  path: v.optional(v.string()),
  kind: v.picklist(['drop', 'lose', 'error', 'delay', 'reply']),
  ms: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(60_000))),
  times: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  status: v.optional(v.pipe(v.number(), v.integer(), v.minValue(200), v.maxValue(599))),
  body: v.optional(v.string()),
  type: v.optional(v.string()),
  location: v.optional(v.string()),
});

/** A `reply` fault's answer: the head at once, the body `ms` later. */
async function replyWith(res: ServerResponse, fault: Fault): Promise<void> {
  res.writeHead(fault.status ?? 200, {
    'content-type': fault.type ?? 'application/json',
    'cache-control': 'no-store',
    ...(fault.location ? { location: fault.location } : {}),
  });
  if (fault.ms) {
    res.flushHeaders();
    await new Promise((r) => setTimeout(r, fault.ms));
  }
  if (!res.destroyed) res.end(fault.body ?? '');
}

const BASE_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

function send(res: ServerResponse, reply: Reply, extra: Record<string, string>): void {
  const status = reply.status ?? 200;
  const headers: Record<string, string> = { ...BASE_HEADERS, ...extra, ...reply.headers };
  let payload: Buffer | string = '';
  if ('file' in reply) {
    headers['content-type'] = reply.type;
    payload = reply.file;
  } else if ('html' in reply) {
    if (reply.html) headers['content-type'] = 'text/html; charset=utf-8';
    payload = reply.html;
  } else if (reply.json !== undefined) {
    headers['content-type'] = 'application/json; charset=utf-8';
    payload = JSON.stringify(reply.json);
  }
  res.writeHead(status, headers).end(payload);
}

export function sendError(res: ServerResponse, error: SandboxError, extra: Record<string, string> = {}): void {
  send(res, { status: error.status, json: error.wireBody() }, extra);
}

/** The request body, at most `max` bytes; past that 413 and the rest is not kept. */
async function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  const bytes = await readCapped(req, max, req.headers['content-length']);
  if (!bytes) throw new SandboxError('PAYLOAD_TOO_LARGE', `The body is larger than ${max} bytes`);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * The origin the URLs handed out are written on: the request's Host when it is a loopback name on the
 * sandbox's own port (a merchant reaching it as `localhost` gets `localhost` URLs back, which its
 * gateway accepts as its own origin), else the address the sandbox is bound to: never any other Host,
 * so a forged Host cannot put its name into a redirect or authenticate URL.
 */
function originOf(bound: string, host: string | undefined): string {
  const url = new URL(bound);
  let named: URL;
  try {
    named = new URL(`${url.protocol}//${host}`);
  } catch {
    return bound;
  }
  if (!isLoopback(named) || named.port !== url.port || named.host !== host?.toLowerCase()) return bound;
  return named.origin;
}

/** Whether a Host header names the sandbox: a loopback name (with any port, or none), or one of `allowed`. */
export function namesSandbox(host: string | undefined, allowed: string[]): boolean {
  let url: URL;
  try {
    url = new URL(`http://${host ?? ''}`);
  } catch {
    return false;
  }
  if (!host || url.username || url.pathname !== '/') return false;
  return isLoopback(url) || allowed.includes(url.hostname);
}

export interface Dispatcher {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  faults: Fault[];
  log: Recorded[];
}

/** The first fault set for this request, used once (or once more of its `times`). */
function takeFault(faults: Fault[], method: string, path: string): Fault | undefined {
  const i = faults.findIndex(
    (f) =>
      (!f.method || f.method.toUpperCase() === method) &&
      (f.path === undefined || (typeof f.path === 'string' ? path.startsWith(f.path) : f.path.test(path))),
  );
  const fault = faults[i];
  if (!fault) return undefined;
  const left = (fault.times ?? 1) - 1;
  if (left <= 0) faults.splice(i, 1);
  else fault.times = left;
  return fault;
}

export function dispatcher(sb: Sandbox, maxBodyBytes: number): Dispatcher {
  const faults: Fault[] = [];
  const log: Recorded[] = [];

  async function handle(raw: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (raw.method ?? 'GET').toUpperCase();
    let url: URL;
    try {
      url = new URL(raw.url ?? '/', 'https://sandbox.invalid');
    } catch {
      // Before any route: answered here, for an unhandled rejection would stop the whole sandbox.
      raw.resume();
      return sendError(res, new SandboxError('INVALID_REQUEST', 'The request target is not a valid path'), { connection: 'close' });
    }
    const headers = headersOf(raw);
    // Only TLS sockets are `encrypted`; plain HTTP reaches this point only in the development mode.
    const base = originOf('encrypted' in raw.socket ? sb.url : (sb.httpUrl ?? sb.url), headers['host']);
    const req: Req = {
      method,
      pathname: url.pathname,
      query: url.searchParams,
      headers,
      body: Buffer.alloc(0),
      base,
      params: [],
      replyHeaders: {},
    };
    try {
      try {
        req.body = await readBody(raw, maxBodyBytes);
      } finally {
        const path = maskPath(raw.url ?? '/');
        keep(log, { method, path, headers: maskHeaders(headers), body: maskBody(req.body, headers['content-type']), at: sb.clock.iso() });
      }
      // A web page the developer visits could drive the sandbox through a name of its own that resolves to
      // loopback (DNS rebinding): only the sandbox's own names are answered.
      if (!namesSandbox(headers['host'], sb.allowedHosts)) {
        res.setHeader('connection', 'close');
        fail(
          'MISDIRECTED_REQUEST',
          `Host ${JSON.stringify((headers['host'] ?? '').slice(0, 100))} is not this sandbox: it answers localhost, 127.0.0.1 and [::1] (and allowedHosts)`,
        );
      }
      const fault = takeFault(faults, method, url.pathname);
      if (fault?.kind === 'drop') return void raw.socket.destroy();
      if (fault?.kind === 'error') fail('INTERNAL_ERROR', 'A fault injected by a test');
      if (fault?.kind === 'delay') await new Promise((r) => setTimeout(r, fault.ms ?? 1000));
      if (fault?.kind === 'reply') return await replyWith(res, fault);

      const routes = ROUTES.filter((r) => (!r.testOnly || sb.testMode) && r.pattern.test(url.pathname));
      if (routes.length === 0) fail('NOT_FOUND', 'No such endpoint');
      const route = routes.find((r) => r.method === method);
      if (!route) {
        res.setHeader('allow', routes.map((r) => r.method).join(', '));
        fail('METHOD_NOT_ALLOWED', `${method} is not allowed here`);
      }
      let params: string[];
      try {
        params = (route!.pattern.exec(url.pathname) ?? []).slice(1).map((p) => decodeURIComponent(p ?? ''));
      } catch {
        return fail('INVALID_REQUEST', 'The path is not valid');
      }
      req.params = params;
      const reply = await route!.handle(sb, req);
      if (fault?.kind === 'lose') return void raw.socket.destroy();
      send(res, reply, req.replyHeaders);
    } catch (error) {
      if (res.headersSent || raw.socket.destroyed) return;
      const refusal = error instanceof SandboxError ? error : new SandboxError('INTERNAL_ERROR', 'The sandbox failed unexpectedly');
      if (refusal.reason === 'PAYLOAD_TOO_LARGE') res.setHeader('connection', 'close');
      sendError(res, refusal, req.replyHeaders);
    }
  }

  return { handle, faults, log };
}
