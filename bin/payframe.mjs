#!/usr/bin/env node
// `payframe sandbox [options]`: the local simulation of the card payment service. Help goes to stdout
// (exit 0); a usage error to stderr (exit 2); a sandbox that cannot start says why in one line (exit 1).
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const usage = `Usage: payframe <command> [options]

Commands:
  sandbox        start the local simulation of the card payment service

Options:
  -h, --help     show this help (payframe sandbox --help: the sandbox's options)
  -v, --version  print payframe's version`;

const sandboxUsage = `Usage: payframe sandbox [--port 8443] [--host 127.0.0.1] [--test-mode] [--https-only] [--cert-dir DIR]

  --port N        port to listen on (0 picks a free one)     default 8443
  --host H        address to listen on                        default 127.0.0.1
  --test-mode     enable the /__sandbox/ control endpoints (clock, faults)
  --https-only    refuse plain HTTP as the live service does (by default a loopback
                  sandbox also serves plain http://, so that browsers and Node need
                  no certificate to trust)
  --cert-dir DIR  keep the self-signed certificate in DIR (cert.pem, key.pem) and reuse
                  it on the next start, so that it can be trusted once:
                  NODE_EXTRA_CA_CERTS=DIR/cert.pem node server.mjs
  -h, --help      show this help`;

const fail = (message, code = 1) => {
  console.error(`payframe: ${message}`);
  process.exit(code);
};

const [command, ...rest] = process.argv.slice(2);
if (command === '--help' || command === '-h') {
  console.log(usage);
  process.exit(0);
}
if (command === '--version' || command === '-v') {
  console.log(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version);
  process.exit(0);
}
if (command !== 'sandbox') {
  console.error(command === undefined ? usage : `payframe: unknown command "${command}"\n\n${usage}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    args: rest,
    options: {
      port: { type: 'string', default: '8443' },
      host: { type: 'string', default: '127.0.0.1' },
      'test-mode': { type: 'boolean', default: false },
      'https-only': { type: 'boolean', default: false },
      'cert-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (error) {
  console.error(`payframe sandbox: ${error.message}\n\n${sandboxUsage}`);
  process.exit(2);
}
if (values.help) {
  console.log(sandboxUsage);
  process.exit(0);
}
const port = Number(values.port);
if (!/^\d+$/.test(values.port) || port > 65535) fail(`--port must be a number from 0 to 65535, not "${values.port}"`, 2);

const [{ makeCertificate, startSandbox, testCards }, { isLoopbackHost }] = await Promise.all([
  import('../dist/sandbox.mjs'),
  // payframe's one loopback rule, from the package's own build.
  import('../dist/lib/shared/url.mjs'),
]).catch(() => fail('dist/sandbox.mjs is missing: run `npm run build` first.'));

/** The certificate kept in `dir`, made (and written) when missing or past its validity. */
function keptCertificate(dir) {
  const files = { cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem') };
  try {
    if (existsSync(files.cert) && existsSync(files.key)) {
      const kept = { cert: readFileSync(files.cert, 'utf8'), key: readFileSync(files.key, 'utf8') };
      if (Date.parse(new X509Certificate(kept.cert).validTo) > Date.now() + 24 * 3600_000) return { tls: kept, files };
    }
    const made = makeCertificate();
    mkdirSync(dir, { recursive: true });
    writeFileSync(files.key, made.key, { mode: 0o600 });
    writeFileSync(files.cert, made.cert);
    return { tls: made, files };
  } catch (error) {
    return fail(`cannot keep the certificate in ${dir}: ${error.message}`);
  }
}

/** What a person can do about a sandbox that cannot listen. */
function whyNot(error) {
  const where = `${values.host}:${port}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return `port ${port} on ${values.host} is already in use: stop what uses it, or pick another port (--port 0 picks a free one)`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${values.host}: it is not an address of this machine (the default is 127.0.0.1)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${values.host}: the name does not resolve to an address of this machine`;
    case 'EACCES':
      return `not allowed to listen on ${where}: ports below 1024 need privileges; pick another with --port`;
    default:
      return `the sandbox could not start on ${where}: ${error.message}`;
  }
}

const loopback = isLoopbackHost(values.host);
const kept = values['cert-dir'] === undefined ? undefined : keptCertificate(resolve(values['cert-dir']));
const sandbox = await startSandbox({
  port,
  host: values.host,
  testMode: values['test-mode'],
  plainHttp: loopback && !values['https-only'],
  ...(kept ? { tls: kept.tls } : {}),
}).catch((error) => fail(whyNot(error)));

const { id, clientId, clientSecret } = sandbox.merchant;
const card = (c) => `${c.number}  ${String(c.expireMonth).padStart(2, '0')}/${c.expireYear}  cvv ${c.cvv}${c.otp ? `  otp ${c.otp}` : ''}`;
const dev = sandbox.httpUrl ? `\n  development URL ${sandbox.httpUrl}  (plain HTTP on loopback: no certificate to trust)` : '';
const trust = kept
  ? `The https certificate is self-signed and kept in ${kept.files.cert}: trust it with NODE_EXTRA_CA_CERTS=${kept.files.cert}`
  : 'The https certificate is self-signed and new at every start (--cert-dir keeps one to trust).';
console.log(`payframe sandbox listening on ${sandbox.url}${values['test-mode'] ? '  (test mode)' : ''}${dev}

  merchant id     ${id}
  client id       ${clientId}
  client secret   ${clientSecret}

Test cards:
  approved            ${card(testCards.approved)}
  declined            ${card(testCards.declined)}
  insufficient funds  ${card(testCards.insufficientFunds)}
  otp                 ${card(testCards.otp)}
  redirect only       ${card(testCards.redirectOnly)}
  expired             ${card(testCards.expired)}  (from the server: the browser client refuses a past expiry)

Try: curl -u ${clientId}:${clientSecret} -H 'content-type: application/json' \\
       -d "'grant_type=client_credentials'" ${sandbox.httpUrl ?? sandbox.url}/v1/merchants/${id}/client_token${sandbox.httpUrl ? '' : ' -k'}
${trust} Ctrl-C stops the sandbox.`);

const stop = () =>
  sandbox.close().then(() => {
    console.log('payframe sandbox stopped.');
    process.exit(0);
  });
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
