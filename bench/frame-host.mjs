// Part 6's frame host of the merchant's: createFrameHost of the build under test on its own origin
// (127.0.0.1, the shop's certificate), counting what it answers, so that the table can say what a
// first and a repeat visit cost in requests, statuses and bytes. Beside it, on the same server,
// `/blank.html`: an empty page with the frame page's own headers (its policy, `no-cache`, an `ETag`),
// the floor a payer's browser meets from the same host: its connections, its delay, its revalidations.
import { createHash } from 'node:crypto';
import { createServer } from 'node:https';
import { pathToFileURL } from 'node:url';

const distRoot = process.env.PAYFRAME_BENCH_DIST
  ? pathToFileURL(`${process.env.PAYFRAME_BENCH_DIST.replace(/\/?$/, '/')}`)
  : new URL('../dist/', import.meta.url);
const { createFrameHost, toNodeListener } = await import(new URL('server.mjs', distRoot));

const BLANK = '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>blank</title></head><body></body></html>\n';
const BLANK_TAG = `"${createHash('sha256').update(BLANK).digest('base64url').slice(0, 24)}"`;

/** The blank page, answered as the frame host answers its page: its headers (but the script hash), 304 to its tag. */
function serveBlank(req, res, pageHeaders) {
  const headers = { ...pageHeaders, etag: BLANK_TAG };
  if (req.headers['if-none-match'] === BLANK_TAG) return res.writeHead(304, headers).end();
  res.writeHead(200, headers).end(BLANK);
}

/** Listens on 127.0.0.1; answers its port, `take()` (the answers since the last take: status and body bytes) and `close()`. */
export async function startFrameHost(shop, gateway) {
  const host = toNodeListener(createFrameHost({ gateway, merchantOrigins: [shop.origin] }));
  // The frame page's headers, taken from the host itself (HEAD), for the blank page.
  let pageHeaders;
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
      answers.push({ status: res.statusCode, bytes, path: req.url.split('?')[0] });
      return end.call(this, chunk, ...rest);
    };
    if (req.url.startsWith('/blank.html')) return serveBlank(req, res, pageHeaders);
    host(req, res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  const head = await fetch(`https://127.0.0.1:${port}/`, { method: 'HEAD' });
  pageHeaders = Object.fromEntries(
    [...head.headers].filter(([name]) => !['etag', 'date', 'connection', 'keep-alive', 'content-length'].includes(name)),
  );
  answers = [];
  return {
    port,
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
