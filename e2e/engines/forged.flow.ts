// Forged messages in every engine, Chromium's included (issue 20, item 5; Chromium has more in e2e/forged-messages.spec.ts):
// fake field frames planted in the checkout, one on another origin and one a document of the frame
// origin itself, post the protocol's messages with the live channel id, to the page and to each real
// frame: every type with a valid shape, then malformed ones. The page and the frames check the sender's
// origin and window before the channel and the shape, so nothing a person or the page sees changes, no
// nonce is asked for, and a forged result never replaces the real one. A value forged on the frames'
// channel (which the document of the frame origin can join) makes a payment fail, and reaches no window.
import { checkoutUrl, type Merchant, pageCsp, startMerchant } from '../support/merchant';
import { type Origin, startOrigin } from '../support/origin';
import { forge, formView } from '../support/forge';
import { expectNoCardData, field, type Field, LABELS, recorded, textOf, typeInto } from './harness/checkout';
import type { Driver, In } from './harness/driver';
import { expect, test } from './harness/test';

const CARD = { number: '4111111111111111', expiry: '1234', cvv: '123', name: 'Ada Lovelace' };
const FIELDS = Object.keys(LABELS) as Field[];
const FAKES = ['#fake-other', '#fake-frame-origin'];

let merchant: Merchant;
let other: Origin;
test.beforeAll(async () => {
  [merchant, other] = await Promise.all([startMerchant(), startOrigin()]);
  // A checkout whose CSP also lets an ad slot on another origin in (the strict one would refuse it).
  const csp = pageCsp(merchant.sandbox.url).replace('frame-src ', `frame-src ${other.url} `);
  merchant.files.set('/with-ads', { ...merchant.files.get('/')!, headers: { 'content-security-policy': csp } });
});
test.afterAll(() => Promise.all([merchant?.close(), other?.close()]));

const nonceRequests = () => merchant.sandbox.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/credit-card-nonce')).length;

/** The checkout with a card typed, two fake frames planted (loaded), and a counter of arrivals in the page and every field's frame. */
async function checkoutUnderAttack(driver: Driver): Promise<string> {
  await driver.goto(checkoutUrl(merchant).replace('/?', '/with-ads?'));
  await expect.poll(async () => (await recorded(driver)).events.some(([name]) => name === 'ready'), { timeout: 15_000 }).toBe(true);
  for (const name of FIELDS) await typeInto(driver, name, CARD[name]);
  await expect.poll(async () => (await driver.run(undefined, () => (window as any).form.getState())).isValid).toBe(true);
  const fakes = [`${other.url}/fake-field`, `${merchant.sandbox.url}/frame/?merchant=${merchant.sandbox.merchant.id}&fake=1`];
  await driver.run(
    undefined,
    (srcs: string[], ids: string[]) => {
      srcs.forEach((src, i) => document.body.append(Object.assign(document.createElement('iframe'), { src, id: ids[i]!.slice(1) })));
    },
    fakes,
    FAKES,
  );
  for (const where of FAKES)
    await expect.poll(() => driver.run(where, () => document.readyState).catch(() => 'loading'), { timeout: 10_000 }).toBe('complete');
  for (const where of [undefined, ...FIELDS.map((name) => field(name).in)]) {
    await driver.run(where, () => {
      const heard: Record<string, number> = ((window as any).__heard = {});
      addEventListener('message', (e) => void (heard[e.origin] = (heard[e.origin] ?? 0) + 1), true);
    });
  }
  return driver.run(undefined, () => new URLSearchParams(document.querySelector('iframe')!.src.split('#')[1]).get('channel')!);
}

const heardFrom = (driver: Driver, where: In, origin: string) =>
  driver.run(where, (o: string) => ((window as any).__heard[o] ?? 0) as number, origin);

/** Everything the forgeries could have changed, as the page and the person see it. */
async function view(driver: Driver) {
  const onPage = await driver.run(undefined, formView, true);
  const fields = [];
  for (const name of FIELDS) {
    fields.push(
      await driver.run(field(name).in, () => {
        const el = document.querySelector('input')!;
        return {
          value: el.value,
          placeholder: el.placeholder,
          invalid: el.getAttribute('aria-invalid'),
          label: document.querySelector('label')!.textContent,
          lang: document.documentElement.lang,
          focused: document.activeElement === el,
        };
      }),
    );
  }
  return { ...onPage, fields, nonces: nonceRequests(), pays: merchant.requests.filter((r) => r.path === '/pay').length };
}

test('fake field frames in the checkout, on another origin and on the frame origin, post as the fields do: all ignored, and the card pays', async ({
  driver,
}) => {
  test.slow(); // some 500 messages, 1 MiB strings among them, into five documents
  const ch = await checkoutUnderAttack(driver);
  const before = await view(driver);

  for (const [fake, origin] of [
    [FAKES[0]!, other.url],
    [FAKES[1]!, merchant.sandbox.url],
  ] as const) {
    const was = { page: await heardFrom(driver, undefined, origin), number: await heardFrom(driver, field('number').in, origin) };
    const toPage = await driver.run(fake, forge, { ch, to: 'page', target: 'parent' });
    const toFrames = await driver.run(fake, forge, { ch, to: 'frames', target: 'parent.frames' });
    expect([toPage, toFrames]).toEqual([47, 62]);
    // Said after every forgery arrived: counted in the receivers themselves.
    await expect.poll(() => heardFrom(driver, undefined, origin), { timeout: 15_000 }).toBeGreaterThanOrEqual(was.page + toPage);
    for (const name of FIELDS)
      await expect
        .poll(() => heardFrom(driver, field(name).in, origin), { timeout: 15_000 })
        .toBeGreaterThanOrEqual(name === 'number' ? was.number + toFrames : toFrames);
  }
  expect(await view(driver)).toEqual(before);

  await driver.click({ role: 'button', name: 'Pay 25.00 USD' });
  await expect.poll(() => textOf(driver, '#status'), { timeout: 15_000 }).toBe('Paid: captured visa 1111');
  expect(nonceRequests()).toBe(before.nonces + 1);
});

