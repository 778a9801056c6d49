import { describe, expect, it } from 'vitest';
import { startSandbox, testCards, type SandboxHandle } from '../setup/sandbox';
import { basic, call, expectRefusal, m, pay, useSandbox } from './helpers';

const box = useSandbox();

// Every pending payment has a redirect_url (only the domestic card's has an authenticate_url too).
function sessionOf(payment: { result: { redirect_url: string } }): string {
  return payment.result.redirect_url.split('/').pop()!;
}
const authenticate = (sb: SandboxHandle, payment: any, otp: string, auth = basic(sb)) =>
  call(sb, 'POST', `/v1/authenticate/${sessionOf(payment)}`, { reference_id: payment.reference_id, otp }, { auth });

describe('pending payments', () => {
  it('comes back pending with redirect and authenticate URLs on the sandbox origin', async () => {
    const p = await pay(box.sb, testCards.otp, { intent: 'sale' });
    expect(p).toMatchObject({ state: 'pending', result: { code: '1007', description: 'Redirect' } });
    const sid = sessionOf(p);
    expect(sid).toMatch(/^[0-9a-f]{32}$/);
    expect(p.result.redirect_url).toBe(`${box.sb.url}/v1/redirect/${sid}`);
    expect(p.result.authenticate_url).toBe(`${box.sb.url}/v1/authenticate/${sid}`);
    expect(Date.parse(p.delayed_capture_time)).toBeGreaterThan(Date.parse(p.create_time));
    expect((await call(box.sb, 'GET', `${m(box.sb)}/payment/session/${sid}`)).body.state).toBe('pending');
  });

  it('captures a sale with the right OTP, once', async () => {
    const p = await pay(box.sb, testCards.otp, { intent: 'sale' });
    const res = await authenticate(box.sb, p, '111111');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: p.id, state: 'captured', result: { code: '0000' } });
    expect(res.body.result.actions.authorization).toMatchObject({ id: p.id, state: 'authorised', code: '0000', message: 'Approved' });
    expect(res.body.result.actions.capture).toMatchObject({ state: 'captured', code: '0000' });
    expect(res.body.result.redirect_url).toBeUndefined();
    expect(res.body.payer.funding_instrument.credit_card.id).toMatch(/^CARD-/);
    expectRefusal(await authenticate(box.sb, p, '111111'), 409, 'SESSION_EXPIRED', '4098');
    const session = await call(box.sb, 'GET', `${m(box.sb)}/payment/session/${sessionOf(p)}`);
    expect(session.body).toMatchObject({ state: 'captured', result: { actions: { capture: { state: 'captured' } } } });
    expect((await call(box.sb, 'POST', `${m(box.sb)}/payment/${p.id}/refund`)).status).toBe(200);
  });

  it('keeps the capture of an authenticated sale as a record readable by the id the actions give', async () => {
    const p = await pay(box.sb, testCards.otp, { intent: 'sale' });
    const { capture } = (await authenticate(box.sb, p, '111111')).body.result.actions;
    const record = await call(box.sb, 'GET', `${m(box.sb)}/payment/${capture.id}`);
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({
      id: capture.id,
      reference_id: p.id,
      state: 'captured',
      transaction: { amount: { currency: 'EUR', total: '10.00' } },
    });
    // It is a capture record, not a payment: a refund goes to the payment, and the refusal says so.
    const wrong = await call(box.sb, 'POST', `${m(box.sb)}/payment/${capture.id}/refund`);
    expectRefusal(wrong, 409, 'INVALID_STATE');
    expect(wrong.body.message).toContain(p.id);
  });

  it('authorises an auth payment with the right OTP, listing only the authorisation', async () => {
    const p = await pay(box.sb, testCards.otp);
    const res = await authenticate(box.sb, p, '111111');
    expect(res.body.state).toBe('authorised');
    expect(Object.keys(res.body.result.actions)).toEqual(['authorization']);
    expect((await call(box.sb, 'POST', `${m(box.sb)}/payment/${p.id}/capture`)).status).toBe(200);
  });

  it('declines on a wrong OTP and uses up the session', async () => {
    const p = await pay(box.sb, testCards.otp, { intent: 'sale' });
    const res = await authenticate(box.sb, p, '222222');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: 'declined', result: { code: '1202' } });
    expectRefusal(await authenticate(box.sb, p, '111111'), 409, 'SESSION_EXPIRED');
    expect((await call(box.sb, 'GET', `${m(box.sb)}/payment/${p.id}`)).body.state).toBe('declined');
  });

  it('refuses bad calls without using up the session', async () => {
    const p = await pay(box.sb, testCards.otp, { intent: 'sale' });
    const url = `/v1/authenticate/${sessionOf(p)}`;
    expectRefusal(await authenticate(box.sb, p, '111111', basic(box.sb, 'wrong')), 401, 'UNAUTHORIZED');
    expectRefusal(await call(box.sb, 'POST', url, { reference_id: 'PAY-OTHER', otp: '111111' }), 400, 'INVALID_REQUEST');
    expectRefusal(await call(box.sb, 'POST', url, { reference_id: p.id }), 400, 'INVALID_REQUEST');
    expectRefusal(
      await call(box.sb, 'POST', '/v1/authenticate/0123456789abcdef0123456789abcdef', { reference_id: p.id, otp: '111111' }),
      404,
      'NOT_FOUND',
    );
    expectRefusal(await call(box.sb, 'POST', `${m(box.sb)}/payment/${p.id}/capture`), 409, 'INVALID_STATE');
    expectRefusal(await call(box.sb, 'POST', `${m(box.sb)}/payment/${p.id}/void`), 409, 'VOID_NOT_ALLOWED');
    expect((await call(box.sb, 'GET', `${m(box.sb)}/payment/${p.id}`)).body.state).toBe('pending');
    expect((await authenticate(box.sb, p, '111111')).body.state).toBe('captured');
  });

  it('has exactly one winner among racing authenticate calls', async () => {
    const p = await pay(box.sb, testCards.otp, { intent: 'sale' });
    const answers = await Promise.all(Array.from({ length: 10 }, () => authenticate(box.sb, p, '111111')));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409 && a.body.name === 'SESSION_EXPIRED')).toHaveLength(9);
  });

  it('offers the OTP call only for the domestic card: the redirect-only card has no authenticate_url', async () => {
    const domestic = await pay(box.sb, testCards.otp, { intent: 'sale' });
    const visa = await pay(box.sb, testCards.redirectOnly, { intent: 'sale' });
    expect(visa).toMatchObject({
      state: 'pending',
      result: { code: '1007', redirect_url: `${box.sb.url}/v1/redirect/${sessionOf(visa)}` },
    });
    expect(Object.keys(visa.result)).not.toContain('authenticate_url');
    // The same on the payment's and the session's retrieval.
    for (const path of [`payment/${visa.id}`, `payment/session/${sessionOf(visa)}`]) {
      const { body } = await call(box.sb, 'GET', `${m(box.sb)}/${path}`);
      expect(body.result.redirect_url, path).toBe(visa.result.redirect_url);
      expect(Object.keys(body.result), path).not.toContain('authenticate_url');
    }
    for (const path of [`payment/${domestic.id}`, `payment/session/${sessionOf(domestic)}`]) {
      const { body } = await call(box.sb, 'GET', `${m(box.sb)}/${path}`);
      expect(body.result, path).toMatchObject({
        redirect_url: domestic.result.redirect_url,
        authenticate_url: domestic.result.authenticate_url,
      });
    }
  });

  it('refuses the endpoint for a redirect-only card called anyway; the session stays usable', async () => {
    const p = await pay(box.sb, testCards.redirectOnly, { intent: 'sale' });
    expect(p.state).toBe('pending');
    expectRefusal(await authenticate(box.sb, p, '111111'), 409, 'AUTHENTICATE_NOT_SUPPORTED', '4099');
    const page = await fetch(p.result.redirect_url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('name="otp"');
  });

  it('declines a pending payment after fifteen minutes (1203)', async () => {
    const sb = await startSandbox();
    try {
      const p = await pay(sb, testCards.otp, { intent: 'sale' });
      sb.advanceClock(15 * 60_000);
      expect((await call(sb, 'GET', `${m(sb)}/payment/${p.id}`)).body).toMatchObject({ state: 'declined', result: { code: '1203' } });
      expectRefusal(await authenticate(sb, p, '111111'), 409, 'SESSION_EXPIRED');
    } finally {
      await sb.close();
    }
  });
});

