#!/usr/bin/env node
// `payframe sandbox [--port N] [--host H] [--test-mode]`: the local simulation of the service.
import { parseArgs } from 'node:util';

const usage = `Usage: payframe sandbox [--port 8443] [--host 127.0.0.1] [--test-mode] [--https-only]

  --port N       port to listen on (0 picks a free one)     default 8443
  --host H       address to listen on                        default 127.0.0.1
  --test-mode    enable the /__sandbox/ control endpoints (clock, faults)
  --https-only   refuse plain HTTP as the live service does (by default a loopback
                 sandbox also serves plain http://, so that browsers and Node need
                 no certificate to trust)`;

const [command, ...rest] = process.argv.slice(2);
if (command !== 'sandbox') {
  console.error(command === undefined || command === '--help' ? usage : `Unknown command: ${command}\n\n${usage}`);
  process.exit(command === '--help' ? 0 : 2);
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
      help: { type: 'boolean', default: false },
    },
  }));
} catch (error) {
  console.error(`${error.message}\n\n${usage}`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a number from 0 to 65535, not "${values.port}"`);
  process.exit(2);
}

const { startSandbox, testCards } = await import('../dist/sandbox.mjs').catch(() => {
  console.error('dist/sandbox.mjs is missing: run `npm run build` first.');
  process.exit(1);
});

const loopback = ['127.0.0.1', '::1', 'localhost'].includes(values.host);
const sandbox = await startSandbox({ port, host: values.host, testMode: values['test-mode'], plainHttp: loopback && !values['https-only'] });
const { id, clientId, clientSecret } = sandbox.merchant;
const card = (c) => `${c.number}  ${String(c.expireMonth).padStart(2, '0')}/${c.expireYear}  cvv ${c.cvv}${c.otp ? `  otp ${c.otp}` : ''}`;
const dev = sandbox.httpUrl ? `\n  development URL ${sandbox.httpUrl}  (plain HTTP on loopback: no certificate to trust)\n` : '';
console.log(`payframe sandbox listening on ${sandbox.url}${values['test-mode'] ? '  (test mode)' : ''}
${dev}
  merchant id     ${id}
  client id       ${clientId}
  client secret   ${clientSecret}

Test cards:
  approved            ${card(testCards.approved)}
  declined            ${card(testCards.declined)}
  insufficient funds  ${card(testCards.insufficientFunds)}
  otp                 ${card(testCards.otp)}
  redirect only       ${card(testCards.redirectOnly)}

Try: curl -u ${clientId}:${clientSecret} -H 'content-type: application/json' \\
       -d "'grant_type=client_credentials'" ${sandbox.httpUrl ?? sandbox.url}/v1/merchants/${id}/client_token${sandbox.httpUrl ? '' : ' -k'}
The https certificate is self-signed. Ctrl-C stops the sandbox.`);

const stop = () => sandbox.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
