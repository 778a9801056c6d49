// A saved card paid again with its CVV (the CVV-only hosted form): the CVV is typed into a frame on the
// gateway's origin and posted by that frame straight to the merchant's server. The merchant's page
// (https://localhost:P2, strict CSP) never sees it, and no script on it can send it anywhere else.
import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { testCards } from '../src/sandbox';
import { readSavedCard } from '../src/server';
import { readmeBlock } from '../test/readme';
import { type Merchant, startMerchant } from './support/merchant';
import { openCheckout } from './support/page';
import { expectNoCardData, recordMerchant } from './support/recorder';

let merchant: Merchant;
let savedCardId: string;
test.beforeAll(async () => {
  merchant = await startMerchant();
  // A first payment whose card the payer asked to keep: the vault's card id is what the page knows.
  const first = await merchant.gateway.payments.create({
    intent: 'sale',
    amount: { currency: 'USD', total: '5.00' },
    storedCredential: { kind: 'first' },
    payer: { email: 'ada@example.com' },
    card: { number: testCards.approved.number, expireMonth: 12, expireYear: 2034, cvv: '123' },
  });
  savedCardId = readSavedCard(first).savedCardId!;
  // The page for a saved card of docs/saved-card-cvv.md: its form carries what the merchant's server knows of the card.
  const html = (await readFile(new URL('support/saved-card.html', import.meta.url), 'utf8'))
    .replace(
      '<form id="pay" novalidate>',
      `<form id="pay" novalidate data-card-id="${savedCardId}" data-brand="visa" data-merchant-id="${merchant.sandbox.merchant.id}" data-gateway-url="${merchant.sandbox.url}">`,
    )
    .replace('/saved-card.js', '/readme/saved-card.js');
  merchant.files.set('/readme/saved-card', { type: 'text/html; charset=utf-8', body: html });
  merchant.files.set('/readme/saved-card.js', { type: 'text/javascript', body: readmeBlock('hosted/saved-card.js') });
  await merchant.useSavedCardRoutes(readmeBlock('hosted/saved-card.mjs'));
});
test.afterAll(() => merchant?.close());

const CVV = '739';
const LABEL = 'Security code of the Visa ending in 1111';
const savedCardPage = (query: Record<string, string> = {}) =>
  `${merchant.url}/saved-card?${new URLSearchParams({ merchant: merchant.sandbox.merchant.id, gateway: merchant.sandbox.url, card: savedCardId, ...query })}`;
const cvvInput = (page: Page, label = LABEL) => page.frameLocator('#saved-cvv iframe').getByLabel(label);
const posts = () => merchant.requests.filter((r) => r.path === '/pay/saved-card' && r.method === 'POST').length;
const outcome = (page: Page, script: string) =>
  page.evaluate(`(${script})().then((v) => ({ ok: v }), (e) => ({ code: e.code, fields: e.fields, message: e.message }))`) as Promise<any>;

test('the brand sets the size: an American Express CID takes four digits; an incomplete one is refused and nothing is sent', async ({
  page,
}) => {
  await page.goto(savedCardPage({ brand: 'american-express', label: '' }));
  const input = cvvInput(page, 'Security code (CID)');
  await input.click();
  await page.keyboard.type('12');
  const before = posts();
  expect(await outcome(page, "() => window.form.postCvv({ url: '/pay/saved-card', body: {} })")).toMatchObject({
    code: 'invalid_card',
    fields: ['cvv'],
  });
  await expect(input).toHaveValue('12');
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await page.keyboard.type('345');
  await expect(input).toHaveValue('1234');
  await expect(page.locator('#saved-cvv')).toHaveClass(/payframe-field--valid/);
  expect(posts()).toBe(before);
});

test('a brand the frames do not know fails the mount with invalid_config', async ({ page }) => {
  await page.goto(savedCardPage({ brand: 'visaa' }));
  await expect(page.getByRole('status')).toHaveText(/^invalid_config: mountFields: brand must be one of visa, /);
  await expect(page.locator('iframe')).toHaveCount(0);
});

test('a hostile script on the page cannot send the CVV anywhere but the merchant’s own routes that allow the frames', async ({ page }) => {
  const recorder = await recordMerchant(page);
  const seen: string[] = [];
  page.on('request', (r) => seen.push(`${r.method()} ${r.url()}`));
  await page.goto(savedCardPage());
  await cvvInput(page).click();
  await page.keyboard.type(CVV);
  await page.evaluate(() => (window as any).form.ready);

  // Through the form: any other origin is refused before anything leaves.
  for (const url of [`${merchant.sandbox.url}/collect`, 'https://evil.example/collect', '//evil.example/x', 'javascript:alert(1)']) {
    expect(await outcome(page, `() => window.form.postCvv({ url: ${JSON.stringify(url)} })`), url).toMatchObject({ code: 'unsafe_url' });
  }
  // Straight to the frame, forging the form's own messages: the frame checks the URL itself.
  const answer = await page.evaluate(async (gateway) => {
    const frame = document.querySelector('iframe')!;
    const ch = new URLSearchParams(frame.src.split('#')[1]).get('channel');
    const answers: unknown[] = [];
    addEventListener('message', (e) => e.data?.t === 'failure' && e.data.id === 99 && answers.push(e.data.error.code));
    frame.contentWindow!.postMessage(
      { ch, t: 'post', id: 99, url: `${gateway}/collect`, body: {}, timeoutMs: 5000 },
      new URL(gateway).origin,
    );
    await new Promise((r) => setTimeout(r, 1000));
    return answers;
  }, merchant.sandbox.url);
  expect(answer).toEqual(['unsafe_url']);
  // A route of the merchant that does not allow the frames' origin never receives the CVV: the preflight fails.
  expect(await outcome(page, "() => window.form.postCvv({ url: '/csp-report' })")).toMatchObject({ code: 'network' });
  expect(merchant.requests.filter((r) => r.path === '/csp-report' && r.method === 'POST')).toEqual([]);
  expect(seen.filter((r) => /evil\.example|\/collect/.test(r))).toEqual([]);
  expect(merchant.sandbox.requests().filter((r) => r.path.includes('collect'))).toEqual([]);
  await expectNoCardData(recorder, { cvv: CVV });
});

