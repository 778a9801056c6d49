import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

// The sandbox's certificate is self-signed and made at start: the tests' own Node calls (a merchant
// server in a test) speak real TLS to it without verifying it, as the vitest config does.
process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';

// Debian's Chromium (never a downloaded browser): /usr/bin/chromium, or CHROMIUM_PATH.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(executablePath)) {
  throw new Error(`No Chromium at ${executablePath}: install Debian's (apt-get install chromium) or set CHROMIUM_PATH.`);
}

export default defineConfig({
  testDir: 'e2e',
  timeout: 30_000,
  workers: 2,
  reporter: [['list'], ['json', { outputFile: 'reports/e2e.json' }]],
  use: {
    browserName: 'chromium',
    ignoreHTTPSErrors: true,
    launchOptions: {
      executablePath,
      args: [
        '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync',
      ],
    },
  },
});
