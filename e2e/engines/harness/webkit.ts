// WebKit through selenium-webdriver (W3C WebDriver): Debian's WebKitWebDriver drives WebKitGTK's
// MiniBrowser, on a display of its own (an Xvfb this worker starts and stops). One driver server per
// worker, a fresh browser (a new session: its own process and storage) per test.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import webdriver, { type WebDriver } from 'selenium-webdriver';
import type { Backend, In } from './driver';

export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

export interface WebKitServer {
  url: string;
  display: string;
  close(): Promise<void>;
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill();
  });

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * MiniBrowser's toolbar (its buttons and address entry) keeps its window at least 447 px wide: a user
 * stylesheet of GTK's takes their minimum sizes away, so that the window can be as narrow as a phone's
 * screen (down to about 305 px). GTK styles the browser's own widgets only, never the page.
 */
const NARROW_TOOLBAR = 'button, entry { min-width: 0; min-height: 0; padding: 0; margin: 0; }\n';

/** Starts Xvfb on the first free display (it says which on a pipe), then WebKitWebDriver on it. */
export async function startWebKit(): Promise<WebKitServer> {
  for (const [what, path] of [
    ['WebKitWebDriver', WEBKIT_DRIVER],
    ['MiniBrowser', MINIBROWSER],
  ]) {
    if (!existsSync(path!)) throw new Error(`No ${what} at ${path}: install Debian's webkit2gtk-driver and libwebkit2gtk-4.1-0.`);
  }
  const config = await mkdtemp(join(tmpdir(), 'payframe-webkit-'));
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  const children: ChildProcess[] = [xvfb];
  // A worker killed outright takes its display and driver with it.
  const onExit = () => children.forEach((c) => c.kill());
  process.once('exit', onExit);
  const close = async () => {
    process.off('exit', onExit);
    await Promise.all(children.reverse().map(stop));
    await rm(config, { recursive: true, force: true });
  };
  try {
    const display = await new Promise<string>((resolve, reject) => {
      let errors = '';
      xvfb.stderr!.on('data', (d) => (errors += d));
      xvfb.stdio[3]!.once('data', (d) => resolve(`:${String(d).trim()}`));
      xvfb.once('exit', (code) => reject(new Error(`Xvfb ended (${code}): ${errors.trim()}`)));
    });
    await mkdir(join(config, 'gtk-3.0'));
    await writeFile(join(config, 'gtk-3.0', 'gtk.css'), NARROW_TOOLBAR);
    const port = await freePort();
    const env = { ...process.env, DISPLAY: display, XDG_CONFIG_HOME: config };
    const driver = spawn(WEBKIT_DRIVER, [`--port=${port}`], { env, stdio: 'ignore' });
    children.push(driver);
    const url = `http://127.0.0.1:${port}`;
    const until = Date.now() + 15_000;
    while (
      !(await fetch(`${url}/status`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (Date.now() > until || driver.exitCode !== null) throw new Error('WebKitWebDriver did not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return { url, display, close };
  } catch (error) {
    await close();
    throw error;
  }
}

const KEYS: Record<string, string> = {
  Tab: webdriver.Key.TAB,
  Shift: webdriver.Key.SHIFT,
  Enter: webdriver.Key.ENTER,
  Backspace: webdriver.Key.BACK_SPACE,
  ArrowLeft: webdriver.Key.ARROW_LEFT,
  ArrowRight: webdriver.Key.ARROW_RIGHT,
  Home: webdriver.Key.HOME,
  End: webdriver.Key.END,
  Escape: webdriver.Key.ESCAPE,
  Control: webdriver.Key.CONTROL,
  Alt: webdriver.Key.ALT,
  Meta: webdriver.Key.META,
};
const keyOf = (key: string) => {
  const k = KEYS[key] ?? key;
  if ([...k].length !== 1) throw new Error(`webkit: no key named ${key}`);
  return k;
};

/** Runs in the browser: the path of the iframe that has the focus in this document, or null. */
const ACTIVE_IFRAME = `(() => {
  const el = document.activeElement;
  if (!el || el.localName !== 'iframe') return null;
  const path = [];
  for (let node = el; node !== document.documentElement; node = node.parentElement) path.unshift(node.localName + ':nth-child(' + ([...node.parentElement.children].indexOf(node) + 1) + ')');
  return 'html > ' + path.join(' > ');
})()`;

/** Runs in the browser: scrolls the element into view and answers its centre (or a point from its top left) in this document's viewport. */
function pointOf(el: Element, at: { x: number; y: number } | null) {
  el.scrollIntoView({ block: 'center', inline: 'center' });
  const r = el.getBoundingClientRect();
  return at ? { x: r.left + at.x, y: r.top + at.y } : { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/** Runs in the browser: scrolls the iframe into view and answers where its document starts in this document's viewport (inside its border and padding). */
function contentBoxOf(selector: string) {
  const el = document.querySelector(selector)!;
  el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  const r = el.getBoundingClientRect();
  const style = getComputedStyle(el);
  return { x: r.left + el.clientLeft + parseFloat(style.paddingLeft), y: r.top + el.clientTop + parseFloat(style.paddingTop) };
}

/**
 * A new WebDriver session with its window sized, tried twice: now and then (about 1 run in 40 on a busy
 * machine) MiniBrowser never answers the new session, and the test's whole time went by waiting for it.
 */
async function newSession(url: string, capabilities: Record<string, unknown>): Promise<WebDriver> {
  for (let attempt = 1; ; attempt += 1) {
    const building = (async () => {
      const driver = await new webdriver.Builder().usingServer(url).withCapabilities(capabilities).build();
      await driver.manage().window().setRect({ width: 1280, height: 960 });
      return driver;
    })();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('no WebKit session in 15 s')), 15_000)));
    try {
      return await Promise.race([building, late]);
    } catch (error) {
      void building.then((d) => d.quit()).catch(() => undefined); // a session that comes late is ended
      if (attempt === 2) throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * Sizes the window so that its inside is `width` × `height`: WebDriver sizes the window, toolbar included.
 * Without a window manager the window takes its new size after WebDriver has answered: on a busy machine
 * the page still saw the old one (1280 px wide), and the window then asked for was narrower than nothing.
 * The page is read until its window is as wide as asked (5 s at most: one that cannot be that narrow).
 */
async function sizeViewport(driver: WebDriver, width: number, height: number): Promise<void> {
  const inside = () =>
    driver.executeScript('return { width: innerWidth, height: innerHeight, window: outerWidth }') as Promise<{
      width: number;
      height: number;
      window: number;
    }>;
  let rect = { width, height };
  for (let attempt = 0; attempt < 2; attempt++) {
    await driver.manage().window().setRect(rect);
    // The window's outer width can follow the new size before its inner width does (seen in CI: outer 390,
    // inner still 1280), so both are read until the inside fits within the window.
    const settled = (got: { width: number; window: number }) => got.window === rect.width && got.width <= got.window;
    let got = await inside();
    for (const until = Date.now() + 5000; !settled(got) && Date.now() < until; got = await inside()) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (got.width === width) return;
    // The window's frame takes its share only once the window took the size asked for; until then, ask again.
    if (settled(got)) rect = { width: rect.width + width - got.width, height: Math.max(height, rect.height + height - got.height) };
  }
  const got = await inside();
  if (got.width !== width) throw new Error(`webkit: a viewport ${got.width} px wide, not ${width}`);
}

export async function webkitBackend(server: WebKitServer): Promise<Backend> {
  const capabilities = {
    browserName: 'MiniBrowser',
    acceptInsecureCerts: true,
    'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
  };
  const driver = await newSession(server.url, capabilities);
  const version = String((await driver.getCapabilities()).get('browserVersion'));
  // Without a window manager no window has the keyboard: give it to the browser's, as a desktop's would.
  await promisify(execFile)('xdotool', ['search', '--sync', '--onlyvisible', '--class', 'MiniBrowser', 'windowfocus'], {
    env: { ...process.env, DISPLAY: server.display },
    timeout: 10_000,
  });

  // WebDriver has one current frame per session: one call at a time.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const next = queue.then(task, task);
    queue = next.catch(() => undefined);
    return next;
  };
  const script = <T>(expression: string) => driver.executeScript(`return ${expression}`) as Promise<T>;
  const top = () => driver.switchTo().defaultContent();
  const enter = async (where: string[]) => {
    await top();
    for (const selector of where) {
      const frame = await driver.wait(webdriver.until.elementLocated(webdriver.By.css(selector)), 10_000);
      await driver.switchTo().frame(frame);
    }
  };
  // WebKit's Switch To Frame also focuses the frame it enters (its focus controller's focused frame),
  // which a person's keys would then reach: each call into a frame first notes where the focus is, from
  // the page down the focused iframes (entering a frame that has the focus moves nothing), and gives it
  // back after. The page itself is read from the top, which moves no focus.
  const focusChain = async (): Promise<string[]> => {
    await top();
    const chain: string[] = [];
    for (let next = await script<string | null>(ACTIVE_IFRAME); next; next = await script<string | null>(ACTIVE_IFRAME)) {
      chain.push(next);
      await driver.switchTo().frame(await driver.findElement(webdriver.By.css(next)));
    }
    return chain;
  };
  const restore = async (chain: string[]) => {
    await top();
    // The frame that had the focus gets it back (entering it does that), unless the page moved the
    // focus to an element of its own while we read (the OTP form focusing its input), before or while
    // we entered it: the frame would then hold the keys while the page's activeElement names its input
    // (seen 1 run in 5 of the OTP flow, its code typed into the name field).
    if (chain.length > 0 && (await script<string | null>(ACTIVE_IFRAME)) !== null) {
      await enter(chain);
      await top();
      if ((await script<string | null>(ACTIVE_IFRAME)) !== null) return;
    }
    // The page has the focus: window.focus() in the top document makes it the focused frame again.
    await driver.executeScript('window.focus()');
  };
  const inFrame = async <T>(where: In, task: () => Promise<T>): Promise<T> => {
    const path = where === undefined ? [] : [where].flat();
    if (path.length === 0) {
      await top();
      return task();
    }
    const chain = await focusChain();
    try {
      await enter(path);
      return await task();
    } finally {
      await restore(chain);
    }
  };
  const evaluate = async (expression: string) => {
    const answer = (await driver.executeAsyncScript(
      `const done = arguments[arguments.length - 1];
       Promise.resolve().then(() => ${expression}).then((v) => done({ ok: v === undefined ? null : v }), (e) => done({ error: String(e && e.stack || e) }));`,
    )) as { ok?: unknown; error?: string };
    if (answer.error !== undefined) throw new Error(`webkit: ${answer.error}`);
    return answer.ok;
  };
  const actions = () => driver.actions({ async: true });
  return {
    engine: 'webkit',
    version: `WebKitGTK ${version}`,
    goto: (url) => serial(() => driver.get(url)),
    evaluate: (where, expression) => serial(() => inFrame(where, () => evaluate(expression))),
    clickFound: (where, expression, at) =>
      serial(async () => {
        // A pointer click at the element's point on the screen, from the page, as a person's: a click
        // through WebDriver's element in its frame would first focus that frame (see focusChain).
        const path = where === undefined ? [] : [where].flat();
        let { x, y } = (await inFrame(where, () => evaluate(`(${pointOf})(${expression}, ${JSON.stringify(at ?? null)})`))) as {
          x: number;
          y: number;
        };
        for (let level = path.length; level > 0; level--) {
          const offset = (await inFrame(path.slice(0, level - 1), () =>
            evaluate(`(${contentBoxOf})(${JSON.stringify(path[level - 1])})`),
          )) as { x: number; y: number };
          x += offset.x;
          y += offset.y;
        }
        await top();
        await actions()
          .move({ origin: webdriver.Origin.VIEWPORT, x: Math.round(x), y: Math.round(y) })
          .press()
          .release()
          .perform();
      }),
    type: (text) =>
      serial(async () => {
        await top();
        await actions()
          .sendKeys(...[...text])
          .perform();
      }),
    press: (keys) =>
      serial(async () => {
        await top();
        const codes = keys.map(keyOf);
        let chain = actions();
        for (const k of codes) chain = chain.keyDown(k);
        for (const k of codes.reverse()) chain = chain.keyUp(k);
        await chain.perform();
      }),
    setViewport: (width, height) =>
      serial(async () => {
        await top();
        await sizeViewport(driver, width, height);
      }),
    screenshot: (path) => serial(async () => writeFile(path, await driver.takeScreenshot(), 'base64')),
    close: () => serial(() => driver.quit()),
  };
}
