import { describe, expect, it } from 'vitest';
import { testCards, type TestCard } from '../setup/sandbox';
import { call, expectRefusal, m, useSandbox } from './helpers';

const box = useSandbox();
const RETURN = 'https://shop.example/return?order=42';

function hostedBody(extra: Record<string, unknown> = {}) {
  const { transaction, ...rest } = extra as { transaction?: Record<string, unknown> };
  return {
    intent: 'sale',
    payer: { payment_type: 'CC', payer_info: { email: 'ada@example.com', name: 'Ada Lovelace' } },
    transaction: { amount: { currency: 'EUR', total: '25.00' }, return_url: RETURN, ...transaction },
    ...rest,
  };
}

async function createSession(extra: Record<string, unknown> = {}) {
  const res = await call(box.sb, 'POST', `${m(box.sb)}/hosted-payment`, hostedBody(extra));
  expect(res.status).toBe(200);
  const link = new URL(res.body.hosted_page_link);
  return { ...res.body, link, id: link.pathname.split('/').pop()! } as { invoice_number: string; link: URL; id: string };
}

const session = (id: string) => call(box.sb, 'GET', `${m(box.sb)}/hosted-payment/session/${id}`);

/** Posts a form as the payer's browser does; answers the status, the Location and the page. */
async function post(url: URL | string, fields: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: res.status, location: res.headers.get('location'), html: await res.text(), headers: res.headers };
}

const typed = (card: TestCard) => ({
  number: card.number.replace(/(\d{4})(?=\d)/g, '$1 '),
  expiry: `${String(card.expireMonth).padStart(2, '0')} / ${String(card.expireYear).slice(2)}`,
  cvv: card.cvv,
  name: 'Ada Lovelace',
});

describe('hosted payment page: the merchant calls', () => {
  it('creates a pending session whose link is a page of the sandbox', async () => {
    const s = await createSession({ transaction: { invoice_number: 'ORDER-7' } });
    expect(s.invoice_number).toBe('ORDER-7');
    expect(s.link.origin).toBe(box.sb.url);
    expect(s.id).toMatch(/^[0-9a-f]{32}$/);
    expect((await session(s.id)).body).toEqual({ session_id: s.id, session_state: 'pending' });
    const other = await createSession();
    expect(other.invoice_number).toMatch(/^HPP-[0-9A-F]{16}$/);
  });

  it('refuses a body without return_url, with a card, without credentials or with a zero total', async () => {
    const url = `${m(box.sb)}/hosted-payment`;
    expectRefusal(await call(box.sb, 'POST', url, hostedBody({ transaction: { return_url: undefined } })), 400, 'INVALID_REQUEST');
    const withCard = hostedBody();
    (withCard.payer as Record<string, unknown>)['funding_instrument'] = { credit_card_nonce: { nonce: crypto.randomUUID() } };
    expectRefusal(await call(box.sb, 'POST', url, withCard), 400, 'INVALID_REQUEST');
    expectRefusal(await call(box.sb, 'POST', url, hostedBody(), { auth: null }), 401, 'UNAUTHORIZED');
    const zero = hostedBody({ transaction: { amount: { currency: 'EUR', total: '0.00' } } });
    expectRefusal(await call(box.sb, 'POST', url, zero), 400, 'INVALID_AMOUNT');
    expectRefusal(await session('0'.repeat(32)), 404, 'NOT_FOUND');
  });

  it('expires an unused session an hour after its creation, on the sandbox clock', async () => {
    const s = await createSession();
    box.sb.advanceClock(3600_000 - 1000);
    expect((await session(s.id)).body.session_state).toBe('pending');
    box.sb.advanceClock(1000);
    expect((await session(s.id)).body.session_state).toBe('expired');
    const page = await fetch(s.link);
    expect(page.status).toBe(409);
    expect(await page.text()).toContain('This payment page has expired.');
    const pay = await post(s.link, typed(testCards.approved));
    expect(pay.status).toBe(409);
    expect((await session(s.id)).body).toEqual({ session_id: s.id, session_state: 'expired' });
  });
});

