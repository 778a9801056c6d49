// Where the unit run's certificate will be, set as vitest.config.ts loads: NODE_EXTRA_CA_CERTS is read
// when a Node process starts, and vitest copies the environment its workers start with once the config
// is loaded, before any global setup runs. The file is written by the global setup (tls.ts), before
// the first worker starts. Nothing of src/ here: the config loads without the build's plugins.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUN = Symbol.for('payframe.unit-tls-path');

/** The path, made once a process: vitest loads its config again for each project that extends it. */
export function runCertificatePath() {
  if (globalThis[RUN]) return globalThis[RUN];
  const dir = mkdtempSync(join(tmpdir(), 'payframe-unit-tls-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  process.env['NODE_EXTRA_CA_CERTS'] = join(dir, 'cert.pem');
  return (globalThis[RUN] = join(dir, 'cert.pem'));
}
