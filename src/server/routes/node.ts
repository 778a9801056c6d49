import { MAX_REQUEST_BODY, type NodeStream, readCapped } from '../../shared/body';
import { PayframeError } from '../../shared/errors';
import { urlOf } from '../../shared/url-of';
import { rebuiltBody, unreadableBodies } from './parsed-body';
import {
  BEFORE_BODY,
  type BodyGate,
  type Handler,
  methodNotAllowed,
  PLAIN,
  type PlainAnswer,
  type PlainHandler,
  refusalResponse,
} from './respond';

// The parts of node:http's IncomingMessage and NodeResponse used here, written out so that the
// server entry (and its .d.ts) needs no Node types on runtimes without them.
interface NodeRequest extends NodeStream {
  method?: string | undefined;
  url?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  socket: object;
  readableEnded: boolean;
  /** A body a framework's parser already read (`express.json()`, `urlencoded()`, `raw()`, `text()`). */
  body?: unknown;
  /** Set by Express's body parsers once they have read the body. */
  _body?: boolean;
}
interface NodeResponse {
  statusCode: number;
  readonly headersSent: boolean;
  setHeader(name: string, value: string | string[]): unknown;
  end(chunk?: Uint8Array): unknown;
  writeHead(status: number, headers: Readonly<Record<string, string>>): { end(chunk?: Uint8Array): unknown };
}

/**
 * Mounts a Fetch handler on `node:http` (`http.createServer(toNodeListener(h))`), Express
 * (`app.post('/client-token', toNodeListener(h))`), Fastify or Koa (docs/servers.md). The body is read
 * as it streams in and refused with 413 past 64 KiB, before the handler runs; a refusal the handler
 * makes from the headers alone (the notification route's 401) comes first, before a byte is read. A body
 * a parser in front already read is rebuilt by its content type (src/server/routes/parsed-body.ts). What a Fetch `Request` cannot carry is answered
 * here in the handlers' JSON shape: TRACE, TRACK and CONNECT (405), a `Host` that is not a host (400);
 * a handler that fails unexpectedly answers 500 `server_error`, never an empty body.
 */
export function toNodeListener(handler: Handler) {
  const plain = (handler as { [PLAIN]?: PlainHandler })[PLAIN];
  return (req: NodeRequest, res: NodeResponse): void => {
    try {
      // A bodiless GET or HEAD to a handler that answers it plainly is answered in this turn, as a static file is.
      if (plain && servedPlainly(plain, req, res)) return;
    } catch {
      return failed(res);
    }
    const gate = (handler as { [BEFORE_BODY]?: BodyGate })[BEFORE_BODY];
    void listen(handler, gate, req, res).catch(() => failed(res));
  };
}

function failed(res: NodeResponse): void {
  if (res.headersSent) return void res.end();
  void send(res, refusalResponse(500, { code: 'server_error', message: 'internal error' }));
}

/**
 * Serves `req` from `plain` when it is a GET or HEAD without a body, to a URL that is one, and its
 * answer is ready; false for `listen` to serve it.
 */
function servedPlainly(plain: PlainHandler, req: NodeRequest, res: NodeResponse): boolean {
  const method = (req.method ?? 'GET').toUpperCase();
  if ((method !== 'GET' && method !== 'HEAD') || hasBody(req)) return false;
  const url = urlOfRequest(req);
  if (!url) return false;
  const answer = plain(method, url, (name) => joined(req.headers[name]));
  // An answer still being made (a page's first request) is served the Fetch way, which waits for it
  // (and answers its failure, if it fails).
  if (answer instanceof Promise) {
    answer.catch(() => undefined);
    return false;
  }
  sendPlain(res, method, answer);
  return true;
}

/** Methods the Fetch standard forbids in a Request; the listener serves every other one. */
const FORBIDDEN = new Set(['CONNECT', 'TRACE', 'TRACK']);
const ALLOWED = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

