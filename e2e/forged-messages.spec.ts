// Issue 12, "Forged messages": a page on another origin, fake field frames (on another origin, and on
// the frame origin itself) and the real frame page opened with a copied or guessed channel id send the
// protocol's messages with the live channel id: every type with valid shapes, then malformed ones
// (wrong types, huge strings, prototype keys, other values than objects). The page and the frames
// check the sender's origin and window, then the channel, then the shape: nothing changes that the
// page can see (getState(), events, the fields), and no nonce is asked for. Every message is counted
// on arrival, so "nothing changed" is said after all of them were received.
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { checkoutUrl, type Merchant, pageCsp, startMerchant } from './support/merchant';
import { type Origin, startOrigin } from './support/origin';
import { forge, formView } from './support/forge';
import { fillCard, type Field, frameOf, input, LABELS, recorded } from './support/page';

const CARD = { number: '4111111111111111', expiry: '1234', cvv: '123', name: 'Ada Lovelace' };
const FIELDS = Object.keys(LABELS) as Field[];

let merchant: Merchant;
let other: Origin;
test.beforeAll(async () => {
  [merchant, other] = await Promise.all([startMerchant(), startOrigin()]);
  const checkout = merchant.files.get('/')!;
  const csp = pageCsp(merchant.sandbox.url).replace('frame-src ', `frame-src ${other.url} `);
  merchant.files.set('/with-ads', { ...checkout, headers: { 'content-security-policy': csp } });
});
test.afterAll(async () => {
  await Promise.all([merchant?.close(), other?.close()]);
});

const nonceRequests = () => merchant.sandbox.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/credit-card-nonce')).length;

/** Counts the messages every document of the context receives, by receiver (a field's name, or an origin) and sender origin. */
async function countArrivals(context: BrowserContext): Promise<(receiver: string, sender: string) => number> {
  const counts = new Map<string, number>();
  await context.exposeBinding('__arrived', (_, key: string) => void counts.set(key, (counts.get(key) ?? 0) + 1));
  await context.addInitScript(() => {
    addEventListener(
      'message',
      (e) => {
        const field = new URLSearchParams(location.search).get('field');
        void (window as any).__arrived(`${window === top || !field ? location.origin : field} <- ${e.origin}`);
      },
      true,
    );
  });
  return (receiver, sender) => counts.get(`${receiver} <- ${sender}`) ?? 0;
}

/** Everything the forgeries could have changed, as the page and the person see it. */
async function view(page: Page) {
  const onPage = await page.evaluate(formView, true);
  const fields = await Promise.all(
    FIELDS.map((field) =>
      frameOf(page, field)
        .locator('input')
        .evaluate((el: HTMLInputElement) => ({
          value: el.value,
          placeholder: el.placeholder,
          invalid: el.getAttribute('aria-invalid'),
          label: document.querySelector('label')!.textContent,
          lang: document.documentElement.lang,
          focused: document.activeElement === el,
        })),
    ),
  );
  return { ...onPage, fields, nonces: nonceRequests(), pays: merchant.requests.filter((r) => r.path === '/pay').length };
}

/** Types the card, then waits until the page has heard every keystroke (one `change` each: every key of
 *  CARD changes its field's value), so that a late event of the typing is not taken for an effect of the forgeries. */
async function typeCard(page: Page) {
  await fillCard(page, CARD);
  const keys = Object.values(CARD).join('').length;
  await expect.poll(async () => (await recorded(page)).events.filter(([name]) => name === 'change').length, { timeout: 15_000 }).toBe(keys);
}

/** Adds iframes to the page, as whatever can add one would (an ad slot), and answers their frames once loaded. */
async function plantFrames(page: Page, srcs: string[]) {
  await page.evaluate(
    (list) => list.forEach((src) => document.body.append(Object.assign(document.createElement('iframe'), { src }))),
    srcs,
  );
  return Promise.all(
    srcs.map(async (src) => {
      await expect.poll(() => page.frames().some((f) => f.url() === src)).toBe(true);
      const frame = page.frames().find((f) => f.url() === src)!;
      await frame.waitForLoadState();
      return frame;
    }),
  );
}

