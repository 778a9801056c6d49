// The `payframe` entry must be importable where there is no browser (server-side rendering).
import { describe, expect, it, vi } from 'vitest';

describe('importing payframe', () => {
  it('touches no window, document, network or timer in a node environment', async () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
    const globalsBefore = Object.getOwnPropertyNames(globalThis).sort();
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const timeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    const intervalSpy = vi.spyOn(globalThis, 'setInterval');
    try {
      vi.resetModules();
      const payframe = await import('../../src/index');
      expect(typeof payframe.createClient).toBe('function');
      expect(typeof payframe.collectBrowserInfo).toBe('function');
      expect(typeof payframe.validateNumber).toBe('function');
      expect(typeof payframe.PayframeError).toBe('function');
      expect(fetchSpy).not.toHaveBeenCalled();
      expect(timeoutSpy).not.toHaveBeenCalled();
      expect(intervalSpy).not.toHaveBeenCalled();
      expect(Object.getOwnPropertyNames(globalThis).sort()).toEqual(globalsBefore);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('creates a client in node without a browser, and collectBrowserInfo still answers', async () => {
    const { collectBrowserInfo, createClient } = await import('../../src/index');
    expect(() => createClient({ merchantId: 'm', authorization: 't', baseUrl: 'https://a.example' })).not.toThrow();
    expect(collectBrowserInfo()).toMatchObject({ channel: 'Web', javascript_enabled: true });
  });
});
