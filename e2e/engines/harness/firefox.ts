// Firefox through puppeteer-core over WebDriver BiDi: Debian's firefox-esr as installed (no patched
// build, nothing downloaded). One browser per worker, a fresh browser context (its own cookies and
// storage) per test.
import { existsSync } from 'node:fs';
import puppeteer, { type Browser, type ElementHandle, type Frame, type KeyInput } from 'puppeteer-core';
import type { Backend, In, RequestEnds } from './driver';

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** Launches Firefox; `prefs` set some of its preferences (a feature turned off, as in an older version). */
export async function launchFirefox(prefs: Record<string, unknown> = {}): Promise<Browser> {
  if (!existsSync(FIREFOX_PATH))
    throw new Error(`No Firefox at ${FIREFOX_PATH}: install Debian's (apt-get install firefox-esr) or set FIREFOX_PATH.`);
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    acceptInsecureCerts: true,
    extraPrefsFirefox: prefs,
  });
}

export async function firefoxBackend(browser: Browser, initScript: string): Promise<Backend> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  // A preload script: runs first in every document of the tab, the frames' included.
  await page.evaluateOnNewDocument(initScript);
  const frameOf = async (where: In): Promise<Frame> => {
    let frame = page.mainFrame();
    for (const selector of where === undefined ? [] : [where].flat()) {
      const next = await (await frame.waitForSelector(selector))?.contentFrame();
      if (!next) throw new Error(`firefox: ${selector} is not a loaded frame`);
      frame = next;
    }
    return frame;
  };
  const [name, version] = (await browser.version()).split('/');
  return {
    engine: 'firefox',
    version: `${name === 'firefox' ? 'Firefox' : name} ${version}`,
    goto: async (url) => void (await page.goto(url)),
    evaluate: async (where, expression) => (await frameOf(where)).evaluate(expression),
    async clickFound(where, expression, at) {
      const element = (await (await frameOf(where)).evaluateHandle(expression)).asElement() as ElementHandle<Element> | null;
      if (!element) throw new Error('firefox: the element is gone');
      await element.click(at ? { offset: at } : {});
    },
    type: (text) => page.keyboard.type(text),
    async press(keys) {
      const [key, ...modifiers] = [...keys].reverse() as KeyInput[];
      for (const m of modifiers) await page.keyboard.down(m);
      await page.keyboard.press(key!);
      for (const m of modifiers.reverse()) await page.keyboard.up(m);
    },
    setViewport: (width, height) => page.setViewport({ width, height }),
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
