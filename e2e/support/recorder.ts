// What a script on the merchant's page could ever learn, recorded through a whole flow so that a test
// can prove no card number and no CVV reached it: every message the page window receives (recorded
// from before its first script), its DOM with the values of its inputs, its storage, cookies and URL,
// its console, and every request the page itself makes. Any page, any flow: call `recordPage(page)`
// before `page.goto`, then `await expectNoCardData(recorder, secrets)` at the end.
import { expect, type Page } from '@playwright/test';

export interface CardSecrets {
  /** The card number as typed (spaces or not): found with or without its spaces. */
  number?: string;
  cvv?: string;
}

export interface Recorder {
  page: Page;
  console: string[];
  requests: string[];
}

/** Starts recording; call it before the page is opened (it records from the first script on). */
export async function recordPage(page: Page): Promise<Recorder> {
  await page.addInitScript(() => {
    if (window !== window.top) return; // the card frames record nothing: they are not the merchant's page
    const heard: string[] = [];
    Object.defineProperty(window, '__heard', { value: heard });
    addEventListener('message', (event) => heard.push(`${event.origin} ${JSON.stringify(event.data)}`), true);
  });
  const recorder: Recorder = { page, console: [], requests: [] };
  page.on('console', (message) => recorder.console.push(`${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => recorder.console.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    if (request.frame() === page.mainFrame()) {
      recorder.requests.push(`${request.method()} ${request.url()} ${JSON.stringify(request.headers())} ${request.postData() ?? ''}`);
    }
  });
  return recorder;
}

/** Everything the page's scripts can read now, by where it was found. */
async function pageView(page: Page): Promise<Record<string, string>> {
  const view = await page.evaluate(() => {
    const storage = (s: Storage) => Object.keys(s).map((k) => `${k}=${s.getItem(k)}`).join('\n');
    const values = [...document.querySelectorAll('input, textarea, select')].map((e) => (e as HTMLInputElement).value).join('\n');
    return {
      messages: ((window as unknown as { __heard?: string[] }).__heard ?? []).join('\n'),
      dom: `${document.documentElement.outerHTML}\n${values}`,
      storage: `${storage(localStorage)}\n${storage(sessionStorage)}\n${document.cookie}`,
      url: location.href,
    };
  });
  return view;
}

/** Where each secret was found in `text`: a card number with or without separators, a CVV as a value of its own. */
export function leaks(text: string, { number, cvv }: CardSecrets): string[] {
  const found: string[] = [];
  const digits = number?.replace(/\D/g, '');
  if (digits && text.replace(/[\s-]/g, '').includes(digits)) found.push('card number');
  if (number && text.includes(number)) found.push('card number as typed');
  // A CVV is short: it counts where it stands alone (not inside an id, an amount or a timestamp).
  if (cvv && new RegExp(`(?<![\\w.])${cvv}(?![\\w.])`).test(text)) found.push('cvv');
  return found;
}

/** Fails when any card secret is anywhere the page could read, and checks that the recorder did hear the frames. */
export async function expectNoCardData(recorder: Recorder, secrets: CardSecrets): Promise<void> {
  const view = await pageView(recorder.page);
  const everything = { ...view, console: recorder.console.join('\n'), requests: recorder.requests.join('\n') };
  for (const [where, text] of Object.entries(everything)) expect(leaks(text, secrets), where).toEqual([]);
  expect(view.messages, 'the recorder heard no message from the frames').toContain('"ch":');
}