describe('hosted payment page: the payer', () => {
  it('serves a page without script under a strict policy, with autofill names and labels', async () => {
    const s = await createSession();
    const res = await fetch(s.link);
    const html = await res.text();
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("form-action 'self' https://shop.example");
    expect(csp).not.toContain('unsafe-inline');
    expect(html).not.toMatch(/<script|style=/);
    for (const [id, auto] of [
      ['number', 'cc-number'],
      ['expiry', 'cc-exp'],
      ['cvv', 'cc-csc'],
      ['name', 'cc-name'],
    ]) {
      expect(html).toContain(`<label for="${id}">`);
      expect(html).toMatch(new RegExp(`id="${id}" name="${id}" [^>]*autocomplete="${auto}"`));
    }
    const css = await fetch(new URL('/v1/hosted-page/assets/style.css', s.link));
    expect(css.headers.get('content-type')).toContain('text/css');
  });

  it('speaks Arabic, right to left, by ?lang=ar or the browser language', async () => {
    const s = await createSession();
    const byQuery = await (await fetch(`${s.link.href}?lang=ar`)).text();
    expect(byQuery).toContain('<html lang="ar" dir="rtl">');
    expect(byQuery).toContain('رقم البطاقة');
    const byHeader = await (await fetch(s.link, { headers: { 'accept-language': 'ar-OM,ar;q=0.9,en;q=0.5' } })).text();
    expect(byHeader).toContain('dir="rtl"');
  });
});

