// Issue 12, "Containment" (the hosted form; the demo-wide run reuses support/recorder.ts): everything
// the merchant's page can see while a person types a card, tokenises it and pays is recorded and
// searched for the card number and the CVV. A hostile script on the page tries every way in: reading
// the frames' documents, a keylogger, the frames' BroadcastChannel, their messages, and frames of its
// own opened with the live channel id. It gets nothing.
import { expect, type Page, test } from '@playwright/test';
import { type Merchant, startMerchant } from './support/merchant';
import { fillCard, openCheckout } from './support/page';
import { findCard, recordMerchant } from './support/recorder';

const CARD = { number: '371449635398431', spaced: '3714 496353 98431', expiry: '1234', cvv: '7391', name: 'Grace Hopper' };

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await startMerchant();
});
test.afterAll(() => merchant?.close());

const nonceRequests = () => merchant.sandbox.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/credit-card-nonce')).length;

/** The hostile script's first moves, before the person types: listen everywhere, read everything. */
function listenAndRead(page: Page) {
  return page.evaluate(() => {
    const w = window as any;
    const log: string[] = (w.hostileLog = []);
    const keys = [
      'keydown',
      'keypress',
      'keyup',
      'beforeinput',
      'input',
      'paste',
      'copy',
      'cut',
      'compositionend',
      'selectionchange',
      'focusin',
    ];
    for (const type of keys) {
      for (const target of [window, document]) {
        target.addEventListener(
          type,
          (e: any) => log.push(`${type} ${e.key ?? ''} ${e.data ?? ''} ${e.clipboardData?.getData('text') ?? ''}`),
          true,
        );
      }
    }
    const iframes = [...document.querySelectorAll('iframe')];
    const channel = new URLSearchParams(iframes[0]!.src.split('#')[1]).get('channel');
    new BroadcastChannel(`payframe:${channel}`).onmessage = (e) => log.push(`broadcast ${JSON.stringify(e.data)}`);
    new PerformanceObserver((list) => list.getEntries().forEach((e) => log.push(`resource ${e.name}`))).observe({
      type: 'resource',
      buffered: true,
    });
    new MutationObserver((records) =>
      records.forEach((r) => log.push(`mutation ${r.type} ${r.attributeName ?? ''} ${(r.target as Element).outerHTML ?? ''}`)),
    ).observe(document, { subtree: true, attributes: true, childList: true, characterData: true });
    const reads: string[] = [];
    iframes.forEach((iframe, i) => {
      const tries: Record<string, () => unknown> = {
        contentDocument: () => iframe.contentDocument,
        'contentWindow.document': () => (iframe.contentWindow as any).document,
        [`frames[${i}].document`]: () => (window.frames[i] as any).document,
        'location.href': () => (window.frames[i] as any).location.href,
        name: () => (window.frames[i] as any).name,
        selection: () => (iframe.contentWindow as any).getSelection().toString(),
        input: () => (iframe.contentWindow as any).document.getElementById('field').value,
      };
      for (const [what, read] of Object.entries(tries)) {
        try {
          const value = read();
          reads.push(`${what}: ${value === null ? 'null' : `read ${String(value)}`}`);
        } catch (error) {
          reads.push(`${what}: ${(error as Error).name}`);
        }
      }
    });
    return reads;
  });
}

/**
 * Frames of the hostile script's own: the real frame page with the live channel (a number and a CVV
 * field), and one with a guessed channel. It configures them and asks its number frames to tokenise
 * with a client token of its own: on the live channel the real fields give their values to its number
 * frame, as to any number frame on their channel, which answers it.
 */
function openOwnFrames(page: Page) {
  return page.evaluate(async () => {
    const live = document.querySelector<HTMLIFrameElement>('#card-number iframe')!.src;
    // The channel id is in the fragment twice: on its own, and in the config.
    const guessed = live.replaceAll(new URLSearchParams(live.split('#')[1]).get('channel')!, '0f'.repeat(16));
    const { clientToken } = await (await fetch('/client-token', { method: 'POST' })).json();
    const heard: string[] = [];
    const open = (src: string) =>
      new Promise<HTMLIFrameElement>((resolve) => {
        const iframe = Object.assign(document.createElement('iframe'), { src, className: 'hostile' });
        addEventListener('message', (e) => {
          if (e.source !== iframe.contentWindow) return;
          heard.push(JSON.stringify(e.data));
          if (e.data.t === 'ready') resolve(iframe); // with the config of its URL
        });
        document.body.append(iframe);
      });
    const ask = (iframe: HTMLIFrameElement, id: number) =>
      new Promise<void>((resolve) => {
        const ch = new URLSearchParams(iframe.src.split('#')[1]).get('channel');
        const origin = new URL(iframe.src).origin;
        addEventListener('message', (e) => e.source === iframe.contentWindow && e.data.id === id && resolve());
        iframe.contentWindow!.postMessage({ ch, t: 'tokenize', id, token: clientToken, timeoutMs: 10_000, retries: 0, seen: {} }, origin);
      });
    const [number, , other] = await Promise.all([open(live), open(live.replace('field=number', 'field=cvv')), open(guessed)]);
    await Promise.all([ask(number, 1), ask(other, 2)]);
    document.querySelectorAll('iframe.hostile').forEach((f) => f.remove());
    return heard;
  });
}

