import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { runCertificatePath } from './test/setup/tls-path.mjs';
// @ts-expect-error: a build script in plain JavaScript, without types
import { frameBundle } from './scripts/frame-bundle.mjs';
// @ts-expect-error: a build script in plain JavaScript, without types
import { pendingChunk } from './scripts/pending-chunk.mjs';

/**
 * The test files that need a fresh module graph of their own: those in a browser-like environment (it is
 * torn down after the file, and a later file in the same process loaded modules into the gone one), and
 * those that replace a module, a global, the environment's variables or the clock. Every other file shares
 * its worker's modules with the files before it (`isolate: false`): importing vitest, the sandbox and the
 * source again for each of 119 files took 51 of the unit run's 147 CPU seconds (counted as scripts/test.mjs
 * counts them).
 */
const NEEDS_ISOLATION = [
  /@vitest-environment/,
  /\bvi\s*\.\s*(?:mock|doMock|stubGlobal|stubEnv|useFakeTimers|setSystemTime|spyOn)\b/,
  /process\.env(?:\.\w+|\[[^\]]*\])\s*(?:\?\?|\|\||&&)?=(?!=)|delete process\.env|Object\.assign\(process\.env/,
  /globalThis(?:\.\w+|\[[^\]]*\])\s*=(?!=)|\(globalThis as [^)]*\)(?:\.\w+|\[[^\]]*\])\s*=(?!=)|(?:defineProperty|Reflect\.set)\(globalThis/,
  /\.prototype\.\w+\s*=(?!=)|process\.(?:on|once)\(|setGlobalDispatcher/,
];
const TEST = fileURLToPath(new URL('test/', import.meta.url));
const isolated = (readdirSync(TEST, { recursive: true, encoding: 'utf8' }) as string[])
  .filter((file) => file.endsWith('.test.ts') && NEEDS_ISOLATION.some((rule) => rule.test(readFileSync(TEST + file, 'utf8'))))
  .map((file) => `test/${file}`);

// Set before vitest copies the environment for its workers: see test/setup/tls-path.mjs.
runCertificatePath();

export default defineConfig({
  // The frame host imports the frame's built script (`payframe/frame-bundle`), and the script-tag entry its
  // pending flow's pin (`virtual:payframe-pending-chunk`), built here as the build makes them.
  plugins: [frameBundle(), pendingChunk()],
  test: {
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: isolated, isolate: false } },
      { extends: true, test: { name: 'isolated', include: isolated } },
    ],
    environment: 'node',
    reporters: ['default', ['json', { outputFile: 'reports/unit.json' }]],
    // Only to end a hang: the bounds a test checks are its own (`toBeLessThan`). On two cores beside the
    // Chromium suite a test that opens a PGlite folder twice took 11 s of the 15 s this was, and hooks had
    // vitest's 10 s. (A CI run failed one unit test that its output, cut to its end, did not name; the
    // closing lines name each failed test now: scripts/test-summary.mjs.)
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Files run in parallel, one per worker. Vitest's default is a worker per core but one, which on two
    // cores runs the files one after the other; most of their time is waiting (sandboxes, sockets,
    // timers: the notification file's 14 s, 10 of them a default timeout), so two workers at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // One certificate pair for the run, trusted by every worker (NODE_EXTRA_CA_CERTS) and served by the
    // tests' sandboxes (test/setup/sandbox.ts): real TLS, verified.
    globalSetup: ['test/setup/tls.ts'],
  },
});