test('a forged result while the real tokenisation waits: the page keeps the real nonce, which pays', async ({ driver }) => {
  const ch = await checkoutUnderAttack(driver);
  merchant.sandbox.injectFault({ kind: 'delay', ms: 3000, method: 'POST', path: /credit-card-nonce$/ });
  const nonces = nonceRequests();
  const was = await heardFrom(driver, undefined, merchant.sandbox.url);
  await driver.click({ role: 'button', name: 'Pay 25.00 USD' });
  await expect.poll(nonceRequests).toBe(nonces + 1); // the real request is out, its answer held back
  const sent = await driver.run(FAKES[1], forge, { ch, to: 'page', target: 'parent' });
  await expect.poll(() => heardFrom(driver, undefined, merchant.sandbox.url), { timeout: 15_000 }).toBeGreaterThanOrEqual(was + sent);
  await expect.poll(() => textOf(driver, '#status'), { timeout: 15_000 }).toBe('Paid: captured visa 1111');
  const card = await driver.run(undefined, () => (window as any).lastCard);
  expect(card).toMatchObject({ last4: '1111', brand: 'visa' });
  expect(card.nonce).not.toBe('00000000-0000-4000-8000-000000000000');
});

test("a value forged on the frames' channel by a document of the frame origin: that payment fails, no value reaches a window, and the person's next edit pays", async ({
  driver,
}) => {
  const ch = await checkoutUnderAttack(driver);
  const before = nonceRequests();
  // The number frame's own ear on its channel: a listener made after the frame's own hears a message after it.
  await driver.run(
    field('number').in,
    (ch: string) => {
      const heard: unknown[] = ((window as any).onChannel = []);
      new BroadcastChannel(`payframe:${ch}`).onmessage = (e) => heard.push(e.data.n);
    },
    ch,
  );
  // The fake on the frame origin joins the channel and notes which fields it hears a value of (never the
  // value); it asks, as a number frame does, and, once the real expiry answered, posts an expiry long past
  // under a version far ahead of the real field's (in its block: it heard the version).
  const forged = await driver.run(
    FAKES[1],
    (ch: string) =>
      new Promise<number>((resolve) => {
        const bc = new BroadcastChannel(`payframe:${ch}`);
        const fields: string[] = ((window as any).fields = []);
        bc.onmessage = (e) => {
          if (e.data.t !== 'value') return;
          fields.push(e.data.field);
          if (e.data.field !== 'expiry' || (window as any).forged) return;
          (window as any).forged = true; // once
          bc.postMessage({ ch, t: 'value', field: 'expiry', value: '01 / 20', n: e.data.n + 1000 });
          resolve(e.data.n + 1000);
        };
        bc.postMessage({ ch, t: 'ask' });
      }),
    ch,
  );
  // A page of another origin naming the same channel hears nothing: another origin's channel.
  await driver.run(
    FAKES[0],
    (ch: string) => {
      const heard: unknown[] = ((window as any).heard = []);
      new BroadcastChannel(`payframe:${ch}`).onmessage = (e) => heard.push(e.data);
    },
    ch,
  );
  await expect.poll(() => driver.run(field('number').in, () => (window as any).onChannel as number[])).toContain(forged);

  await driver.click({ role: 'button', name: 'Pay 25.00 USD' });
  await expect.poll(() => textOf(driver, '#status'), { timeout: 15_000 }).toBe('invalid_card: expiry');
  expect(nonceRequests()).toBe(before);
  // The person retypes the year's last digit: the frame's own post comes last, and the card pays as typed.
  await driver.click(field('expiry'));
  await driver.press('Backspace');
  await driver.type('4');
  await driver.click({ role: 'button', name: 'Pay 25.00 USD' });
  await expect.poll(() => textOf(driver, '#status'), { timeout: 15_000 }).toBe('Paid: captured visa 1111');
  expect(await driver.run(undefined, () => (window as any).lastCard)).toMatchObject({ expireMonth: 12, expireYear: 2034 });
  expect(nonceRequests()).toBe(before + 1);

  // Values went on the frames' channel, the number never; none to a window, nor to another origin's channel.
  const fields: string[] = await driver.run(FAKES[1], () => (window as any).fields);
  expect(new Set(fields)).toEqual(new Set(['expiry', 'cvv', 'name'])); // the answers to its ask
  expect(await driver.run(FAKES[0], () => (window as any).heard)).toEqual([]);
  await expectNoCardData(driver, CARD);
  const said = (await recorded(driver)).messages.map((m) => JSON.stringify({ ...JSON.parse(m.data), ch: undefined })).join('\n');
  expect(said).not.toMatch(/"t":"value"|\d\d \/ \d\d/); // the result carries the expiry as numbers
});