const channelOf = (page: Page) =>
  page.evaluate(() => new URLSearchParams(document.querySelector('iframe')!.src.split('#')[1]).get('channel')!);

/** Posts with `post`, then waits until each receiver got at least the count `post` gave for it from `sender`. */
async function delivered(arrived: (r: string, s: string) => number, sender: string, post: () => Promise<Record<string, number>>) {
  const before = new Map<string, number>();
  for (const receiver of [merchant.url, ...FIELDS]) before.set(receiver, arrived(receiver, sender));
  const sent = await post();
  for (const [receiver, n] of Object.entries(sent)) {
    await expect.poll(() => arrived(receiver, sender), { timeout: 15_000 }).toBeGreaterThanOrEqual(before.get(receiver)! + n);
  }
  return sent;
}

const toEach = (page: number | undefined, frames: number | undefined) => ({
  ...(page === undefined ? {} : { [merchant.url]: page }),
  ...(frames === undefined ? {} : Object.fromEntries(FIELDS.map((f) => [f, frames]))),
});

/** The person pays: one nonce request more than `nonces`, so none came from a forgery that acted late. */
async function paysAfter(page: Page, nonces: number) {
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(page.locator('#status')).toHaveText('Paid: captured visa 1111', { timeout: 15_000 });
  expect(nonceRequests()).toBe(nonces + 1);
}

test('a page on another origin that opened the checkout posts every message to it and to its frames: all ignored', async ({
  page,
  context,
}) => {
  const arrived = await countArrivals(context);
  await page.goto(other.url);
  const [checkout] = await Promise.all([
    page.waitForEvent('popup'),
    page.evaluate((url) => ((window as any).popup = open(url)), checkoutUrl(merchant)),
  ]);
  await checkout.waitForLoadState();
  await expect.poll(async () => (await recorded(checkout))?.events.some(([name]) => name === 'ready'), { timeout: 15_000 }).toBe(true);
  await typeCard(checkout);
  const before = await view(checkout);
  const ch = await channelOf(checkout);

  const sent = await delivered(arrived, other.url, async () =>
    toEach(
      await page.evaluate(forge, { ch, to: 'page', target: 'popup' }),
      await page.evaluate(forge, { ch, to: 'frames', target: 'popup.frames' }),
    ),
  );
  expect(await view(checkout)).toEqual(before);
  expect([sent[merchant.url], sent['number']]).toEqual([47, 62]);
  await paysAfter(checkout, before.nonces);
});

test('malformed messages from the real senders (the page to its frames, a frame to the page) are ignored, and the form works after', async ({
  page,
  context,
}) => {
  const arrived = await countArrivals(context);
  await page.goto(checkoutUrl(merchant));
  await expect.poll(async () => (await recorded(page)).events.some(([name]) => name === 'ready'), { timeout: 15_000 }).toBe(true);
  await typeCard(page);
  const before = await view(page);
  const ch = await channelOf(page);

  const toFrames = await delivered(arrived, merchant.url, async () =>
    toEach(undefined, await page.evaluate(forge, { ch, to: 'frames', target: 'frames', malformedOnly: true })),
  );
  // As if a frame had a bug: the number frame itself posts malformed messages to the page.
  const numberFrame = page.frames().find((f) => f.url().includes('field=number'))!;
  const toPage = await delivered(arrived, merchant.sandbox.url, async () =>
    toEach(await numberFrame.evaluate(forge, { ch, to: 'page', target: 'parent', malformedOnly: true }), undefined),
  );
  expect([toFrames['number'], toPage[merchant.url]]).toEqual([55, 36]);
  expect(await view(page)).toEqual(before);
  await paysAfter(page, before.nonces);
});

