// The service's hosted payment page through payframe/server, against the real sandbox: the payer is
// played by form posts to the sandbox's page, as a browser sends them (the browsers play it in e2e/).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, testCards, type SandboxHandle, type TestCard } from '../setup/sandbox';
import { createGateway, memoryNotificationStore, type Gateway, type HostedSettlement, type Payment } from '../../src/server';
import { startReceiver, type Receiver } from '../sandbox/receiver';
import { EUR, refusal } from './helpers';

const AUTH = 'Bearer hosted-notify';
const RETURN = 'https://shop.example/checkout/return';
let sandbox: SandboxHandle;
let receiver: Receiver;
let gateway: Gateway;

beforeAll(async () => {
  receiver = await startReceiver();
  sandbox = await startSandbox({ notifyUrl: receiver.url, notifyAuthorization: AUTH });
  const { id, clientId, clientSecret } = sandbox.merchant;
  gateway = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: sandbox.url, timeoutMs: 5000 });
});
afterAll(async () => {
  await sandbox?.close();
  await receiver?.stop();
});

/** The payer types `card` on the page and presses Pay; answers where the browser is sent. */
async function payOnPage(link: string, card: TestCard): Promise<URL> {
  const res = await fetch(link, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      number: card.number,
      expiry: `${card.expireMonth}/${String(card.expireYear).slice(2)}`,
      cvv: card.cvv,
      name: 'Ada Lovelace',
    }).toString(),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location')!, link);
}

/** A checkout's two routes, settling a book of orders by invoice number through one `onPayment`. */
function shop() {
  const book = new Map<string, string>();
  const settled: Payment[] = [];
  const onPayment = (payment: Payment) => {
    settled.push(payment);
    book.set(String(payment.transaction?.invoice_number), payment.state);
  };
  let n = 0;
  const start = gateway.handlers.hostedPage({
    order: () => ({ intent: 'sale', amount: EUR('19.90'), invoiceNumber: `ORD-${Date.now()}-${++n}`, returnUrl: RETURN }),
    onSession: (s) => void book.set(s.invoiceNumber, 'sent to the page'),
  });
  const rendered: HostedSettlement[] = [];
  const back = gateway.handlers.hostedReturn({
    onPayment,
    render: (settlement) => (rendered.push(settlement), new Response(`status: ${settlement.status}`)),
  });
  const notify = gateway.handlers.notification({ authorization: AUTH, onPayment, store: memoryNotificationStore() });
  return { book, settled, start, back, rendered, notify };
}

describe('gateway.hostedPayments', () => {
  it('creates a session and reads it back: pending, with the invoice number the payment will carry', async () => {
    const made = await gateway.hostedPayments.create({ intent: 'auth', amount: EUR('5.00'), returnUrl: RETURN, invoiceNumber: 'HP-1' });
    expect(made.invoice_number).toBe('HP-1');
    const sessionId = new URL(made.hosted_page_link).pathname.split('/').pop()!;
    expect(await gateway.hostedPayments.session(sessionId)).toEqual({ session_id: sessionId, session_state: 'pending' });
    expect(await gateway.hostedPayments.settle(sessionId)).toMatchObject({ status: 'open' });
  });

  it('refuses an input without returnUrl or with a bad amount before sending anything', async () => {
    const before = sandbox.requests().length;
    await refusal(gateway.hostedPayments.create({ intent: 'sale', amount: EUR('5.00') } as never), 'invalid_request');
    await refusal(gateway.hostedPayments.create({ intent: 'sale', amount: EUR('5.001'), returnUrl: RETURN }), 'invalid_request');
    await refusal(
      gateway.hostedPayments.create({ intent: 'sale', amount: EUR('5.00'), returnUrl: 'javascript:alert(1)' }),
      'invalid_request',
    );
    expect(sandbox.requests().length).toBe(before);
  });

  it('settles an expired session as expired: nothing was charged', async () => {
    const made = await gateway.hostedPayments.create({ intent: 'sale', amount: EUR('5.00'), returnUrl: RETURN });
    sandbox.advanceClock(3600_000);
    const sessionId = new URL(made.hosted_page_link).pathname.split('/').pop()!;
    expect(await gateway.hostedPayments.settle(sessionId)).toMatchObject({ status: 'expired', session: { session_state: 'expired' } });
  });
});