test('a whole checkout under a hostile script: the page sees a nonce, the brand, the last four and the expiry, never the card', async ({
  page,
}) => {
  const recorder = await recordMerchant(page);
  await openCheckout(page, merchant);
  const reads = await listenAndRead(page);
  const noncesBefore = nonceRequests();

  await fillCard(page, CARD);
  const ownFrames = await openOwnFrames(page);
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(page.locator('#status')).toHaveText('Paid: captured american-express 8431', { timeout: 15_000 });

  const card = await page.evaluate(() => (window as any).lastCard);
  expect(Object.keys(card).sort()).toEqual(['brand', 'expireMonth', 'expireYear', 'expiresAt', 'last4', 'name', 'nonce']);
  expect(card).toMatchObject({ brand: 'american-express', last4: '8431', expireMonth: 12, expireYear: 2034, name: 'Grace Hopper' });
  const hostileLog: string[] = await page.evaluate(() => (window as any).hostileLog);
  const seen = {
    ...(await recorder.snapshot()),
    messages: recorder.messages,
    console: recorder.console,
    requests: recorder.requests,
    hostile: hostileLog,
    reads,
    ownFrames,
    card: JSON.stringify(card),
    merchantServer: JSON.stringify(merchant.requests),
  };
  expect(Object.keys(seen)).toHaveLength(14); // the places docs/security.md's table counts
  expect(findCard(seen, CARD, ['messages', 'ownFrames'])).toEqual([]);

  // Every way in was tried, and found shut.
  expect(reads).toHaveLength(4 * 7);
  expect(reads.filter((r) => !/^[^:]+: (?:null|SecurityError)$/.test(r))).toEqual([]);
  expect(hostileLog.filter((l) => /^(?:key|beforeinput|input|paste|copy|cut|compositionend|broadcast)/.test(l))).toEqual([]);
  // Its own frames answered it, with states and refusals only: the number frame gathered the real
  // fields' values among the frames, had no number of its own, and sent nothing to the gateway.
  expect(ownFrames.filter((m) => /"t":"result"/.test(m))).toEqual([]);
  expect(
    ownFrames
      .filter((m) => /"t":"failure"/.test(m))
      .map((m) => JSON.parse(m).error.code)
      .sort(),
  ).toEqual(['invalid_card', 'timeout']);
  expect(nonceRequests() - noncesBefore).toBe(1);
  // The recorder did hear the frames: its silence about the card means something.
  expect(recorder.messages.length).toBeGreaterThan(50);
  expect(recorder.messages.filter((m) => m.includes('"t":"result"'))).toHaveLength(1);
  expect(recorder.requests.some((r) => r.startsWith('POST') && r.includes('/pay'))).toBe(true);
});

test('the recorder finds card data wherever it is put on the page (so that nothing found means nothing there)', async ({ page }) => {
  const recorder = await recordMerchant(page);
  await openCheckout(page, merchant);
  await page.evaluate(async ({ spaced, cvv }) => {
    postMessage(`card ${spaced}`, location.origin);
    for (const piece of ['37144', '96353', '98431']) postMessage({ piece }, location.origin);
    console.log('security code', cvv);
    localStorage.setItem('draft', spaced.replace(/ /g, '-'));
    document.body.dataset['bin'] = '635398';
    await fetch(`/nowhere?c=${cvv}`).catch(() => undefined);
  }, CARD);
  await expect.poll(() => recorder.messages.filter((m) => m.includes('piece')).length).toBe(3);
  const spaced = recorder.messages.find((m) => m.includes(CARD.spaced))!;
  const split = recorder.messages.filter((m) => m.includes('piece'));
  expect(
    findCard({ one: spaced, split, console: recorder.console, requests: recorder.requests, ...(await recorder.snapshot()) }, CARD, [
      'split',
    ]).sort(),
  ).toEqual([
    'console: the CVV',
    'dom: six digits of the card number in a row',
    'one: the card number',
    'requests: the CVV',
    'resources: the CVV',
    'split: the card number, over several messages',
    'storage: the card number',
  ]);
  await page.evaluate(() => localStorage.clear());
});
