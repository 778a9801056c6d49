// `payframe frames`: the card frames served for a live checkout, with createFrameHost of payframe/server
// (the live service does not serve them); `payframe frames export DIR`: the same files and headers,
// written for a static host.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer as createHttp } from 'node:http';
import { createServer as createHttps } from 'node:https';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { built, fail, keptCertificate, portOf, whyNot } from './common.mjs';

const usage = `Usage: payframe frames --gateway URL --merchant-origin ORIGIN [--merchant-origin ORIGIN ...] [--port 8444] [--host 127.0.0.1] [--cert-dir DIR]
       payframe frames export DIR --gateway URL --merchant-origin ORIGIN [--merchant-origin ORIGIN ...]
       payframe frames check FRAME_URL --merchant-origin ORIGIN [--merchant-origin ORIGIN ...] [--gateway URL]

Serves the hosted card fields' frames on an origin of your own, for checkout pages that use a live
gateway: pass the URL it prints to mountFields({ frameUrl }). \`export\` writes the same files, and their
headers for a static host (_headers for Cloudflare Pages and Netlify, vercel.json for Vercel, 404.html),
to DIR, and checks them. \`check\` asks a deployed frame host for its pages and for paths where it must
not serve them unguarded, and says path by path whether the headers hold (exit status 1 when not).

  --gateway URL             the payment service the frames send cards to, e.g. https://api.ompay.com
  --merchant-origin ORIGIN  an origin of your checkout pages, e.g. https://shop.example (one each)
  --port N                  port to listen on (0 picks a free one)          default 8444
  --host H                  address to listen on                             default 127.0.0.1
  --cert-dir DIR            serve https with DIR/cert.pem and DIR/key.pem (a self-signed pair is
                            made there when missing); without it, plain http on a loopback host only
  -h, --help                show this help`;

/** The command line read by node:util, or a one-line usage failure. */
function parse(args, usageFail) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        gateway: { type: 'string' },
        'merchant-origin': { type: 'string', multiple: true },
        port: { type: 'string', default: '8444' },
        host: { type: 'string', default: '127.0.0.1' },
        'cert-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    // node:util's words for a missing value take three lines: one is enough.
    const missing = error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && /^Option '(--[\w-]+)/.exec(error.message)?.[1];
    return usageFail(missing ? `${missing} needs a value` : error.message.split('\n')[0]);
  }
}