test('a full form’s CVV field never posts, whatever the page asks', async ({ page }) => {
  const recorder = await recordMerchant(page);
  await openCheckout(page, merchant);
  await page.frameLocator('#card-cvv iframe').getByLabel('Security code').click();
  await page.keyboard.type(CVV);
  expect(await outcome(page, "() => window.form.postCvv({ url: '/pay/saved-card' })")).toMatchObject({ code: 'invalid_request' });
  const before = posts();
  const answers = await page.evaluate(async () => {
    const frame = document.querySelector<HTMLIFrameElement>('#card-cvv iframe')!;
    const ch = new URLSearchParams(frame.src.split('#')[1]).get('channel');
    const heard: unknown[] = [];
    addEventListener('message', (e) => e.data?.id === 7 && heard.push(e.data));
    // Even claiming, in a forged config, that the form has no number field.
    frame.contentWindow!.postMessage({ ch, t: 'config', locale: 'en', fields: ['cvv'] }, new URL(frame.src).origin);
    frame.contentWindow!.postMessage(
      { ch, t: 'post', id: 7, url: `${location.origin}/pay/saved-card`, body: {}, timeoutMs: 5000 },
      new URL(frame.src).origin,
    );
    await new Promise((r) => setTimeout(r, 1000));
    return heard;
  });
  expect(answers).toEqual([]);
  expect(posts()).toBe(before);
  await expectNoCardData(recorder, { cvv: CVV });
});

test('the saved card of docs/saved-card-cvv.md, page and routes as written: a ticket, the CVV from its frame, a payment', async ({
  page,
}) => {
  const recorder = await recordMerchant(page);
  await page.goto(`${merchant.url}/readme/saved-card`);
  const input = cvvInput(page);
  await input.click();
  await page.keyboard.type('12');
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(page.getByRole('status')).toHaveText('Check the security code');
  await expect(input).toHaveValue('12'); // kept as typed; nothing was sent
  await input.click();
  await page.keyboard.press('End');
  await page.keyboard.type('3');
  await page.getByRole('button', { name: 'Pay 25.00 USD' }).click();
  await expect(page.getByRole('status')).toHaveText('Paid: captured', { timeout: 15_000 });
  const sent = merchant.requests
    .filter((r) => r.path.startsWith('/saved-card/'))
    .map((r) => `${r.method} ${r.path} ${r.headers.origin ?? ''}`);
  const frames = new URL(merchant.sandbox.url).origin;
  // The first try's ticket went unused (postCvv refused the code before sending anything); the second paid.
  const ticket = `POST /saved-card/ticket ${merchant.url}`;
  expect(sent).toEqual([ticket, ticket, `OPTIONS /saved-card/pay ${frames}`, `POST /saved-card/pay ${frames}`]);
  const payment = merchant.sandbox
    .requests()
    .filter((r) => r.method === 'POST' && r.path.endsWith('/payment'))
    .at(-1)!;
  expect((payment.body as any).payer.funding_instrument.credit_card_token).toEqual({ credit_card_id: savedCardId, cvv2: '***' });
  await expectNoCardData(recorder, { cvv: '123' });
});

// The adversarial review's find: a page script mounted a full form whose gateway was a loopback
// listener of its own, which the frame page's connect-src then admitted (it named the merchant's
// origins, by default every loopback origin, for the CVV post), and the card number went there.
test('a page script that points a full form’s gateway at another origin gets no request out of the frames', async ({ page }) => {
  const { createServer } = await import('node:http');
  const got: string[] = [];
  const rogue = createServer((req, res) => {
    got.push(`${req.method} ${req.url}`);
    res
      .writeHead(204, { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': '*' })
      .end();
  });
  await new Promise<void>((resolve) => rogue.listen(0, '127.0.0.1', resolve));
  try {
    const rogueUrl = `http://127.0.0.1:${(rogue.address() as { port: number }).port}/`;
    await page.goto(savedCardPage());
    await expect(cvvInput(page)).toBeEditable({ timeout: 15_000 });
    await page.evaluate(
      ([gateway, frames, merchantId]) => {
        for (const id of ['n', 'e', 'c']) document.body.append(Object.assign(document.createElement('div'), { id }));
        const P = (window as any).Payframe;
        const client = P.createClient({ merchantId, baseUrl: gateway, authorization: 'a-token' });
        (window as any).stolen = P.mountFields({
          client,
          frameUrl: frames,
          fields: { number: { container: '#n' }, expiry: { container: '#e' }, cvv: { container: '#c' } },
        });
      },
      [rogueUrl, `${merchant.sandbox.url}/frame/`, merchant.sandbox.merchant.id],
    );
    // The sandbox's page names its gateway, itself: frames pointed elsewhere refuse to start, and show
    // no input to type a card into (the policy's connect-src, the gateway alone, is the second fence).
    expect(await outcome(page, '() => window.stolen.ready')).toMatchObject({
      code: 'invalid_config',
      message: expect.stringContaining('this frame host serves the card frames of'),
    });
    await expect(page.frameLocator('#n iframe').getByRole('textbox')).toHaveCount(0);
    expect(got).toEqual([]);
  } finally {
    rogue.close();
  }
});
