/**
 * Reading a body with a size cap, one way for every place that takes bodies from the network: the
 * server companion's Fetch handlers (a web stream), its Node adapter and the sandbox (Node streams),
 * and the service's answers read by the frames, the browser client and the server companion. A body
 * is never buffered past the cap, whatever length it declares.
 */

/** The parts of a Node readable (`IncomingMessage`) used here, so that no Node types are needed. */
export interface NodeStream {
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  off(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  resume(): unknown;
}

type Body = NodeStream | ReadableStream<Uint8Array> | null;

// The most read of a body, one cap per purpose, all here so that they are chosen together.
/** A service answer read by the server companion: the largest, a payer with many cards, is far smaller. */
export const MAX_SERVICE_ANSWER = 1024 * 1024;
/** The nonce endpoint's answer, read in the frames and by `client.tokenize`: a nonce or an error body is a few hundred bytes, a proxy's error page a few KB. */
export const MAX_NONCE_ANSWER = 64 * 1024;
/** The merchant server's answer to a CVV post, read by the CVV frame and passed to the page. */
export const MAX_MERCHANT_ANSWER = 64 * 1024;
/** A request body taken by the server companion's handlers, and by default by the sandbox (the service's own cap: docs/service-decisions.md, "Body size"). */
export const MAX_REQUEST_BODY = 64 * 1024;

const isWeb = (body: NonNullable<Body>): body is ReadableStream<Uint8Array> => 'getReader' in body;

/** Keeps chunks up to `max` bytes (`keep` answers false past it), and joins them. */
function sink(max: number) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  return {
    keep(chunk: Uint8Array) {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
      return size <= max;
    },
    bytes() {
      const all = new Uint8Array(size);
      let offset = 0;
      for (const chunk of chunks) {
        all.set(chunk, offset);
        offset += chunk.length;
      }
      return all;
    },
  };
}

/**
 * The body's bytes, or undefined when it is over `max` bytes (by its declared `content-length` or as
 * it streams in). The rest of an oversized body is dropped unread (a Node stream keeps flowing, a web
 * stream is cancelled), so that the refusal still reaches the client.
 */
export async function readCapped(body: Body, max: number, declaredLength?: string | null): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (body === null || isWeb(body)) return readWebCapped(body, max, declaredLength);
  const kept = sink(max);
  if (!(Number(declaredLength ?? 0) > max) && (await readNode(body, kept.keep))) return kept.bytes();
  body.resume();
  return undefined;
}

/** readCapped for a web stream alone: what the browser bundles need. */
async function readWebCapped(body: ReadableStream<Uint8Array> | null, max: number, declaredLength?: string | null) {
  if (body === null) return new Uint8Array(0);
  const kept = sink(max);
  if (!(Number(declaredLength ?? 0) > max) && (await readWeb(body, kept.keep))) return kept.bytes();
  void body.cancel().catch(() => undefined);
  return undefined;
}

/**
 * A response's text (UTF-8, as `response.text()` reads it), or undefined when it is over `max` bytes: the
 * rest is not read. The cap is kept on a copy as it streams in; the answer itself is then read by the
 * runtime (`text()`). Read to its end through a stream reader, Chromium may cancel a request whose bytes
 * had all come before its completion did, and shows it as cancelled (`net::ERR_ABORTED`): a merchant's
 * devtools showed 1 nonce request in 6 to 20 so, each of which had delivered its nonce.
 */
export async function readText(response: Response, max: number): Promise<string | undefined> {
  if (await readWebCapped(response.clone().body, max, response.headers.get('content-length'))) return response.text();
  void response.body?.cancel().catch(() => undefined);
  return undefined;
}

/** Whether the stream ended within the cap (`keep` answers false past it). */
async function readWeb(body: ReadableStream<Uint8Array>, keep: (chunk: Uint8Array) => boolean): Promise<boolean> {
  const reader = body.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) {
    if (!keep(part.value)) {
      reader.releaseLock();
      return false;
    }
  }
  return true;
}

function readNode(body: NodeStream, keep: (chunk: Uint8Array) => boolean): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const onData = (chunk: Uint8Array) => {
      if (keep(chunk)) return;
      body.off('data', onData);
      resolve(false);
    };
    body.on('data', onData);
    body.on('error', reject);
    body.on('end', () => resolve(true));
  });
}
