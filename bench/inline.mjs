// Issue 21 item 2, weighed before it is built: the frame page with its script inlined and allowed by its
// hash, beside the page as createFrameHost serves it (a page, then its script file), from one server on
// one certificate. `/file/` is createFrameHost's answer; `/inline/` the same page with the script in it
// (at the end of the body: an inline script cannot be deferred) and `script-src 'sha256-…'` for
// `'self'`. Everything else in the headers is the frame host's. A prototype for the bench only.
import { createHash } from 'node:crypto';
import { createServer } from 'node:https';
import { gzipSync } from 'node:zlib';
import { createFrameHost, toNodeListener } from '../dist/server.mjs';

/** Listens on 127.0.0.1 with the shop's certificate; answers its port, the bytes of each variant, and `close()`. */
export async function startFrameVariants(shop, gateway) {
  const host = createFrameHost({ gateway, merchantOrigins: [shop.origin] });
  const page = await host(new Request('https://127.0.0.1/file/'));
  const html = await page.text();
  const name = /<script src="([^"]+)"/.exec(html)[1];
  const code = await (await host(new Request(`https://127.0.0.1/file/${name}`))).text();
  if (code.includes('</script')) throw new Error('the frame script cannot be inlined as it is');
  const inline = html.replace(/<script src="[^"]+"[^>]*><\/script>\n/, '').replace('<body></body>', () => `<body><script>${code}</script></body>`);
  const hash = createHash('sha256').update(code).digest('base64');
  const headers = Object.fromEntries(page.headers);
  headers['content-security-policy'] = headers['content-security-policy'].replace("script-src 'self'", `script-src 'sha256-${hash}'`);
  const files = toNodeListener(host);
  const server = createServer(shop.tls, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://127.0.0.1').pathname;
    if (!path.startsWith('/inline/')) return files(req, res);
    if (!path.endsWith('/')) return res.writeHead(404).end();
    res.writeHead(200, headers).end(inline);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const gz = (text) => gzipSync(text, { level: 9 }).length;
  return {
    port: server.address().port,
    bytes: { page: gz(html), script: gz(code), inline: gz(inline) },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
