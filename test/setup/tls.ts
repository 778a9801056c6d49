// The unit run's certificate pair, made once before any worker starts, written where every worker's
// NODE_EXTRA_CA_CERTS points (tls-path.mjs), so that every worker trusts it. The run's sandboxes serve it
// (test/setup/sandbox.ts), so the tests speak real, verified TLS; a sandbox with a certificate of its
// own (`startSandbox` from src/sandbox) stays refused.
import { writeFileSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { makeCertificate } from '../../src/sandbox';
import { runCertificatePath } from './tls-path.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    tls: { key: string; cert: string };
  }
}

const RUN = Symbol.for('payframe.unit-tls');

/** Runs once per project whose files run (vitest.config.ts has two, and the root): one pair for all. */
export default function setup(project: TestProject) {
  const run = globalThis as { [RUN]?: { key: string; cert: string } };
  if (!run[RUN]) {
    const tls = makeCertificate({ days: 2 });
    writeFileSync(runCertificatePath(), tls.cert);
    run[RUN] = tls;
  }
  project.provide('tls', run[RUN]);
}
