// payframe/element: importing it is safe where there is no browser (server rendering), and defining it there does nothing.
import { describe, expect, it, vi } from 'vitest';

describe('importing payframe/element', () => {
  it('touches no window, document, network or timer, and defineElements() does nothing without a registry', async () => {
    expect(typeof customElements).toBe('undefined');
    const globalsBefore = Object.getOwnPropertyNames(globalThis).sort();
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const timeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    try {
      vi.resetModules();
      const { defineElements, CARD_FIELDS_TAG } = await import('../../src/element/index');
      expect(CARD_FIELDS_TAG).toBe('payframe-card-fields');
      expect(() => defineElements()).not.toThrow();
      expect(fetchSpy).not.toHaveBeenCalled();
      expect(timeoutSpy).not.toHaveBeenCalled();
      expect(Object.getOwnPropertyNames(globalThis).sort()).toEqual(globalsBefore);
    } finally {
      vi.restoreAllMocks();
    }
  });
});
