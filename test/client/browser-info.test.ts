// @vitest-environment happy-dom
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { collectBrowserInfo } from '../../src';
import { BrowserInfoSchema } from '../../src/schemas';

describe('collectBrowserInfo', () => {
  it('fills browser_info from the page, valid under BrowserInfoSchema', () => {
    const info = collectBrowserInfo();
    expect(v.safeParse(BrowserInfoSchema, info).success).toBe(true);
    expect(info).toMatchObject({
      channel: 'Web',
      java_enabled: false,
      javascript_enabled: true,
      user_agent: navigator.userAgent,
      language: navigator.language,
      screen_width: String(screen.width),
      screen_height: String(screen.height),
      color_depth: screen.colorDepth,
      timezone_offset: new Date().getTimezoneOffset(),
    });
    expect(info.accept_header).toContain('text/html');
    expect(info).not.toHaveProperty('ip');
  });

  it('reads the page at call time', () => {
    const original = navigator.language;
    Object.defineProperty(navigator, 'language', { value: 'fr-FR', configurable: true });
    try {
      expect(collectBrowserInfo().language).toBe('fr-FR');
    } finally {
      Object.defineProperty(navigator, 'language', { value: original, configurable: true });
    }
  });
});
