import { type NodeStream, readCapped } from '../body';
import { type Handler, json, MAX_BODY_BYTES } from './handlers';

// The parts of node:http's IncomingMessage and NodeResponse used here, written out so that the
// server entry (and its .d.ts) needs no Node types on runtimes without them.
interface NodeRequest extends NodeStream {
  method?: string | undefined;
  url?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  socket: object;
  readableEnded: boolean;
  /** An Express-like request may carry a body already parsed by `express.json()`. */
  body?: unknown;
}
interface NodeResponse {
  statusCode: number;
  readonly headersSent: boolean;
  setHeader(name: string, value: string | string[]): unknown;
  end(chunk?: Uint8Array): unknown;
}

/**
 * Mounts a Fetch handler on `node:http` (`http.createServer(toNodeListener(h))`) or Express
 * (`app.post('/client-token', toNodeListener(h))`). The body is read as it streams in and refused
 * with 413 past 64 KiB, before the handler runs.
 */
export function toNodeListener(handler: Handler) {
  return (req: NodeRequest, res: NodeResponse): void => {
    void listen(handler, req, res).catch(() => {
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  };
}

async function listen(handler: Handler, req: NodeRequest, res: NodeResponse): Promise<void> {
  const body = await readBody(req);
  if (body === 'too-large') {
    const error = { code: 'invalid_request', message: `the body is over ${MAX_BODY_BYTES} bytes` };
    return send(res, json(413, { error }, { connection: 'close' }));
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    // The body is already whole (and may be re-serialised): its framing headers no longer apply.
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding' || name === 'connection') continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const scheme = 'encrypted' in req.socket && req.socket.encrypted === true ? 'https' : 'http';
  const url = new URL(req.url ?? '/', `${scheme}://${req.headers.host ?? 'localhost'}`);
  const method = req.method ?? 'GET';
  const request = new Request(url, { method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : body });
  await send(res, await handler(request));
}

async function readBody(req: NodeRequest): Promise<Uint8Array<ArrayBuffer> | 'too-large'> {
  // Express's body parsers consume the stream: re-serialise what they parsed.
  if (req.readableEnded && req.body !== undefined) return new TextEncoder().encode(JSON.stringify(req.body));
  return (await readCapped(req, MAX_BODY_BYTES, String(req.headers['content-length'] ?? ''))) ?? 'too-large';
}

async function send(res: NodeResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  res.end(new Uint8Array(await response.arrayBuffer()));
}
