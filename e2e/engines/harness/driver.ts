// One driver for every engine a payer uses: Chromium (Playwright), Firefox (puppeteer-core over
// WebDriver BiDi) and WebKit (selenium-webdriver with WebKitWebDriver). A flow written against this
// interface runs the same in all three: it finds elements as a person does (by label, role and name,
// or visible text), clicks them with the pointer, types with the keyboard, and reads the page.
import { find, type Target } from './find';

export type Engine = 'chromium' | 'firefox' | 'webkit';
export type { Target };

/**
 * Where a script runs or an element is found: the page, or the document of an iframe picked by a CSS
 * selector in the page (an array: an iframe in that iframe's document, and so on).
 */
export type In = string | string[] | undefined;

/** A function run in the browser: it is sent as its source, so it must use only its arguments (no closure, no import). */
export type InPage<A extends unknown[], R> = (...args: A) => R | Promise<R>;

export interface Driver {
  readonly engine: Engine;
  /** The engine and the version run, as a person would name it: 'Firefox 153.7.0esr'. */
  readonly version: string;
  /** Opens a URL in the tab and waits for its load event. */
  goto(url: string): Promise<void>;
  /** Runs `fn` in the page (or in the frame `where` picks) with JSON arguments, and answers its JSON result. */
  run<A extends unknown[], R>(where: In, fn: InPage<A, R>, ...args: A): Promise<R>;
  /** A person's click on the element (a real pointer click at its centre, or `at` from its top left); waits for it to appear. */
  click(target: Target & { in?: In; at?: { x: number; y: number } }): Promise<void>;
  /** Types text, key by key, wherever the focus is. */
  type(text: string): Promise<void>;
  /** Presses a key or a chord: 'Tab', 'Shift+Tab', 'Enter', 'Backspace', '4'. */
  press(key: string): Promise<void>;
  /** Makes the page's viewport `width` × `height` CSS pixels (the window's inside: a narrow window), for this test. */
  setViewport(width: number, height: number): Promise<void>;
  screenshot(path: string): Promise<void>;
  /** How the engine reports the ends of the tab's requests (its frames' included) that `match`, counted from now; absent where the driver hears no network events (WebKit's). */
  watchRequests?(match: RequestMatch): RequestEnds;
  close(): Promise<void>;
}

export type RequestMatch = (method: string, url: string) => boolean;
/** Requests the browser reported finished, and those it reported failed, by their error text. */
export interface RequestEnds {
  finished: number;
  failed: string[];
}

/** What every implementation needs from its engine to make a Driver: the rest is the same for all. */
export interface Backend {
  engine: Engine;
  version: string;
  goto(url: string): Promise<void>;
  /** Evaluates an expression (which may give a promise) in a document, answers its JSON value. */
  evaluate(where: In, expression: string): Promise<unknown>;
  /** Clicks the element the expression gives, at its centre or at an offset from its top left. */
  clickFound(where: In, expression: string, at?: { x: number; y: number }): Promise<void>;
  type(text: string): Promise<void>;
  press(keys: string[]): Promise<void>;
  setViewport(width: number, height: number): Promise<void>;
  screenshot(path: string): Promise<void>;
  watchRequests?(match: RequestMatch): RequestEnds;
  close(): Promise<void>;
}

const call = (fn: InPage<any, any>, args: unknown[]) => `(${fn.toString()})(...${JSON.stringify(args)})`;
const FIND_MS = 10_000;

export function driverOf(backend: Backend): Driver {
  return {
    engine: backend.engine,
    version: backend.version,
    goto: (url) => backend.goto(url),
    run: async (where, fn, ...args) => (await backend.evaluate(where, call(fn, args))) as never,
    async click({ in: where, at, ...target }) {
      // Waits as a person does for the element to be there: a frame's input appears once the frame has loaded.
      const present = call(find, [target]);
      const until = Date.now() + FIND_MS;
      while (!(await backend.evaluate(where, `!!${present}`).catch(() => false))) {
        if (Date.now() > until)
          throw new Error(`${backend.engine}: no element for ${JSON.stringify(target)} in ${JSON.stringify(where ?? 'the page')}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await backend.clickFound(where, present, at);
    },
    type: (text) => backend.type(text),
    press: (key) => backend.press(key === '+' ? ['+'] : key.split('+')),
    setViewport: (width, height) => backend.setViewport(width, height),
    screenshot: (path) => backend.screenshot(path),
    ...(backend.watchRequests && { watchRequests: backend.watchRequests }),
    close: () => backend.close(),
  };
}
