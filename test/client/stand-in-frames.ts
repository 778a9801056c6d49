// For happy-dom tests of the hosted form's page side: happy-dom does not load cross-origin iframes, so
// each iframe's window is a stand-in that records what the page posts to it.
import { vi } from 'vitest';

export type StandIn = { postMessage: ReturnType<typeof vi.fn> };

/** Makes every connected iframe's `contentWindow` a recording stand-in (call in `beforeEach`). */
export function standInFrames(): void {
  const windows = new WeakMap<HTMLIFrameElement, StandIn>();
  // The frames' documents never load: happy-dom may make them, but not navigate them anywhere.
  const settings = (window as any).happyDOM.settings;
  settings.enableIframePageLoading = true;
  settings.navigation.disableChildFrameNavigation = true;
  Object.defineProperty(HTMLIFrameElement.prototype, 'contentWindow', {
    configurable: true,
    get(this: HTMLIFrameElement) {
      if (!this.isConnected) return null;
      if (!windows.has(this)) windows.set(this, { postMessage: vi.fn() });
      return windows.get(this);
    },
  });
}