test('the real frame page with a copied or guessed channel id: blank outside the merchant page, and nothing to gain inside another', async ({
  page,
  context,
}) => {
  await page.goto(checkoutUrl(merchant));
  await expect.poll(async () => (await recorded(page)).events.some(([name]) => name === 'ready'), { timeout: 15_000 }).toBe(true);
  await fillCard(page, CARD);
  const live = await page.evaluate(() => document.querySelector<HTMLIFrameElement>('#card-number iframe')!.src);
  const naming = (origin: string, src = live) => src.replace(/origin=[^&]+/, `origin=${encodeURIComponent(origin)}`);
  // The channel id is in the fragment twice: on its own, and in the config.
  const guessed = live.replaceAll(new URLSearchParams(live.split('#')[1]).get('channel')!, '5a'.repeat(16));
  const nonces = nonceRequests();

  // Opened on its own (a new tab), or framed by another site that keeps the merchant's origin in the URL: blank.
  const alone = await context.newPage();
  await alone.goto(live);
  expect(await alone.locator('input').count()).toBe(0);
  await alone.close();
  const attacker = await context.newPage();
  await attacker.goto(other.url);
  // Heard from before the frame is planted, and read at the end of the test (a late message has come by
  // then): the blank frame says nothing to the page that framed it, whatever that page posts to it.
  await attacker.evaluate(() => {
    const heard: [MessageEventSource | null, string][] = ((window as any).heard = []);
    addEventListener('message', (e) => heard.push([e.source, `${e.origin} ${JSON.stringify(e.data)}`]));
  });
  const [framed] = await plantFrames(attacker, [live]);
  // The page knows the channel (it made the URL) and posts a well-formed config from its own origin.
  await attacker.evaluate(() => {
    const frame = document.querySelector('iframe')!;
    const ch = new URLSearchParams(frame.src.split('#')[1]).get('channel');
    frame.contentWindow!.postMessage({ ch, t: 'config', locale: 'en', label: 'Card number', fields: ['number'] }, '*');
  });
  await attacker.locator('iframe').first().click();
  await attacker.keyboard.type('4111');
  expect(await framed!.locator('input').count()).toBe(0);
  const blankSaid = () =>
    attacker.evaluate(() => {
      const blank = document.querySelector('iframe')!.contentWindow;
      return ((window as any).heard as [MessageEventSource | null, string][]).filter(([source]) => source === blank).map(([, m]) => m);
    });

  // Framed by another site that names itself (of the checkout's site: the same storage partition), the
  // frame runs, for that site. On the copied channel the checkout's fields, open in the first tab, give
  // it their values, as to any number frame on their channel; asked to tokenise with a real client token
  // it has no number, and says so, naming no other field and no value. On the guessed channel no value
  // comes: timeout, naming the fields. Nothing reaches the gateway.
  const { clientToken } = await (await fetch(`${merchant.url}/client-token`, { method: 'POST' })).json();
  const heard = await attacker.evaluate(
    async ({ srcs, token }) => {
      const got: string[] = [];
      await Promise.all(
        srcs.map(
          (src, i) =>
            new Promise<void>((resolve) => {
              const iframe = Object.assign(document.createElement('iframe'), { src });
              const ch = new URLSearchParams(src.split('#')[1]).get('channel');
              const to = new URL(src).origin;
              let asked = false;
              addEventListener('message', (e) => {
                if (e.source !== iframe.contentWindow) return;
                got.push(JSON.stringify(e.data));
                // Ready with the config of its URL: asked at once (the config posted on load, as the page does, changes nothing).
                if (e.data.t === 'ready' && !asked) {
                  asked = true;
                  iframe.contentWindow!.postMessage({ ch, t: 'tokenize', id: i + 1, token, timeoutMs: 10_000, retries: 0, seen: {} }, to);
                }
                if (e.data.t === 'failure' || e.data.t === 'result') resolve();
              });
              document.body.append(iframe);
            }),
        ),
      );
      return got;
    },
    { srcs: [naming(other.url), naming(other.url, guessed)], token: clientToken },
  );
  expect(heard.filter((m) => /"t":"(?:result|failure)"/.test(m)).map((m) => JSON.parse(m).error)).toEqual([
    expect.objectContaining({ code: 'invalid_card', fields: ['number'], reasons: { number: 'empty' } }),
    expect.objectContaining({ code: 'timeout', fields: ['expiry', 'cvv', 'name'] }),
  ]);
  // Without the random channel id, whose hex may hold 4111 by chance.
  const said = heard.map((m) => JSON.stringify({ ...JSON.parse(m), ch: undefined })).join('\n');
  expect(said).not.toMatch(/4111|1111 1111|"123"|Ada/);
  expect(nonceRequests()).toBe(nonces);
  // The frames named for this page spoke to it by now; the blank one never did.
  expect(await blankSaid()).toEqual([]);
  await attacker.close();
  await paysAfter(page, nonces);
});

