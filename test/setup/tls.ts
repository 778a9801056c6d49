// The unit run's certificate pair, made once before any worker starts. Every worker trusts it:
// NODE_EXTRA_CA_CERTS is read when a Node process starts, and the workers are started after this setup
// with its environment. The run's sandboxes serve it (test/setup/sandbox.ts), so the tests speak real,
// verified TLS; a sandbox with a certificate of its own (`startSandbox` from src/sandbox) stays refused.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { makeCertificate } from '../../src/sandbox';

declare module 'vitest' {
  export interface ProvidedContext {
    tls: { key: string; cert: string };
  }
}

export default function setup(project: TestProject) {
  const tls = makeCertificate({ days: 2 });
  const dir = mkdtempSync(join(tmpdir(), 'payframe-unit-tls-'));
  writeFileSync(join(dir, 'cert.pem'), tls.cert);
  process.env['NODE_EXTRA_CA_CERTS'] = join(dir, 'cert.pem');
  project.provide('tls', tls);
  return () => rmSync(dir, { recursive: true, force: true });
}
