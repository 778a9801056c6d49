// Everything the merchant's page and its scripts can see, recorded while a person pays, and a search of
// it for card data: the containment suite's tool, for the hosted form's test page and for the demo's
// checkouts alike. Start it before the page loads (its message listener must come first).
import { expect, type Page, type Request } from '@playwright/test';

/** What must not leak; a flow with a saved card has only its CVV. */
export interface Card {
  number?: string;
  cvv?: string;
}

export interface Recorder {
  /** Every message the merchant window received: `origin data` as JSON, in order. */
  messages: string[];
  /** Console output and uncaught errors of the page and of every frame. */
  console: string[];
  /** Every request the merchant's page made (method, URL, headers, body) and the bodies it was answered. */
  requests: string[];
  /** What the page holds now, by where: the DOM (shadow roots and input values too), storage, cookies, URL, ... */
  snapshot(): Promise<Record<string, string>>;
}

const fromPage = (page: Page, request: Request) => {
  try {
    return request.frame() === page.mainFrame();
  } catch {
    return false; // a service worker's request has no frame
  }
};

export async function recordMerchant(page: Page): Promise<Recorder> {
  const recorder: Recorder = { messages: [], console: [], requests: [], snapshot: () => snapshot(page) };
  await page.exposeBinding('__payframeRecorder', ({ frame }, text: string) => {
    if (frame === page.mainFrame()) recorder.messages.push(text);
  });
  await page.addInitScript(() => {
    if (window !== window.top) return;
    const record = (window as unknown as { __payframeRecorder(text: string): void }).__payframeRecorder;
    // First and in the capture phase: nothing on the page can hide a message from it.
    addEventListener(
      'message',
      (event) => {
        let data: string;
        try {
          data = JSON.stringify(event.data) ?? String(event.data);
        } catch {
          data = String(event.data);
        }
        void record(`${event.origin} ${data}`);
      },
      true,
    );
  });
  page.on('console', (m) => recorder.console.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => recorder.console.push(`pageerror: ${e.message}`));
  page.on('request', (r) => {
    if (fromPage(page, r)) recorder.requests.push(`${r.method()} ${r.url()} ${JSON.stringify(r.headers())} ${r.postData() ?? ''}`);
  });
  page.on('response', async (r) => {
    if (!fromPage(page, r.request()) || !['fetch', 'xhr', 'document'].includes(r.request().resourceType())) return;
    recorder.requests.push(`answer ${r.status()} ${r.url()} ${await r.text().catch(() => '')}`);
  });
  return recorder;
}

/**
 * What went wrong unseen in the page or any of its frames: uncaught errors and rejections, and console
 * errors (Chromium logs a CSP violation as one, in the document where it happened).
 */
export const problemsOf = (recorder: Recorder): string[] => recorder.console.filter((line) => /^(?:error|pageerror):/.test(line));

/** Runs in the page: what its scripts can read, by where (the DOM with shadow roots and input values, storage, URL, ...). */
export async function pageView(): Promise<Record<string, string>> {
  const dom: string[] = [];
  const walk = (root: Document | ShadowRoot) => {
    dom.push(root instanceof Document ? root.documentElement.outerHTML : root.innerHTML);
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) walk(el.shadowRoot);
      if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement)
        dom.push(`${el.id}=${el.value}`);
    }
  };
  walk(document);
  const storage = (s: Storage) =>
    Object.keys(s)
      .map((k) => `${k}=${s.getItem(k)}`)
      .join('\n');
  const databases = (await indexedDB.databases?.()) ?? [];
  return {
    dom: dom.join('\n'),
    storage: `${storage(localStorage)}\n${storage(sessionStorage)}\n${databases.map((d) => d.name).join('\n')}`,
    url: `${location.href}\n${document.referrer}\n${window.name}\n${JSON.stringify(history.state)}\n${document.title}`,
    resources: performance
      .getEntries()
      .map((e) => e.name)
      .join('\n'),
    cookie: document.cookie,
  };
}

