import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { CHROMIUM, HEADLESS_SHELL, launchOf } from './e2e/support/chromium';
import type { Checkout } from './e2e/support/demo-checkout';
import type { ReactVersion } from './e2e/support/react';

// Most tests run in Chromium's headless shell: the same engine (Blink, V8, the network stack, site
// isolation) without the browser's UI, the build Playwright itself uses for headless Chromium, and on
// two cores it runs the suite in about half the time. Tests tagged @full-chromium need what only the
// whole browser has: its autofill, and delivery of CSP reports through the Reporting API (the shell
// sends none, so a test that no report came could not fail there).
for (const [path, pkg, env] of [
  [HEADLESS_SHELL, 'chromium-headless-shell', 'CHROMIUM_HEADLESS_SHELL_PATH'],
  [CHROMIUM, 'chromium', 'CHROMIUM_PATH'],
]) {
  if (!existsSync(path!)) throw new Error(`No ${pkg} at ${path}: install Debian's (apt-get install ${pkg}) or set ${env}.`);
}

const use = (executablePath: string) => ({
  browserName: 'chromium' as const,
  // The browser is not what the certificate's trust is tested on: it accepts the run's pair unchecked.
  ignoreHTTPSErrors: true,
  launchOptions: launchOf(executablePath),
});

// The specs run once per setting, as projects: the demo's payment flows on each checkout (the
// script-tag page, the React app), payframe/react with each React version.
const VARIANTS = ['demo-pay.spec.ts', 'react.spec.ts'];
const shell = use(HEADLESS_SHELL);

export default defineConfig<object, { checkout: Checkout; react: ReactVersion }>({
  testDir: 'e2e',
  // e2e/engines/*.flow.ts run in Firefox and WebKit, and in Chromium but for those a spec here plays:
  // playwright.engines.config.ts.
  testIgnore: 'engines/**',
  // One certificate pair for the run, served by every test's servers and trusted by every Node process
  // (NODE_EXTRA_CA_CERTS): real TLS, verified. The browsers keep ignoreHTTPSErrors (docs/browsers.md).
  globalSetup: './e2e/support/tls.ts',
  // Its own folder of results: the engines suite may run beside it (scripts/test.mjs), and each run
  // empties its folder when it starts.
  outputDir: 'test-results/chromium',
  timeout: 30_000,
  workers: 2,
  // A test that fails runs once more: on two loaded cores a wait the test did not make (a chunk's import,
  // a client token still on its way) failed one run in three of late. One that passes only then is
  // named in CI's closing lines (scripts/test-summary.mjs), to be mended; one that fails twice fails.
  retries: 1,
  reporter: [['list'], ['json', { outputFile: 'reports/e2e.json' }]],
  projects: [
    { name: 'chromium-headless-shell', grepInvert: /@full-chromium/, testIgnore: VARIANTS, use: shell },
    { name: 'chromium', grep: /@full-chromium/, testIgnore: VARIANTS, use: use(CHROMIUM) },
    { name: 'demo-script', testMatch: 'demo-pay.spec.ts', use: { ...shell, checkout: 'script' } },
    { name: 'demo-react', testMatch: 'demo-pay.spec.ts', use: { ...shell, checkout: 'react' } },
    { name: 'react-19', testMatch: 'react.spec.ts', use: { ...shell, react: '19' } },
    { name: 'react-18', testMatch: 'react.spec.ts', use: { ...shell, react: '18' } },
  ],
});
