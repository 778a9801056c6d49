import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    reporters: ['default', ['json', { outputFile: 'reports/unit.json' }]],
    testTimeout: 15_000,
    // The sandbox's certificate is self-signed and made at start: tests speak real TLS without verifying it.
    env: { NODE_TLS_REJECT_UNAUTHORIZED: '0' },
  },
});