// The frames' channel reaches the documents of the frame origin in the checkout's storage partition:
// the page's own script can put one there, the real frame page (its origin serves nothing else), as
// another expiry field and another number field on the live channel. The rogue expiry field, whose page
// clears it again and again, puts an empty expiry of a high version on the channel; but a frame counts its
// versions in a block of its own, and the page names the real field's: the number frame asks again, and the
// payment carries the expiry as typed. The rogue number frame gets the card's other values
// from the real fields, as any number frame on their channel does, but it has no number, and it says
// nothing to its page but its refusal. No value reaches any window.
test("frames of the page's script on the live channel (the real frame page) change no payment, never get a value to a window", async ({
  page,
}) => {
  await page.goto(checkoutUrl(merchant));
  await expect.poll(async () => (await recorded(page)).events.some(([name]) => name === 'ready'), { timeout: 15_000 }).toBe(true);
  await fillCard(page, CARD);
  const nonces = nonceRequests();
  /** Plants the real frame page for `field` on the live channel, and gathers what it says to the page, the channel id left out. */
  const plant = (field: string) =>
    page.evaluate(async (field) => {
      const live = document.querySelector<HTMLIFrameElement>('#card-number iframe')!.src;
      const said: string[] = ((window as any)[`rogue-${field}`] = []);
      const iframe = Object.assign(document.createElement('iframe'), {
        src: live.replace('field=number', `field=${field}`),
        id: `rogue-${field}`,
      });
      await new Promise<void>((resolve) => {
        addEventListener('message', (e) => {
          if (e.source !== iframe.contentWindow) return;
          said.push(JSON.stringify({ ...e.data, ch: undefined }));
          if (e.data.t === 'ready') resolve(); // with the config of its URL
        });
        document.body.append(iframe);
      });
    }, field);
  /** Posts `m` on the live channel to the planted frame `field`, and waits until it said something that `until` matches. */
  const tell = (field: string, list: object[], until: string) =>
    page.evaluate(
      async ({ field, list, until }) => {
        const live = document.querySelector<HTMLIFrameElement>('#card-number iframe')!.src;
        const ch = new URLSearchParams(live.split('#')[1]).get('channel');
        const target = document.querySelector<HTMLIFrameElement>(`iframe#rogue-${field}`)!.contentWindow!;
        for (const m of list) target.postMessage({ ...m, ch }, new URL(live).origin);
        const said: string[] = (window as any)[`rogue-${field}`];
        await new Promise<void>((resolve) => {
          const check = () => said.some((m) => m.includes(until)) && resolve();
          check();
          addEventListener('message', check);
        });
      },
      { field, list, until },
    );

  // The rogue expiry field cleared 50 times: 50 changes, each posted on the channel before its state to the page.
  await plant('expiry');
  await tell(
    'expiry',
    Array.from({ length: 50 }, () => ({ t: 'clear' })),
    '"n":',
  );
  await expect
    .poll(() => page.evaluate(() => (window as any)['rogue-expiry'].filter((m: string) => m.includes('"n":')).length))
    .toBeGreaterThanOrEqual(50);
  // The person pays: the real number frame holds the rogue's empty expiry last, but not of the frame the page heard.
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(page.locator('#status')).toHaveText('Paid: captured visa 1111', { timeout: 15_000 });
  expect(await page.evaluate(() => (window as any).lastCard)).toMatchObject({ last4: '1111', expireMonth: 12, expireYear: 2034 });
  expect(nonceRequests()).toBe(nonces + 1);
  // Then corrects the expiry and pays: the card pays as typed.
  await input(page, 'expiry').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('0530');
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect
    .poll(() => page.evaluate(() => (window as any).lastCard), { timeout: 15_000 })
    .toMatchObject({ last4: '1111', expireMonth: 5, expireYear: 2030 });
  await expect(page.locator('#status')).toHaveText('Paid: captured visa 1111');

  // The rogue number frame, asked to tokenise with a real client token: it has no number.
  const { clientToken } = await (await fetch(`${merchant.url}/client-token`, { method: 'POST' })).json();
  await plant('number');
  await tell('number', [{ t: 'tokenize', id: 1, token: clientToken, timeoutMs: 10_000, retries: 0, seen: {} }], '"t":"failure"');
  const said: string[] = await page.evaluate(() => [...(window as any)['rogue-number'], ...(window as any)['rogue-expiry']]);
  expect(said.map((m) => JSON.parse(m)).find((m) => m.t === 'failure').error).toMatchObject({
    code: 'invalid_card',
    fields: expect.arrayContaining(['number']),
  });
  expect(nonceRequests()).toBe(nonces + 2);
  // No value, nor anything of the frames' channel, reached the page.
  const heard = (await recorded(page)).messages.map((m) => JSON.stringify({ ...JSON.parse(m.data), ch: undefined }));
  expect(heard.filter((m) => /"t":"(?:value|ask)"|4111|1111 1111|"123"|\d\d \/ \d\d/.test(m))).toEqual([]); // the result carries the name, and the expiry as numbers
});