async function snapshot(page: Page): Promise<Record<string, string>> {
  const view = await page.evaluate(pageView);
  // Every cookie the browser holds, the frames' origin's included.
  return { ...view, cookies: JSON.stringify(await page.context().cookies()) };
}

/**
 * Digits that are no one's input (origins and URLs, ids, timestamps, the protocol's numbers such as a
 * height): left out when the digits of a list of messages are followed.
 */
const NOT_INPUT =
  /\bhttps?:\/\/[^\s"]*|\b[\da-f]{8}(?:-[\da-f]{4}){3}-[\da-f]{12}\b|\b[\da-f]{8,}\b|\d{4}-\d\d-\d\dT[\d:.]+Z?|":\s*-?\d+(?:\.\d+)?(?=[,}\]])/gi;

/**
 * The protocol's random numbers: each frame's version counter (`n`, from a random start below 10^15) and
 * the channel id (32 hex digits). Six of a test card's digits in a row turned up in one of them (a run of
 * `111111` in a clean run's React checkout, a false alarm): they are no one's input, and are left out.
 */
const RANDOM = /"(?:n":\s*\d+(?:\.\d+)?|ch":\s*"[\da-f]{32}")/g;

/** An ISO time: its milliseconds are three digits of their own, one time in a thousand a test's CVV. */
const TIME = /\d{4}-\d\d-\d\dT[\d:.]+Z?/g;

/** Whether `digits` appear in `stream` in order, with anything between them. */
function inOrder(digits: string, stream: string): boolean {
  let at = 0;
  for (const d of stream) if (d === digits[at] && ++at === digits.length) return true;
  return false;
}

/**
 * Where card data shows in what was recorded: the number whole with any separators, six or more of its
 * digits in a row (other than its first six, the BIN, which a page may show as a saved card's `bin`),
 * the CVV as a number of its own (not as an ISO time's milliseconds), and, in the lists of messages named by `streams`, the number's digits
 * in order across them (a few digits per message, even overlapping, as a frame sending each keystroke's
 * value would). Empty when nothing leaked.
 */
export function findCard(seen: Record<string, string | string[]>, card: Card, streams = ['messages']): string[] {
  const digits = card.number?.replace(/\D/g, '') ?? '';
  const pieces = Array.from({ length: Math.max(0, digits.length - 6) }, (_, i) => digits.slice(i + 1, i + 7));
  const cvv = card.cvv && new RegExp(`(?<![\\da-f])${card.cvv}(?![\\da-f])`, 'i');
  const found: string[] = [];
  for (const [where, value] of Object.entries(seen)) {
    const texts = Array.isArray(value) ? value : [value];
    const text = texts.join('\n').replace(RANDOM, '');
    const runs = text.match(/\d{6,}/g) ?? [];
    if (digits && text.replace(/\D/g, '').includes(digits)) found.push(`${where}: the card number`);
    else if (pieces.some((p) => runs.some((run) => run.includes(p)))) found.push(`${where}: six digits of the card number in a row`);
    else if (digits && streams.includes(where) && inOrder(digits, text.replace(NOT_INPUT, '').replace(/\D/g, '')))
      found.push(`${where}: the card number, over several messages`);
    if (cvv && cvv.test(text.replace(TIME, ''))) found.push(`${where}: the CVV`);
  }
  return found;
}

/** At a flow's end: nothing the page could read holds the card, and the recorder did hear the frames. */
export async function expectNoCardData(recorder: Recorder, card: Card): Promise<void> {
  const seen = { ...(await recorder.snapshot()), messages: recorder.messages, console: recorder.console, requests: recorder.requests };
  expect(findCard(seen, card)).toEqual([]);
  expect(recorder.messages.join('\n'), 'the recorder heard no message from the frames').toContain('"ch":');
}
