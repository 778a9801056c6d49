// The sandbox as the unit tests start it: the real one, serving the run's certificate pair
// (test/setup/tls.ts), which every worker trusts. Everything else is src/sandbox's own.
import { inject } from 'vitest';
import { type SandboxHandle, type SandboxOptions, startSandbox as start } from '../../src/sandbox';

export * from '../../src/sandbox';

/** The run's certificate pair: what a test's own HTTPS server serves to be trusted. */
export const trustedTls = (): { key: string; cert: string } => inject('tls');

/** `startSandbox` with the run's certificate unless `options.tls` names another. */
export function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  return start({ tls: trustedTls(), ...options });
}