describe('hosted payment page: paying', () => {
  it('pays with the approved card and returns the payer; the payment is like any other', async () => {
    const s = await createSession({ transaction: { invoice_number: 'ORDER-8' }, custom: { order: '8' } });
    const res = await post(s.link, typed(testCards.approved));
    expect(res.status).toBe(303);
    const back = new URL(res.location!);
    expect(back.origin + back.pathname).toBe('https://shop.example/return');
    expect(back.searchParams.get('order')).toBe('42');
    expect(back.searchParams.get('payment-session-id')).toBe(s.id);
    const read = (await session(s.id)).body;
    expect(read).toMatchObject({ session_id: s.id, session_state: 'used' });
    const payment = await call(box.sb, 'GET', `${m(box.sb)}/payment/${read.reference_id}`);
    expect(payment.body).toMatchObject({
      state: 'captured',
      custom: { order: '8' },
      transaction: { invoice_number: 'ORDER-8', amount: { total: '25.00' } },
    });
    expect(payment.body.payer.funding_instrument.credit_card).toMatchObject({ last4: '1111', name: 'Ada Lovelace', expire_year: 2034 });
    const refund = await call(box.sb, 'POST', `${m(box.sb)}/payment/${read.reference_id}/refund`, {});
    expect(refund.body.state).toBe('refunded');
    expect((await post(s.link, typed(testCards.approved))).status).toBe(409);
  });

  it('keeps no card number or security code in the request log', async () => {
    const s = await createSession();
    await post(s.link, { ...typed(testCards.approved), cvv: '7391' });
    const log = JSON.stringify(box.sb.requests().filter((r) => r.path.startsWith('/v1/hosted-page/')));
    expect(log).toContain('/v1/hosted-page/');
    expect(log.replace(/\D/g, '')).not.toContain('4111111111111111');
    expect(log).not.toContain('7391');
  });

  it('shows the wrong fields again, keeps neither number nor code, and charges nothing', async () => {
    const s = await createSession();
    const res = await post(s.link, { number: '4111 1111 1111 1112', expiry: '13 / 30', cvv: '12', name: ' ' });
    expect(res.status).toBe(400);
    expect(res.html).toContain('role="alert"');
    for (const id of ['number', 'expiry', 'cvv', 'name']) expect(res.html).toMatch(new RegExp(`id="${id}" [^>]*aria-invalid="true"`));
    expect(res.html).not.toContain('4111');
    expect((await session(s.id)).body.session_state).toBe('pending');
  });

  it('refuses a card number in the name or expiry, never writes it back, and charges nothing', async () => {
    const s = await createSession();
    const pasted = '4111 1111 1111 1111';
    const res = await post(s.link, { ...typed(testCards.approved), name: pasted, expiry: '4111111111111111', cvv: '12' });
    expect(res.status).toBe(400);
    expect(res.html).toMatch(/id="name" [^>]*aria-invalid="true"/);
    expect(res.html.replace(/\D/g, '')).not.toContain('4111111111111111');
    // The other fields right: a digit in the name alone is refused too, so no number becomes a card's name.
    const only = await post(s.link, { ...typed(testCards.approved), name: pasted });
    expect(only.status).toBe(400);
    expect(only.html).toMatch(/id="name" [^>]*aria-invalid="true"/);
    expect((await session(s.id)).body.session_state).toBe('pending');
  });

  it('takes the OTP on the page for the domestic card: processing until then, used after', async () => {
    const s = await createSession({ intent: 'auth' });
    const res = await post(s.link, typed(testCards.otp));
    expect(res.location).toBe(`/v1/hosted-page/${s.id}/otp?lang=en`);
    expect((await session(s.id)).body.session_state).toBe('processing');
    const otpUrl = new URL(res.location!, s.link);
    expect(await (await fetch(otpUrl)).text()).toContain('autocomplete="one-time-code"');
    expect((await post(otpUrl, { otp: '12' })).status).toBe(400);
    const done = await post(otpUrl, { otp: testCards.otp.otp });
    expect(new URL(done.location!).searchParams.get('payment-session-id')).toBe(s.id);
    const read = (await session(s.id)).body;
    expect(read.session_state).toBe('used');
    expect((await call(box.sb, 'GET', `${m(box.sb)}/payment/${read.reference_id}`)).body.state).toBe('authorised');
    expect((await call(box.sb, 'POST', `${m(box.sb)}/payment/${read.reference_id}/capture`, {})).body.state).toBe('captured');
  });

  it("sends a redirect-only card to the bank's page, which returns with the page's session", async () => {
    const s = await createSession();
    const res = await post(s.link, typed(testCards.redirectOnly));
    const bank = new URL(res.location!, s.link);
    expect(bank.pathname).toMatch(/^\/v1\/redirect\/[0-9a-f]{32}$/);
    expect((await session(s.id)).body.session_state).toBe('processing');
    const done = await post(bank, { otp: testCards.redirectOnly.otp });
    expect(new URL(done.location!).searchParams.get('payment-session-id')).toBe(s.id);
    const read = (await session(s.id)).body;
    expect(read.session_state).toBe('used');
    expect((await call(box.sb, 'GET', `${m(box.sb)}/payment/${read.reference_id}`)).body.state).toBe('captured');
  });

  it('returns the payer of a declined card too: the session is used, its payment declined', async () => {
    const s = await createSession();
    const res = await post(s.link, typed(testCards.declined));
    expect(new URL(res.location!).searchParams.get('payment-session-id')).toBe(s.id);
    const read = (await session(s.id)).body;
    expect(read.session_state).toBe('used');
    const payment = (await call(box.sb, 'GET', `${m(box.sb)}/payment/${read.reference_id}`)).body;
    expect(payment).toMatchObject({ state: 'declined', result: { code: '1005' } });
  });

  it("hides another merchant's session and answers a page that does not exist", async () => {
    expect((await fetch(new URL(`/v1/hosted-page/${'a'.repeat(32)}`, box.sb.url))).status).toBe(404);
    expectRefusal(await call(box.sb, 'GET', `/v1/merchants/nobody/hosted-payment/session/${'a'.repeat(32)}`), 404, 'NOT_FOUND');
  });
});
