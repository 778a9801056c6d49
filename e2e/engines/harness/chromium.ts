// Chromium through Playwright: Debian's Chromium, the whole browser, launched with the Chromium suite's
// arguments (playwright.config.ts); one browser per worker, a fresh context per test.
import type { Browser, ElementHandle, Frame, LaunchOptions, Page } from '@playwright/test';
import { chromium } from '@playwright/test';
import type { Backend, In, RequestEnds } from './driver';

export async function launchChromium(options: LaunchOptions): Promise<Browser> {
  return chromium.launch(options);
}

export async function chromiumBackend(browser: Browser, initScript: string): Promise<Backend> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  // Runs first in every document, the frames' included.
  await context.addInitScript(initScript);
  const page = await context.newPage();
  const frameOf = async (where: In): Promise<Page | Frame> => {
    let frame: Page | Frame = page;
    for (const selector of where === undefined ? [] : [where].flat()) {
      const next = await (await frame.waitForSelector(selector, { state: 'attached' })).contentFrame();
      if (!next) throw new Error(`chromium: ${selector} is not a loaded frame`);
      frame = next;
    }
    return frame;
  };
  return {
    engine: 'chromium',
    version: `Chromium ${browser.version()}`,
    goto: async (url) => void (await page.goto(url)),
    evaluate: async (where, expression) => (await frameOf(where)).evaluate(expression),
    async clickFound(where, expression, at) {
      const element = (await (await frameOf(where)).evaluateHandle(expression)).asElement() as ElementHandle<Element> | null;
      if (!element) throw new Error('chromium: the element is gone');
      await element.click(at ? { position: at } : {});
    },
    type: (text) => page.keyboard.type(text),
    async press(keys) {
      await page.keyboard.press(keys.join('+'));
    },
    setViewport: (width, height) => page.setViewportSize({ width, height }),
    screenshot: async (path) => void (await page.screenshot({ path })),
    watchRequests(match) {
      const ends: RequestEnds = { finished: 0, failed: [] };
      page.on('requestfinished', (r) => void (match(r.method(), r.url()) && ends.finished++));
      page.on('requestfailed', (r) => void (match(r.method(), r.url()) && ends.failed.push(r.failure()?.errorText ?? 'failed')));
      return ends;
    },
    close: () => context.close(),
  };
}
