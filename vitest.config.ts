import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
// @ts-expect-error: a build script in plain JavaScript, without types
import { frameBundle } from './scripts/frame-bundle.mjs';
// @ts-expect-error: a build script in plain JavaScript, without types
import { pendingChunk } from './scripts/pending-chunk.mjs';

export default defineConfig({
  // The frame host imports the frame's built script (`payframe/frame-bundle`), and the script-tag entry its
  // pending flow's pin (`virtual:payframe-pending-chunk`), built here as the build makes them.
  plugins: [frameBundle(), pendingChunk()],
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    reporters: ['default', ['json', { outputFile: 'reports/unit.json' }]],
    testTimeout: 15_000,
    // Files run in parallel, one per worker. Vitest's default is a worker per core but one, which on two
    // cores runs the files one after the other; most of their time is waiting (sandboxes, sockets,
    // timers: the notification file's 14 s, 10 of them a default timeout), so two workers at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // One certificate pair for the run, trusted by every worker (NODE_EXTRA_CA_CERTS) and served by the
    // tests' sandboxes (test/setup/sandbox.ts): real TLS, verified.
    globalSetup: ['test/setup/tls.ts'],
  },
});