// Security review "Going live without a trap", finding 3: the page's own script (the frames' parent, on
// the mount's channel: every check of a message passes) sent a `share` for the next job; the expiry
// frame put its value of that moment on the channel, the number frame kept it, and the nonce carried
// that expiry, not the one the payer corrected afterwards. There is no `share` now: the number frame
// holds each field's last value, and the page's tokenize names the version it validated, so the
// replay, with Pay clicked right after the correction's last key, pays the expiry as corrected.
test('the review’s replay, a share the page’s own script sends ahead of the next job, then Pay right after a correction: the nonce carries the expiry as corrected', async ({
  page,
}) => {
  await page.goto(checkoutUrl(merchant));
  await expect.poll(async () => (await recorded(page)).events.some(([name]) => name === 'ready'), { timeout: 15_000 }).toBe(true);
  await fillCard(page, CARD);
  const ch = await channelOf(page);
  const frameOrigin = new URL(merchant.sandbox.url).origin;
  // From the page itself, to each of its frames, for the jobs to come (the first tokenize is job 1).
  await page.evaluate(
    ({ ch, to }) => {
      for (let i = 0; i < window.frames.length; i++) for (const id of [1, 2, 3]) window.frames[i]!.postMessage({ ch, t: 'share', id }, to);
    },
    { ch, to: frameOrigin },
  );
  await input(page, 'expiry').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('0530');
  const nonces = nonceRequests();
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(page.locator('#status')).toHaveText('Paid: captured visa 1111', { timeout: 15_000 });
  expect(await page.evaluate(() => (window as any).lastCard)).toMatchObject({ last4: '1111', expireMonth: 5, expireYear: 2030 });
  // The card the gateway received: the corrected expiry.
  const sent = merchant.sandbox
    .requests()
    .filter((r) => r.method === 'POST' && r.path.endsWith('/credit-card-nonce'))
    .slice(nonces);
  expect(sent).toHaveLength(1);
  expect(JSON.stringify(sent[0]!.body)).toMatch(/"expire_month":"?0?5"?/);
});
