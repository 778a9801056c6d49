// The test runner's side of the harness: each engine is a Playwright project (playwright.config.ts)
// whose `engine` option picks the driver. A worker launches its engine once (Chromium, Firefox, or
// Xvfb and WebKitWebDriver for WebKit) and every test gets a `driver` in a fresh browser context.
import { test as base } from '@playwright/test';
import type { Browser as ChromiumBrowser } from '@playwright/test';
import type { Browser as FirefoxBrowser } from 'puppeteer-core';
import { chromiumBackend, launchChromium } from './chromium';
import { type Driver, driverOf, type Engine } from './driver';
import { firefoxBackend, launchFirefox } from './firefox';
import { WATCH } from './watch';
import { startWebKit, type WebKitServer, webkitBackend } from './webkit';

export { expect } from '@playwright/test';

type Launched =
  | { engine: 'chromium'; browser: ChromiumBrowser }
  | { engine: 'firefox'; browser: FirefoxBrowser }
  | { engine: 'webkit'; server: WebKitServer };

export const test = base.extend<{ driver: Driver }, { engine: Engine; launched: Launched }>({
  engine: ['chromium', { option: true, scope: 'worker' }],
  launched: [
    async ({ engine, launchOptions }, use) => {
      const launched: Launched =
        engine === 'chromium'
          ? { engine, browser: await launchChromium(launchOptions) }
          : engine === 'firefox'
            ? { engine, browser: await launchFirefox() }
            : { engine, server: await startWebKit() };
      await use(launched);
      if (launched.engine === 'webkit') await launched.server.close();
      else await launched.browser.close();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  driver: async ({ launched }, use, testInfo) => {
    const backend =
      launched.engine === 'chromium'
        ? await chromiumBackend(launched.browser, WATCH)
        : launched.engine === 'firefox'
          ? await firefoxBackend(launched.browser, WATCH)
          : await webkitBackend(launched.server);
    const driver = driverOf(backend);
    testInfo.annotations.push({ type: 'engine', description: driver.version });
    try {
      await use(driver);
      if (testInfo.status !== testInfo.expectedStatus) {
        const path = testInfo.outputPath(`${driver.engine}.png`);
        await driver.screenshot(path).then(
          () => testInfo.attachments.push({ name: 'screenshot', path, contentType: 'image/png' }),
          () => undefined,
        );
      }
    } finally {
      await driver.close();
    }
  },
});

/**
 * Skips the file, or the describe it is called in, in Chromium alone: `by` (a spec and its test) plays it
 * there with the same checks or more (docs/browsers.md). Decided from the worker's `engine` only, so a file
 * skipped whole starts no server in its beforeAll.
 */
export const playedInChromiumBy = (by: string): void => test.skip(({ engine }) => engine === 'chromium', `${by} plays it in Chromium`);