export async function run(args) {
  const usageFail = (message) => fail(`${message} (payframe frames --help says how)`, 2);
  const parsed = parse(args, usageFail);
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const [action, dir, ...extra] = positionals;
  if (extra.length > 0 || (action !== undefined && action !== 'export' && action !== 'check') || (action !== undefined && !dir)) {
    usageFail(
      action === 'export' ? 'export takes one folder' : action === 'check' ? 'check takes one frame URL' : `unknown argument "${action}"`,
    );
  }
  if (action === 'check') return checkHost(dir, values, usageFail);
  const [{ createFrameHost, toNodeListener }, { makeCertificate }, { isLoopbackHost }] = await built(
    'server.mjs',
    'sandbox.mjs',
    'lib/shared/url.mjs',
  );
  const options = { gateway: values.gateway, merchantOrigins: values['merchant-origin'] ?? [] };
  let host;
  try {
    host = createFrameHost(options);
  } catch (error) {
    // createFrameHost's own sentence, which names the option.
    usageFail(
      error.message.replace(/^createFrameHost: gateway/, '--gateway').replace(/^createFrameHost: merchantOrigins/, '--merchant-origin'),
    );
  }
  if (action === 'export') {
    // The serving options have nothing to do in an export: said, rather than silently ignored.
    const serving = ['port', 'host', 'cert-dir'].filter((name) => args.some((a) => a === `--${name}` || a.startsWith(`--${name}=`)));
    if (serving.length > 0) usageFail(`export takes no ${serving.map((n) => `--${n}`).join(', ')}: your static host serves the files`);
    return exportTo(resolve(dir), host, options);
  }

  const port = portOf(values.port, usageFail);
  const certDir = values['cert-dir'];
  if (certDir === undefined && !isLoopbackHost(values.host)) {
    usageFail(
      `serving on ${values.host} needs https: give --cert-dir DIR, or serve createFrameHost behind your own TLS, or export the frames to a static host`,
    );
  }
  const kept = certDir === undefined ? undefined : keptCertificate(resolve(certDir), makeCertificate);
  const listener = toNodeListener(host);
  const server = kept ? createHttps({ key: kept.tls.key, cert: kept.tls.cert }, listener) : createHttp(listener);
  await new Promise((done) => {
    server.once('error', (error) => fail(whyNot(error, 'frame host', values.host, port)));
    server.listen(port, values.host, done);
  });
  const name =
    values.host === '0.0.0.0' || values.host === '::' ? '127.0.0.1' : values.host.includes(':') ? `[${values.host}]` : values.host;
  const frameUrl = `${kept ? 'https' : 'http'}://${name}:${server.address().port}/`;
  // Before the block says Ctrl-C stops it: a signal that follows the block at once must find the handler.
  const stop = () => {
    server.close();
    server.closeAllConnections();
    console.log('payframe frames stopped.');
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  console.log(`payframe frames listening on ${frameUrl}

  frameUrl          ${frameUrl}
  gateway           ${options.gateway}
  merchant origins  ${options.merchantOrigins.join(' ')}

On those pages: mountFields({ client, fields, frameUrl: '${frameUrl}' }), and frame-src ${new URL(frameUrl).origin}
in their Content-Security-Policy.${kept ? ` The certificate is kept in ${kept.files.cert}.` : ''} Ctrl-C stops it.`);
}

/** A file as the frame host answers it, at `path` of an origin that is none of the merchant's. */
async function answer(host, path) {
  const response = await host(new Request(`https://frames.invalid${path}`));
  // A static host makes its own validator for the file it serves.
  const { etag, ...headers } = Object.fromEntries(response.headers);
  return { body: await response.text(), headers };
}

/** Not the frame page: what a static host answers, with 404, at every path it has no file for. */
const NOT_FOUND = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Not found</title></head>
<body><p>Not found.</p></body>
</html>
`;

/** The files, and the headers the handler sends with each, as a static host reads them. */
async function exportTo(dir, host, { gateway, merchantOrigins }) {
  const page = await answer(host, '/');
  const cvvPage = await answer(host, '/cvv/');
  // Every path first, in the host's own syntax for "any path" (a path the rules below miss: one
  // percent-encoded, which a host may match as it came and serve decoded): the CVV-only page's policy,
  // the looser of the two, which each page's own policy (in its meta) narrows, and nosniff. A host that
  // joins the values of two matching rules enforces both policies: each page's is the narrower.
  const any = { 'content-security-policy': cvvPage.headers['content-security-policy'], 'x-content-type-options': 'nosniff' };
  // Each page answers at its folder and as its index.html, the CVV page also at `/cvv`, which static
  // hosts serve or redirect without the slash (its headers must come with it). The script is in the pages.
  const routes = [
    ['/', page.headers],
    ['/index.html', page.headers],
    ['/cvv', cvvPage.headers],
    ['/cvv/', cvvPage.headers],
    ['/cvv/index.html', cvvPage.headers],
  ];
  const title = (name) => name.replace(/(^|-)(\w)/g, (_, dash, c) => dash + c.toUpperCase());
  const block = (path, headers) => [path, ...Object.entries(headers).map(([k, v]) => `  ${title(k)}: ${v}`)].join('\n');
  const headersFile = [block('/*', any), ...routes.map(([path, headers]) => block(path, headers))].join('\n\n');
  const vercelRule = (source, headers) => ({ source, headers: Object.entries(headers).map(([key, value]) => ({ key, value })) });
  const vercel = {
    trailingSlash: true,
    headers: [vercelRule('/(.*)', any), ...routes.map(([source, headers]) => vercelRule(source, headers))],
  };
  const files = [
    ['index.html', page.body],
    ['cvv/index.html', cvvPage.body],
    ['404.html', NOT_FOUND],
    ['_headers', `${headersFile}\n`],
    ['vercel.json', `${JSON.stringify(vercel, null, 2)}\n`],
  ];
  try {
    for (const [path, body] of files) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), body);
    }
  } catch (error) {
    fail(`cannot write the frames to ${dir}: ${error.message}`);
  }
  console.log(`payframe frames: wrote ${files.map(([path]) => path).join(', ')} to ${dir}\n`);
  // The folder as a static host serves it (the files, _headers matched on the path as it arrives).
  const { check, readFrom } = await import('./check.mjs');
  const good = await check(readFrom(dir), {
    merchants: merchantOrigins,
    gateway: new URL(gateway).origin,
    where: `${dir}, served as _headers says,`,
  });
  if (!good) process.exit(1);
  console.log(`
Serve the folder at the root of its own origin (not your checkout's), and pass that origin's URL
to mountFields({ frameUrl }). The headers are the frames' guard: after every deploy, check that your
host sends them: npx payframe frames check <that URL> ${merchantOrigins.map((o) => `--merchant-origin ${o}`).join(' ')}`);
}

/** `frames check URL`: the deployed host's answers, path by path; exit 1 when any does not hold. */
async function checkHost(frameUrl, values, usageFail) {
  const base = URL.canParse(frameUrl) ? new URL(frameUrl) : undefined;
  if (!base || !/^https?:$/.test(base.protocol) || base.search || base.hash || !base.pathname.endsWith('/')) {
    usageFail(`check takes the frameUrl your pages pass (https://frames.shop.example/: a path ending in /, no query), not "${frameUrl}"`);
  }
  const merchants = values['merchant-origin'] ?? [];
  if (merchants.length === 0 || merchants.some((o) => !URL.canParse(o) || new URL(o).origin !== o)) {
    usageFail('--merchant-origin must name each origin of your checkout pages exactly, e.g. https://shop.example (one each)');
  }
  const { check, fetchFrom } = await import('./check.mjs');
  const gateway =
    values.gateway === undefined
      ? undefined
      : URL.canParse(values.gateway)
        ? new URL(values.gateway).origin
        : usageFail('--gateway must be a URL');
  const good = await check(fetchFrom(base), { merchants, gateway, where: base.href });
  process.exit(good ? 0 : 1);
}
