// What a person never sees but every flow checks: CSP violations and uncaught errors, in the page and
// in every frame. Chromium and Firefox run the watch first in every document (an init or preload
// script); classic WebDriver has no such script, so in WebKit the watch starts in a document when
// `watchAll` first reaches it (a flow calls it once its frames are ready): what a frame does while it
// loads is seen in the other two engines, and the page's own violations reach its report-uri in all.
import type { Driver } from './driver';

/** Runs in the browser: installs the watch in this document, once. */
export function watch(): void {
  const w = window as unknown as { __watch?: { violations: string[]; errors: string[] } };
  if (w.__watch) return;
  const seen = (w.__watch = { violations: [] as string[], errors: [] as string[] });
  const where = location.origin;
  document.addEventListener(
    'securitypolicyviolation',
    (e) => seen.violations.push(`${where} ${e.violatedDirective} ${e.blockedURI}`),
    true,
  );
  addEventListener('error', (e) => seen.errors.push(`${where} ${e.message}`));
  addEventListener('unhandledrejection', (e) =>
    seen.errors.push(`${where} unhandled rejection: ${e.reason?.code ?? e.reason?.message ?? e.reason}`),
  );
}
export const WATCH = `(${watch.toString()})()`;

/** Runs in the browser: a CSS selector for each iframe of this document (its path of :nth-child from the root). */
export function iframePaths(): string[] {
  return [...document.querySelectorAll('iframe')].map((el) => {
    const path: string[] = [];
    for (let node: Element | null = el; node && node !== document.documentElement; node = node.parentElement) {
      path.unshift(`${node.localName}:nth-child(${[...node.parentElement!.children].indexOf(node) + 1})`);
    }
    return `html > ${path.join(' > ')}`;
  });
}

/** Every frame of the page, as `In` paths, nested frames included; a frame that refused to load (CSP, frame-ancestors) is left out. */
export async function allFrames(driver: Driver): Promise<string[][]> {
  const found: string[][] = [];
  const walk = async (at: string[]) => {
    for (const selector of await driver.run(at.length ? at : undefined, iframePaths)) {
      const path = [...at, selector];
      // A frame the browser refused shows an error page of the browser's own, where no script runs.
      if (!(await driver.run(path, () => !!document.documentElement).catch(() => false))) continue;
      found.push(path);
      await walk(path);
    }
  };
  await walk([]);
  return found;
}

/** Starts the watch where it has not started (WebKit), in the page and every frame. */
export async function watchAll(driver: Driver): Promise<void> {
  for (const where of [undefined, ...(await allFrames(driver))]) await driver.run(where, watch);
}

/** The violations and errors seen so far, in the page and every frame. */
export async function problems(driver: Driver): Promise<string[]> {
  const seen: string[] = [];
  for (const where of [undefined, ...(await allFrames(driver))]) {
    const w = await driver.run(
      where,
      () => (window as unknown as { __watch?: { violations: string[]; errors: string[] } }).__watch ?? null,
    );
    if (w) seen.push(...w.violations, ...w.errors);
  }
  return seen;
}