describe('handlers.hostedPage and handlers.hostedReturn', () => {
  it('sends the payer to the page, and settles the order when they return', async () => {
    const s = shop();
    const started = await s.start(new Request('https://shop.example/checkout/hosted', { method: 'POST' }));
    expect(started.status).toBe(303);
    const link = started.headers.get('location')!;
    expect(new URL(link).origin).toBe(sandbox.url);
    const [invoice] = [...s.book.keys()];
    expect(s.book.get(invoice!)).toBe('sent to the page');

    const back = await payOnPage(link, testCards.approved);
    expect(back.origin + back.pathname).toBe(RETURN);
    const page = await s.back(new Request(back));
    expect(await page.text()).toBe('status: approved');
    expect(s.book.get(invoice!)).toBe('captured');
    expect(s.rendered[0]).toMatchObject({ status: 'approved', state: 'captured', session: { session_state: 'used' } });
  });

  it('answers the link as JSON to a page that asks for it', async () => {
    const s = shop();
    const res = await s.start(
      new Request('https://shop.example/checkout/hosted', { method: 'POST', headers: { accept: 'application/json' } }),
    );
    const answer = await res.json();
    expect(answer).toEqual({
      hostedPageLink: expect.stringMatching(/^https:/),
      sessionId: expect.stringMatching(/^[0-9a-f]{32}$/),
      invoiceNumber: expect.any(String),
    });
    expect(answer.hostedPageLink.endsWith(answer.sessionId)).toBe(true);
  });

  it('settles a payer who closed the tab after paying, by the notification alone', async () => {
    const s = shop();
    const link = (await s.start(new Request('https://shop.example/checkout/hosted', { method: 'POST' }))).headers.get('location')!;
    const [invoice] = [...s.book.keys()];
    await payOnPage(link, testCards.approved); // and never comes back
    await sandbox.notificationsIdle();
    const got = receiver.got.find((r) => r.payload?.resource?.transaction?.invoice_number === invoice)!;
    const request = new Request('https://shop.example/payframe/notify', {
      method: 'POST',
      headers: { authorization: String(got.headers['authorization']), 'content-type': String(got.headers['content-type']) },
      body: got.body,
    });
    expect((await s.notify(request)).status).toBe(204);
    expect(s.book.get(invoice!)).toBe('captured');
  });

  it('tells a declined card on the return page, and settles it as declined', async () => {
    const s = shop();
    const link = (await s.start(new Request('https://shop.example/checkout/hosted', { method: 'POST' }))).headers.get('location')!;
    const page = await s.back(new Request(await payOnPage(link, testCards.declined)));
    expect(await page.text()).toBe('status: declined');
    expect(s.settled.at(-1)).toMatchObject({ state: 'declined', result: { code: '1005' } });
  });

  it('does not settle a payment still waiting for its OTP, and refuses a return without its session', async () => {
    const s = shop();
    const link = (await s.start(new Request('https://shop.example/checkout/hosted', { method: 'POST' }))).headers.get('location')!;
    const otpPage = await payOnPage(link, testCards.otp);
    const sessionId = new URL(link).pathname.split('/').pop()!;
    const page = await s.back(new Request(`${RETURN}?payment-session-id=${sessionId}`));
    expect(await page.text()).toBe('status: pending');
    expect(s.settled).toEqual([]);
    expect(otpPage.pathname).toBe(`/v1/hosted-page/${sessionId}/otp`);
    expect((await s.back(new Request(RETURN))).status).toBe(400);
  });
});

describe('handlers.pay({ hostedPage: true }): one route for both paths', () => {
  const payRoute = (hostedPage: boolean) =>
    gateway.handlers.pay({
      hostedPage,
      payment: () => ({ intent: 'auth', amount: EUR('7.50'), returnUrl: RETURN, order: 'cart-9' }),
    });
  const press = (route: ReturnType<typeof payRoute>, body: unknown) =>
    route(
      new Request('https://shop.example/pay', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );

  it('begins the attempt, sends the payer to the page, and the return writes its outcome to the store', async () => {
    const route = payRoute(true);
    const attempt = crypto.randomUUID();
    const answer = await (await press(route, { attempt, hostedPage: true })).json();
    expect(answer).toEqual({ status: 'hosted', hostedPageLink: expect.stringMatching(`^${sandbox.url}/v1/hosted-page/`) });
    const asked = await route(new Request(`https://shop.example/pay?attempt=${attempt}`));
    expect(await asked.json()).toEqual({ status: 'checking' });

    const back = await payOnPage(answer.hostedPageLink, testCards.approved);
    const seen: [string, string | undefined][] = [];
    const returned = gateway.handlers.hostedReturn({
      onPayment: (payment, kept) => void seen.push([payment.state, kept?.order]),
      render: (s) => new Response(s.status),
    });
    expect(await (await returned(new Request(back))).text()).toBe('approved');
    expect(seen).toEqual([['authorised', 'cart-9']]);
    const after = await (await route(new Request(`https://shop.example/pay?attempt=${attempt}`))).json();
    expect(after).toMatchObject({ status: 'approved', state: 'authorised', referenceId: expect.stringMatching(/^PAY-/) });
    // The same attempt posted again charges nothing and makes no second session.
    expect(await (await press(route, { attempt, hostedPage: true })).json()).toMatchObject({ status: 'approved' });
  });

  it('proves none of an attempt whose payer never paid, once the page has expired', async () => {
    const route = payRoute(true);
    const attempt = crypto.randomUUID();
    expect(await (await press(route, { attempt, hostedPage: true })).json()).toMatchObject({ status: 'hosted' });
    const ask = async () => (await route(new Request(`https://shop.example/pay?attempt=${attempt}`))).json();
    expect(await ask()).toEqual({ status: 'checking' });
    sandbox.advanceClock(3600_000);
    expect(await ask()).toEqual({ status: 'none' });
    expect((await gateway.store.attempts.get(attempt))?.status).toBe('void');
  });

  it('refuses the hosted page on a route that does not offer it, and begins nothing', async () => {
    const attempt = crypto.randomUUID();
    const res = await press(payRoute(false), { attempt, hostedPage: true });
    expect(res.status).toBe(400);
    expect(await gateway.store.attempts.get(attempt)).toBeUndefined();
  });
});
