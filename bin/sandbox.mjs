// `payframe sandbox [options]`: the local simulation of the card payment service.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { built, fail, keptCertificate, portOf, whyNot } from './common.mjs';

const sandboxUsage = `Usage: payframe sandbox [--port 8443] [--host 127.0.0.1] [--test-mode] [--https-only] [--cert-dir DIR] [--notify-url URL] [--notify-authorization VALUE]

  --port N        port to listen on (0 picks a free one)     default 8443
  --host H        address to listen on                        default 127.0.0.1
  --test-mode     enable the /__sandbox/ control endpoints (clock, faults, notifications)
  --https-only    refuse plain HTTP as the live service does (by default a loopback
                  sandbox also serves plain http://, so that browsers and Node need
                  no certificate to trust)
  --cert-dir DIR  keep the self-signed certificate in DIR (cert.pem, key.pem) and reuse
                  it on the next start, so that it can be trusted once:
                  NODE_EXTRA_CA_CERTS=DIR/cert.pem node server.mjs
  --notify-url URL               post a notification (IPN) of every change of a payment to URL
  --notify-authorization VALUE   the Authorization header those notifications carry
  -h, --help      show this help`;

export async function run(args) {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        port: { type: 'string', default: '8443' },
        host: { type: 'string', default: '127.0.0.1' },
        'test-mode': { type: 'boolean', default: false },
        'https-only': { type: 'boolean', default: false },
        'cert-dir': { type: 'string' },
        'notify-url': { type: 'string' },
        'notify-authorization': { type: 'string' },
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
  const port = portOf(values.port, (message) => fail(message, 2));

  // payframe's one loopback rule, from the package's own build.
  const [{ makeCertificate, startSandbox, testCards }, { isLoopbackHost }] = await built('sandbox.mjs', 'lib/shared/url.mjs');

  const loopback = isLoopbackHost(values.host);
  const kept = values['cert-dir'] === undefined ? undefined : keptCertificate(resolve(values['cert-dir']), makeCertificate);
  const sandbox = await startSandbox({
    port,
    host: values.host,
    testMode: values['test-mode'],
    plainHttp: loopback && !values['https-only'],
    ...(kept ? { tls: kept.tls } : {}),
    ...(values['notify-url'] !== undefined ? { notifyUrl: values['notify-url'] } : {}),
    ...(values['notify-authorization'] !== undefined ? { notifyAuthorization: values['notify-authorization'] } : {}),
  }).catch((error) =>
    error?.code === 'invalid_config'
      ? fail(`payframe sandbox: ${error.message}\n\n${sandboxUsage}`, 2)
      : fail(whyNot(error, 'sandbox', values.host, port)),
  );

  const { id, clientId, clientSecret } = sandbox.merchant;
  const card = (c) =>
    `${c.number}  ${String(c.expireMonth).padStart(2, '0')}/${c.expireYear}  cvv ${c.cvv}${c.otp ? `  otp ${c.otp}` : ''}`;
  const dev = sandbox.httpUrl ? `\n  development URL ${sandbox.httpUrl}  (plain HTTP on loopback: no certificate to trust)` : '';
  const trust = kept
    ? `The https certificate is self-signed and kept in ${kept.files.cert}: trust it with NODE_EXTRA_CA_CERTS=${kept.files.cert}`
    : 'The https certificate is self-signed and new at every start (--cert-dir keeps one to trust).';
  // Before the block says Ctrl-C stops it: a signal that follows the block at once must find the handler.
  const stop = () =>
    sandbox.close().then(() => {
      console.log('payframe sandbox stopped.');
      process.exit(0);
    });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const notify = values['notify-url'] ? `\n  notifications   ${values['notify-url']}` : '';
  console.log(`payframe sandbox listening on ${sandbox.url}${values['test-mode'] ? '  (test mode)' : ''}${dev}

  merchant id     ${id}
  client id       ${clientId}
  client secret   ${clientSecret}${notify}

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
}
