import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM, launchOf } from './e2e/support/chromium';
import type { Engine } from './e2e/engines/harness/driver';
import { FIREFOX_PATH } from './e2e/engines/harness/firefox';
import { MINIBROWSER, WEBKIT_DRIVER } from './e2e/engines/harness/webkit';

// Debian's browsers and tools, never downloaded ones: a missing one fails the run at once, naming its package.
const onPath = (name: string) => (process.env.PATH ?? '').split(delimiter).some((dir) => existsSync(join(dir, name)));
const missing = [
  [existsSync(FIREFOX_PATH), 'firefox-esr'],
  [existsSync(WEBKIT_DRIVER), 'webkit2gtk-driver'],
  [existsSync(MINIBROWSER), 'libwebkit2gtk-4.1-0'],
  [onPath('Xvfb'), 'xvfb'],
  [onPath('xdotool'), 'xdotool'],
]
  .filter(([found]) => !found)
  .map(([, pkg]) => pkg);
if (missing.length > 0) {
  throw new Error(
    `Firefox and WebKit tests need Debian's packages: apt-get update && apt-get install ${missing.join(' ')} (or set FIREFOX_PATH, WEBKIT_DRIVER_PATH, MINIBROWSER_PATH).`,
  );
}

// The flows that matter to a payer, in every engine: Chromium (Playwright, Debian's whole browser),
// Firefox (puppeteer-core over WebDriver BiDi) and WebKit (selenium-webdriver with WebKitWebDriver):
// e2e/engines/*.flow.ts, run by `npm run test:engines` (docs/browsers.md). Playwright is their runner
// only. A flow the Chromium suite (playwright.config.ts) already plays, with the same checks or more, is
// skipped in Chromium here and names that spec: the whole browser costs more than the suite's headless
// shell, and the same test twice in one engine proves nothing more. The Chromium suite keeps what only
// Chromium shows (autofill, CSP reports, axe-core, screenshots, the DevTools protocol) and the checks no
// person's browser makes. The flows stay in this config rather than as a project of the Chromium one:
// they have their own fixtures (the `engine` option, a browser launched per worker) and timeout, and
// `npm run test:engines` stays one step to run alone.
export default defineConfig<object, { engine: Engine }>({
  testDir: 'e2e/engines',
  testMatch: '*.flow.ts',
  // The run's certificate pair, trusted by every Node process, as in playwright.config.ts.
  globalSetup: './e2e/support/tls.ts',
  // Its own folder of results, beside the Chromium suite's (playwright.config.ts).
  outputDir: 'test-results/engines',
  timeout: 45_000,
  // A test that fails runs once more: on two loaded cores a wait the test did not make (a chunk's import,
  // a client token still on its way) failed one run in three of late. One that passes only then is
  // named in CI's closing lines (scripts/test-summary.mjs), to be mended; one that fails twice fails.
  retries: 1,
  // One worker per engine: an engine's browser (and WebKit's display) is launched once per worker.
  workers: 2,
  reporter: [['list'], ['json', { outputFile: 'reports/engines.json' }]],
  use: { launchOptions: launchOf(CHROMIUM) },
  projects: (['firefox', 'webkit', 'chromium'] as const).map((engine) => ({ name: engine, use: { engine } })),
});
