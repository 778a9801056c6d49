// Whether payframe's OTP form is ever drawn in a page, even for an instant before the page leaves: the
// payer with a card whose bank takes the code on its own page must never be shown it.
import type { Page } from '@playwright/test';

/**
 * Watches every document `page` loads from now on (call it before the checkout is opened) for the
 * input of payframe's OTP form (`.payframe-otp__input`; the bank's own page has another form), and
 * answers whether one was seen. An init script, so it runs before the page's own scripts.
 */
export async function watchOtpForm(page: Page): Promise<() => boolean> {
  let drawn = false;
  await page.exposeFunction('payframeOtpFormDrawn', () => void (drawn = true));
  await page.addInitScript(() => {
    const seen = () => document.querySelector('.payframe-otp__input') !== null;
    const tell = () => (window as unknown as { payframeOtpFormDrawn(): void }).payframeOtpFormDrawn();
    const observer = new MutationObserver(() => {
      if (!seen()) return;
      observer.disconnect();
      tell();
    });
    observer.observe(document, { childList: true, subtree: true });
  });
  return () => drawn;
}
