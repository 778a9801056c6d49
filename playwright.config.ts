import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

// The sandbox's certificate is self-signed and made at start: the tests' own Node calls (a merchant
// server in a test) speak real TLS to it without verifying it, as the vitest config does.
process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';

// Debian's builds (never downloaded ones). Most tests run in Chromium's headless shell: the same engine
// (Blink, V8, the network stack, site isolation) without the browser's UI, the build Playwright itself
// uses for headless Chromium, and on two cores it runs the suite in about half the time. Tests tagged
// @full-chromium need what only the whole browser has: its autofill, and delivery of CSP reports through
// the Reporting API (the shell drops them, so a test that no report came could not fail there).
const builds = {
  shell: [process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell', 'chromium-headless-shell', 'CHROMIUM_HEADLESS_SHELL_PATH'],
  full: [process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', 'chromium', 'CHROMIUM_PATH'],
} as const;
for (const [path, pkg, env] of Object.values(builds)) {
  if (!existsSync(path)) throw new Error(`No ${pkg} at ${path}: install Debian's (apt-get install ${pkg}) or set ${env}.`);
}

/** How the suite starts Chromium; the engines' config compares with the whole browser (`chromiumLaunch`). */
const launch = (executablePath: string) => ({
  browserName: 'chromium' as const,
  ignoreHTTPSErrors: true,
  launchOptions: {
    executablePath,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  },
});

export const chromiumLaunch = launch(builds.full[0]).launchOptions;

export default defineConfig({
  testDir: 'e2e',
  timeout: 30_000,
  workers: 2,
  reporter: [['list'], ['json', { outputFile: 'reports/e2e.json' }]],
  projects: [
    { name: 'chromium-headless-shell', grepInvert: /@full-chromium/, use: launch(builds.shell[0]) },
    { name: 'chromium', grep: /@full-chromium/, use: launch(builds.full[0]) },
  ],
});
