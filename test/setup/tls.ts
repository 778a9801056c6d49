// The unit run's certificate pair, made once as vitest.config.ts loads, before any worker of either
// project starts (a global setup runs per project, after the pool has copied the environment it starts
// workers with). Every worker trusts it: NODE_EXTRA_CA_CERTS is read when a Node process starts. The run's sandboxes serve it (test/setup/sandbox.ts), so the tests speak real,
// verified TLS; a sandbox with a certificate of its own (`startSandbox` from src/sandbox) stays refused.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeCertificate } from '../../src/sandbox';

declare module 'vitest' {
  export interface ProvidedContext {
    tls: { key: string; cert: string };
  }
}

const RUN = Symbol.for('payframe.unit-tls');

/**
 * Makes the pair, has this process's children trust it, and answers it for `provide` (test.tls). Once a
 * process: vitest loads its config again for each project that extends it.
 */
export function runCertificate(): { key: string; cert: string } {
  const run = globalThis as { [RUN]?: { key: string; cert: string } };
  if (run[RUN]) return run[RUN];
  const tls = makeCertificate({ days: 2 });
  const dir = mkdtempSync(join(tmpdir(), 'payframe-unit-tls-'));
  writeFileSync(join(dir, 'cert.pem'), tls.cert);
  process.env['NODE_EXTRA_CA_CERTS'] = join(dir, 'cert.pem');
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return (run[RUN] = tls);
}