async function listen(handler: Handler, gate: BodyGate | undefined, req: NodeRequest, res: NodeResponse): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  if (FORBIDDEN.has(method)) {
    req.resume();
    return send(res, methodNotAllowed(ALLOWED, `${method} is not served here`, { connection: 'close' }));
  }
  const url = urlOfRequest(req);
  if (!url) {
    req.resume();
    return send(
      res,
      refusalResponse(
        400,
        { code: 'invalid_request', message: 'the Host header or the request target is not valid' },
        { connection: 'close' },
      ),
    );
  }
  const early = await gate?.(method, (name) => joined(req.headers[name]));
  if (early) {
    // A body still coming is not waited for: the connection ends with the answer.
    if (hasBody(req) && !req.readableEnded) early.headers.set('connection', 'close');
    req.resume();
    return send(res, early);
  }
  const body = await readBody(req);
  const refusal =
    body === 'too-large'
      ? new PayframeError('invalid_request', `the body is over ${MAX_REQUEST_BODY} bytes`, { status: 413 })
      : typeof body === 'string'
        ? new PayframeError('server_error', body)
        : undefined;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    // The body is already whole (and may be re-serialised): its framing headers no longer apply.
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding' || name === 'connection') continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const request = new Request(url, { method, headers, body: method === 'GET' || method === 'HEAD' || refusal ? undefined : body });
  // The handler refuses it when it reads the body (and its onEvent hears it); one that reads no body
  // gets no say over one too large: 413 here, as for every route.
  if (refusal) unreadableBodies.set(request, refusal);
  const response = await handler(request);
  const closing: Record<string, string> = body === 'too-large' ? { connection: 'close' } : {};
  if (body === 'too-large' && unreadableBodies.has(request)) {
    return send(res, refusalResponse(413, { code: 'invalid_request', message: refusal!.message }, closing));
  }
  await send(res, response, closing);
}

const joined = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : (value ?? null));

/** Whether a request says it has a body: one that must be read (and capped) before any answer. */
const hasBody = (req: NodeRequest) => req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';

function urlOfRequest(req: NodeRequest): URL | undefined {
  const scheme = 'encrypted' in req.socket && req.socket.encrypted === true ? 'https' : 'http';
  return requestUrl(req.url ?? '/', `${scheme}://${req.headers.host ?? 'localhost'}`);
}

const PATH = /^\/(?:$|[^/\\\t\n\r])/;

/** The request's URL, or undefined when the Host header (or the target) does not make one. */
function requestUrl(target: string, base: string): URL | undefined {
  // A URL made against `base` proves `base` one too.
  const url = urlOf(target, base);
  // The WHATWG parser forgives what a Host header may not hold (spaces, a second colon): refuse those too.
  // A Host with userinfo (`user@shop.example`) parses, but no Request may carry credentials in its URL.
  if (!url) return undefined;
  // A path keeps the base's host and userinfo (no second parse); not `//…` or `/\…`, which name a host
  // (nor a tab or a newline there, which the parser drops).
  const { host, username, password } = PATH.test(target) ? url : new URL(base);
  return !username && !password && !url.username && !url.password && /^[\w.-]+(?::\d+)?$|^\[[\da-f:.]+\](?::\d+)?$/i.test(host)
    ? url
    : undefined;
}

/** The body's bytes; 'too-large' past the cap; or, when a parser took it and it cannot be given back, why. */
async function readBody(req: NodeRequest): Promise<Uint8Array<ArrayBuffer> | 'too-large' | string> {
  // A parser in front (Express's, Fastify's, Koa's) consumed the stream: rebuild what it kept.
  if (req.readableEnded || req._body === true) {
    if (!hasBody(req)) return new Uint8Array(0);
    const rebuilt = rebuiltBody(req.body, joined(req.headers['content-type']) ?? undefined);
    if ('unfaithful' in rebuilt) return rebuilt.unfaithful;
    return rebuilt.bytes.byteLength > MAX_REQUEST_BODY ? 'too-large' : rebuilt.bytes;
  }
  return (await readCapped(req, MAX_REQUEST_BODY, String(req.headers['content-length'] ?? ''))) ?? 'too-large';
}

/**
 * A plain answer, on the wire as `send` sends the Response it stands for: the same status, headers and
 * bytes. In one `writeHead` (eight `setHeader` calls cost about a seventh of a 304's time), which
 * leaves the body's length to be said: with the headers, once per answer.
 */
function sendPlain(res: NodeResponse, method: string, answer: PlainAnswer): void {
  const { status, headers, body } = answer;
  // A HEAD's answer and a 304 have no body, and node:http says no length for them.
  if (body === null || method === 'HEAD') return void res.writeHead(status, headers).end();
  let sized = withLength.get(answer);
  if (!sized) withLength.set(answer, (sized = { ...headers, 'content-length': String(body.byteLength) }));
  res.writeHead(status, sized).end(body);
}

const withLength = new WeakMap<PlainAnswer, Readonly<Record<string, string>>>();

async function send(res: NodeResponse, response: Response, extra: Record<string, string> = {}): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  for (const [name, value] of Object.entries(extra)) res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  res.end(new Uint8Array(await response.arrayBuffer()));
}
