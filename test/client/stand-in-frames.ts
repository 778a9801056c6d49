// For happy-dom tests of the hosted form's page side: happy-dom does not load cross-origin iframes, so
// each iframe's window is a stand-in that records what the page posts to it.
import { vi } from 'vitest';

export type StandIn = { postMessage: ReturnType<typeof vi.fn> };

const loads = new WeakSet<Event>();

/** The frame's page has loaded, as the browser's `load` on its iframe says. */
export function frameLoaded(iframe: HTMLIFrameElement): void {
  const event = new Event('load');
  loads.add(event);
  iframe.dispatchEvent(event);
}

/** A `postMessage` whose `mock.calls` hold each message as it was when posted: the browser's structured clone. */
function recorder() {
  const spy = vi.fn();
  const post = (message: unknown, origin: string) => spy(structuredClone(message), origin);
  return Object.defineProperty(post, 'mock', { get: () => spy.mock, configurable: true }) as unknown as ReturnType<typeof vi.fn>;
}

/** Makes every connected iframe's `contentWindow` a recording stand-in (call in `beforeEach`). */
export function standInFrames(): void {
  const windows = new WeakMap<HTMLIFrameElement, StandIn>();
  // The frames' documents never load: happy-dom may make them, but not navigate them anywhere. Its own
  // `load` of an empty frame is dropped: a test says when a frame's page has loaded (`frameLoaded`).
  const settings = (window as any).happyDOM.settings;
  settings.enableIframePageLoading = true;
  settings.navigation.disableChildFrameNavigation = true;
  const dispatch = HTMLIFrameElement.prototype.dispatchEvent;
  HTMLIFrameElement.prototype.dispatchEvent = function (this: HTMLIFrameElement, event: Event) {
    return event.type === 'load' && !loads.has(event) ? false : dispatch.call(this, event);
  };
  Object.defineProperty(HTMLIFrameElement.prototype, 'contentWindow', {
    configurable: true,
    get(this: HTMLIFrameElement) {
      if (!this.isConnected) return null;
      if (!windows.has(this)) windows.set(this, { postMessage: recorder() });
      return windows.get(this);
    },
  });
}
