// The browser suites' certificate pair, made once per run (the default export is both configs'
// globalSetup) and trusted by every Node process of the run: the setup runs in Playwright's main
// process before any worker starts, and NODE_EXTRA_CA_CERTS, read when a Node process starts, reaches
// the workers and the children they spawn through the environment. Every server a test starts serves
// this pair, the sandbox included (`startSandbox` here), so the tests' own Node calls speak real,
// verified TLS; a server with a certificate of its own (`makeCertificate`, src/sandbox's `startSandbox`)
// stays refused. The browsers are not the subject: they keep `ignoreHTTPSErrors` (docs/browsers.md).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SandboxHandle, type SandboxOptions, startSandbox as start } from '../../src/sandbox';
import { makeCertificateFor } from '../../src/sandbox/http/certificate';

/** Where the setup wrote the pair (key.pem, cert.pem), for the workers to read. */
const DIR = 'PAYFRAME_E2E_TLS_DIR';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'payframe-e2e-tls-'));
  // For the hosts of their own the tests' servers also listen on: the frame host's, the static hosts'.
  const { key, cert } = makeCertificateFor(['127.0.0.2', '127.0.0.3'], { days: 2 });
  writeFileSync(join(dir, 'key.pem'), key, { mode: 0o600 });
  writeFileSync(join(dir, 'cert.pem'), cert);
  process.env[DIR] = dir;
  process.env['NODE_EXTRA_CA_CERTS'] = join(dir, 'cert.pem');
  return () => rmSync(dir, { recursive: true, force: true });
}

let pair: { key: string; cert: string } | undefined;

/** The run's certificate pair, for https://localhost, 127.0.0.1 to 127.0.0.3 and ::1: what a test's server serves to be trusted. */
export function trustedTls(): { key: string; cert: string } {
  const dir = process.env[DIR];
  if (!dir) throw new Error(`${DIR} is not set: run the browser suites with their configs, whose globalSetup is e2e/support/tls.ts`);
  pair ??= { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  return pair;
}

/** `startSandbox` with the run's certificate unless `options.tls` names another. */
export function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  return start({ tls: trustedTls(), ...options });
}