describe('redirect page', () => {
  const form = (url: string, otp: string) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ otp }),
      redirect: 'manual',
    });

  it('shows a self-contained OTP form under a content security policy', async () => {
    const p = await pay(box.sb, testCards.otp, { intent: 'sale', transaction: { return_url: 'https://shop.example/done?order=7' } });
    const res = await fetch(p.result.redirect_url);
    const html = await res.text();
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self' https://shop.example");
    // The bank's page is framed by no site: a page around it could dress it up to take the payer's OTP.
    expect(csp).toContain("frame-ancestors 'none'");
    expect(html).toContain(`<form method="post" action="/v1/redirect/${sessionOf(p)}">`);
    // Nothing loaded from anywhere: its icon is empty data (else Firefox asks for /favicon.ico, which the policy blocks).
    expect(html).toContain('<link rel="icon" href="data:,">');
    expect(csp).toContain('img-src data:;');
    expect(html.replace('<link rel="icon" href="data:,">', '')).not.toMatch(/<script|src=|href=/);
    expect(html).not.toContain(testCards.otp.number);
  });

  it('takes the OTP and sends the payer to return_url with the session id', async () => {
    const p = await pay(box.sb, testCards.redirectOnly, {
      intent: 'sale',
      transaction: { return_url: 'https://shop.example/done?order=7' },
    });
    const res = await form(p.result.redirect_url, '111111');
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe('https://shop.example/done');
    expect(location.searchParams.get('order')).toBe('7');
    expect(location.searchParams.get('payment-session-id')).toBe(sessionOf(p));
    const session = await call(box.sb, 'GET', `${m(box.sb)}/payment/session/${sessionOf(p)}`);
    expect(session.body).toMatchObject({ state: 'captured', result: { code: '0000' } });
    expect(session.body.result.actions.capture.state).toBe('captured');
    const second = await form(p.result.redirect_url, '111111');
    expect(second.status).toBe(409);
  });

  it('shows the outcome when there is no return_url', async () => {
    const p = await pay(box.sb, testCards.otp, { intent: 'sale' });
    const res = await form(p.result.redirect_url, '000000');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-state="declined"');
    expect(html).toContain('1202');
    const again = await fetch(p.result.redirect_url);
    expect(await again.text()).toContain('data-state="declined"');
  });

  it('refuses a malformed OTP as the authenticate endpoint does, and the session stays usable', async () => {
    const p = await pay(box.sb, testCards.otp, { intent: 'sale', transaction: { return_url: 'https://shop.example/done' } });
    for (const otp of ['abc', '11111l', '123', '123456789', '١١١١١١', '111 111']) {
      const res = await form(p.result.redirect_url, otp);
      expect(res.status, otp).toBe(400);
      const html = await res.text();
      expect(html).toContain('The one-time password is 4 to 8 digits.');
      expect(html).toContain('aria-invalid="true"');
    }
    expect((await call(box.sb, 'GET', `${m(box.sb)}/payment/${p.id}`)).body.state).toBe('pending');
    const res = await form(p.result.redirect_url, '111111');
    expect(res.status).toBe(303);
    expect((await call(box.sb, 'GET', `${m(box.sb)}/payment/${p.id}`)).body.state).toBe('captured');
  });

  it('refuses a JSON post, an empty OTP and an unknown session without using the session', async () => {
    const p = await pay(box.sb, testCards.otp, { intent: 'sale' });
    const json = await fetch(p.result.redirect_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"otp":"111111"}',
    });
    expect(json.status).toBe(415);
    expect((await form(p.result.redirect_url, '')).status).toBe(400);
    expect((await fetch(`${box.sb.url}/v1/redirect/${'0'.repeat(32)}`)).status).toBe(404);
    expect((await authenticate(box.sb, p, '111111')).body.state).toBe('captured');
  });
});
