// @vitest-environment happy-dom
// handlePending and readReturn on their own: the URL rule, the OTP form's markup and states, and every
// answer the merchant's server can give. The real flows run in Chromium (e2e/pending.spec.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient, handlePending, type HandlePendingOptions, type PendingPayment, readReturn } from '../../src';
import { TEXTS } from '../../src/client/pending/otp-form';
import { PayframeError } from '../../src/shared/errors';
import { rejection } from './helpers';

const GATEWAY = 'https://gw.test:8443';
const SESSION = '0123456789abcdef0123456789abcdef';
const OTHER_SESSION = 'fedcba9876543210fedcba9876543210';
const client = createClient({ merchantId: 'm-1', baseUrl: GATEWAY, authorization: 'token' });
const pending = (redirectUrl = `${GATEWAY}/v1/redirect/${SESSION}`) => ({ referenceId: 'PAY-1', sessionId: SESSION, redirectUrl });

const approved = { status: 'approved', referenceId: 'PAY-1', state: 'captured', code: '0000', text: 'Approved' };
const refused = (code: string, reason?: string, resultCode?: string) => ({
  error: { code, message: `refused: ${reason}`, reason, resultCode },
});

/** A pending payment in otp mode, once its form shows (handlePending loads its code first). */
async function setup(options: Partial<HandlePendingOptions> = {}, answers: unknown[] = [approved], given: PendingPayment = pending()) {
  document.body.replaceChildren();
  const container = document.createElement('div');
  container.id = 'otp';
  container.append('merchant content');
  document.body.append(container);
  const navigate = vi.fn<(url: string) => void>();
  const submitOtp = vi.fn(async () => {
    const next = answers.shift();
    if (next instanceof Error) throw next;
    return next;
  });
  const call = handlePending(given, { client, mode: 'otp', container: '#otp', submitOtp, navigate, ...options });
  const settled = vi.fn();
  call.then(settled, settled);
  const form = () => container.querySelector('form');
  const input = () => container.querySelector('input')!;
  const button = () => container.querySelector('button')!;
  const status = () => container.querySelector('[role="status"]')!;
  await vi.waitFor(() => expect(form()).not.toBeNull());
  const submit = async (otp: string) => {
    input().value = otp;
    form()!.requestSubmit();
    await vi.waitFor(() => expect(form()!.dataset['state']).not.toBe('busy'));
  };
  return { call, container, navigate, submitOtp, form, input, button, status, submit, settled };
}

afterEach(() => document.body.replaceChildren());

describe('the redirect URL rule', () => {
  const redirect = (url: unknown, from = client) => {
    const navigate = vi.fn();
    return { navigate, call: handlePending({ ...pending(), redirectUrl: url as string }, { client: from, mode: 'redirect', navigate }) };
  };

  it('navigates to the parsed URL on exactly the client origin, path /v1/redirect/<this session>', async () => {
    for (const url of [
      `${GATEWAY}/v1/redirect/${SESSION}`,
      `${GATEWAY}/v1/redirect/${SESSION.toUpperCase()}?lang=ar`,
      `HTTPS://GW.TEST:8443/v1/redirect/${SESSION}`,
    ]) {
      const { navigate, call } = redirect(url);
      expect(await call).toEqual({ status: 'redirected', referenceId: 'PAY-1', state: 'pending', code: '1007' });
      expect(navigate).toHaveBeenCalledExactlyOnceWith(new URL(url).href);
    }
  });

  it('allows plain http only where the client does: on a loopback gateway', async () => {
    for (const base of ['http://127.0.0.1:8080', 'http://localhost:8080', 'http://[::1]:8080']) {
      const local = createClient({ merchantId: 'm-1', baseUrl: base, authorization: 'token' });
      const { navigate, call } = redirect(`${base}/v1/redirect/${SESSION}`, local);
      expect((await call).status).toBe('redirected');
      expect(navigate).toHaveBeenCalledWith(`${base}/v1/redirect/${SESSION}`);
    }
  });

  it.each([
    ['another host', `https://evil.test/v1/redirect/${SESSION}`],
    ['another port', `https://gw.test:9443/v1/redirect/${SESSION}`],
    ['a lookalike host', `https://gw.test.evil.test:8443/v1/redirect/${SESSION}`],
    ['a lookalike with a homoglyph', `https://gw.tеst:8443/v1/redirect/${SESSION}`],
    ['the gateway as userinfo', `https://gw.test:8443@evil.test/v1/redirect/${SESSION}`],
    ['userinfo on the gateway', `https://payer:pw@gw.test:8443/v1/redirect/${SESSION}`],
    ['plain http', `http://gw.test:8443/v1/redirect/${SESSION}`],
    ['javascript:', `javascript:location='https://evil.test/v1/redirect/${SESSION}'`],
    ['data:', `data:text/html,<form action="https://evil.test">`],
    ['a relative URL', `/v1/redirect/${SESSION}`],
    ['a protocol-relative URL', `//evil.test/v1/redirect/${SESSION}`],
    ['backslashes', `https:\\\\evil.test\\v1\\redirect\\${SESSION}`],
    ['another path', `${GATEWAY}/v1/authenticate/${SESSION}`],
    ['a longer path', `${GATEWAY}/v1/redirect/${SESSION}/x`],
    ['a path under a prefix', `${GATEWAY}/evil/v1/redirect/${SESSION}`],
    ['another session', `${GATEWAY}/v1/redirect/${OTHER_SESSION}`],
    ['a punycode lookalike', `https://xn--gw-tst-4ve.test:8443/v1/redirect/${SESSION}`],
    ['a fullwidth lookalike', `https://ｇｗ.test.evil.test:8443/v1/redirect/${SESSION}`],
    ['JAVASCRIPT: in capitals', `JAVASCRIPT:location='${GATEWAY}/v1/redirect/${SESSION}'`],
    ['javascript: split by a tab', `java\tscript:location='${GATEWAY}/v1/redirect/${SESSION}'`],
    ['javascript: after spaces', `  javascript:alert(1)//${GATEWAY}/v1/redirect/${SESSION}`],
    ['blob:', `blob:${GATEWAY}/v1/redirect/${SESSION}`],
    ['vbscript:', `vbscript:msgbox(1)`],
    ['a dot-dot path', `${GATEWAY}/v1/redirect/../authenticate/${SESSION}`],
    ['an encoded dot-dot path', `${GATEWAY}/v1/redirect/%2e%2e/${SESSION}`],
    ['a non-string', { toString: (): string => `${GATEWAY}/v1/redirect/${SESSION}` }],
    ['nothing', undefined],
  ])('refuses %s with unsafe_url and no navigation', async (_, url) => {
    const { navigate, call } = redirect(url);
    const error = await rejection(call);
    expect(error).toBeInstanceOf(PayframeError);
    expect(error.code).toBe('unsafe_url');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('checks the redirect URL in auto mode before the form is shown', async () => {
    const container = document.createElement('div');
    container.append('kept');
    const error = await rejection(
      handlePending(pending(`https://evil.test/v1/redirect/${SESSION}`), { client, mode: 'auto', container, submitOtp: vi.fn() }),
    );
    expect(error.code).toBe('unsafe_url');
    expect(container.textContent).toBe('kept');
  });

  it('does not need a redirect URL in otp mode', async () => {
    const { form } = await setup({ mode: 'otp' });
    expect(form()).not.toBeNull();
  });
});

describe('readReturn', () => {
  it('reads the one payment session id of the return URL', () => {
    expect(readReturn(`https://shop.test/return?order=7&payment-session-id=${SESSION}`)).toEqual({ sessionId: SESSION });
    expect(readReturn(new URL(`https://shop.test/r?payment-session-id=${SESSION.toUpperCase()}`))).toEqual({
      sessionId: SESSION.toUpperCase(),
    });
  });

  it('reads the page URL by default', () => {
    (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(
      `https://shop.test/return?payment-session-id=${SESSION}`,
    );
    expect(readReturn()).toEqual({ sessionId: SESSION });
  });

  it.each([
    ['no id', 'https://shop.test/return'],
    ['an empty id', 'https://shop.test/return?payment-session-id='],
    ['two ids', `https://shop.test/return?payment-session-id=${SESSION}&payment-session-id=${OTHER_SESSION}`],
    ['a short id', `https://shop.test/return?payment-session-id=${SESSION.slice(1)}`],
    ['a long id', `https://shop.test/return?payment-session-id=${SESSION}0`],
    ['a path', `https://shop.test/return?payment-session-id=..%2F${SESSION}`],
    ['markup', `https://shop.test/return?payment-session-id=<img src=x onerror=alert(1)>`],
    ['the id in the fragment', `https://shop.test/return#payment-session-id=${SESSION}`],
    ['not a URL', 'return?payment-session-id=' + SESSION],
  ])('refuses %s with invalid_request', (_, url) => {
    expect(() => readReturn(url)).toThrowError(expect.objectContaining({ code: 'invalid_request' }));
  });
});

describe('the OTP form', () => {
  it('renders a labelled one-time-code input, a submit button and a status line, and focuses the input', async () => {
    const { container, form, input, button, status } = await setup();
    expect(container.children).toHaveLength(1);
    expect(container.textContent).not.toContain('merchant content');
    expect(form()!.className).toBe('payframe-otp');
    expect(form()!.dataset['state']).toBe('ready');
    expect(form()!.dir).toBe('ltr');
    const label = container.querySelector('label')!;
    expect(label.className).toBe('payframe-otp__label');
    expect(label.htmlFor).toBe(input().id);
    expect(label.textContent).toBe('One-time password');
    expect(input()).toMatchObject({
      className: 'payframe-otp__input',
      name: 'otp',
      autocomplete: 'one-time-code',
      inputMode: 'numeric',
      disabled: false,
    });
    expect(input().getAttribute('aria-describedby')).toBe(status().id);
    expect(button()).toMatchObject({ className: 'payframe-otp__submit', type: 'submit', textContent: 'Confirm' });
    expect(status().className).toBe('payframe-otp__status');
    expect(status().textContent).toBe(TEXTS.en.ready);
    expect(document.activeElement).toBe(input());
    expect(container.querySelectorAll('[style], style, script')).toHaveLength(0);
  });

  it('gives each form its own ids', async () => {
    const first = await setup();
    const firstId = first.input().id;
    const second = await setup();
    expect(second.input().id).not.toBe(firstId);
  });

  it('renders in Arabic, right to left, and reads Arabic-Indic and Persian digits as ASCII', async () => {
    const { form, submit, submitOtp, container } = await setup({ locale: 'ar' }, [approved, approved]);
    expect(form()!.dir).toBe('rtl');
    expect(form()!.lang).toBe('ar');
    expect(container.querySelector('label')!.textContent).toBe(TEXTS.ar.label);
    await submit('١١١ ١١١');
    expect(submitOtp).toHaveBeenCalledWith({ referenceId: 'PAY-1', sessionId: SESSION, otp: '111111' }, { signal: undefined });
    const persian = await setup({ locale: 'ar' });
    await persian.submit('۱۲۳۴');
    expect(persian.submitOtp).toHaveBeenCalledWith(expect.objectContaining({ otp: '1234' }), expect.anything());
  });

  it("shows the merchant's texts: one replaced, a locale of its own with its direction, markup as text", async () => {
    const own = await setup({ texts: { en: { submit: 'Pay now', ready: 'Type the code from the SMS.' } } });
    expect(own.button().textContent).toBe('Pay now');
    expect(own.status().textContent).toBe('Type the code from the SMS.');
    expect(own.container.querySelector('label')!.textContent).toBe(TEXTS.en.label);

    const fa = { ...TEXTS.ar, label: 'رمز یکبار مصرف', approved: '<b>پرداخت تأیید شد</b>' };
    const persian = await setup({ locale: 'fa', texts: { fa } });
    expect(persian.form()!.dir).toBe('rtl');
    expect(persian.form()!.lang).toBe('fa');
    expect(persian.container.querySelector('label')!.textContent).toBe('رمز یکبار مصرف');
    await persian.submit('111111');
    expect(persian.status().textContent).toBe('<b>پرداخت تأیید شد</b>');
    expect(persian.container.querySelector('b')).toBeNull();
  });

  it('reads fullwidth digits (a Japanese or Chinese keyboard) as the card fields do', async () => {
    const { submit, submitOtp } = await setup();
    await submit('１２３４５６');
    expect(submitOtp).toHaveBeenCalledWith(expect.objectContaining({ otp: '123456' }), expect.anything());
  });

  it('an approved answer that says `error: null` is approved (no error), not a refusal', async () => {
    const { submit, call } = await setup({}, [{ ...approved, error: null }]);
    await submit('123456');
    expect(await call).toMatchObject({ status: 'approved', referenceId: 'PAY-1' });
  });

  it('drops spaces and the direction marks of an OTP pasted from an Arabic SMS', async () => {
    const { submit, submitOtp } = await setup({ locale: 'ar' });
    await submit('\u200f١٢٣\u00a0٤٥٦\u200e\u061c');
    expect(submitOtp).toHaveBeenCalledWith(expect.objectContaining({ otp: '123456' }), expect.anything());
  });

  it('ends the previous call when a new form renders in the same container', async () => {
    const first = await setup();
    const second = handlePending(pending(), { client, mode: 'otp', container: first.container, submitOtp: vi.fn(async () => approved) });
    expect((await rejection(first.call)).code).toBe('aborted');
    expect(first.container.querySelectorAll('form')).toHaveLength(1);
    first.input().value = '111111';
    first.form()!.requestSubmit();
    expect((await second).status).toBe('approved');
    expect(first.submitOtp).not.toHaveBeenCalled();
  });

  it('refuses a malformed OTP in the form without calling the server', async () => {
    const { submit, submitOtp, form, input, status, settled } = await setup();
    for (const otp of ['', 'abc', '11111l', '123', '123456789', '١٢٣']) {
      await submit(otp);
      expect(form()!.dataset['state']).toBe('invalid');
      expect(input().getAttribute('aria-invalid')).toBe('true');
      expect(status().textContent).toBe(TEXTS.en.invalid);
      expect(document.activeElement).toBe(input());
    }
    expect(submitOtp).not.toHaveBeenCalled();
    expect(settled).not.toHaveBeenCalled();
  });

  it('calls submitOtp once per submit and is disabled while it waits', async () => {
    let answer!: (value: unknown) => void;
    const { form, input, button, submitOtp, call } = await setup();
    submitOtp.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    input().value = '111111';
    form()!.requestSubmit();
    form()!.requestSubmit();
    button().click();
    await vi.waitFor(() => expect(submitOtp).toHaveBeenCalledTimes(1));
    expect(form()!.dataset['state']).toBe('busy');
    expect(form()!.getAttribute('aria-busy')).toBe('true');
    expect(input().disabled && button().disabled).toBe(true);
    answer(approved);
    expect(await call).toEqual({ status: 'approved', referenceId: 'PAY-1', state: 'captured', code: '0000', text: 'Approved' });
    expect(submitOtp).toHaveBeenCalledTimes(1);
  });

  it('shows an approval, stays disabled and moves focus to the status line', async () => {
    const { submit, call, form, input, status } = await setup();
    await submit('111111');
    expect((await call).status).toBe('approved');
    expect(form()!.dataset['state']).toBe('approved');
    expect(status().textContent).toBe(TEXTS.en.approved);
    expect(input().disabled).toBe(true);
    expect(document.activeElement).toBe(status());
  });

  it('resolves a wrong OTP as declined (1202), the payer told to start again', async () => {
    const declined = {
      status: 'declined',
      referenceId: 'PAY-1',
      state: 'declined',
      code: '1202',
      text: 'Cardholder failed 3-D authentication',
    };
    const { submit, call, form, status } = await setup({}, [declined]);
    await submit('222222');
    expect(await call).toEqual(declined);
    expect(form()!.dataset['state']).toBe('declined');
    expect(status().textContent).toBe(TEXTS.en.declined);
  });

  it('rejects a used or expired session with the service reason', async () => {
    const { submit, call, form } = await setup({}, [refused('conflict', 'SESSION_EXPIRED', '4098')]);
    await submit('111111');
    const error = await rejection(call);
    expect(error).toMatchObject({ code: 'conflict', reason: 'SESSION_EXPIRED', resultCode: '4098' });
    expect(form()!.dataset['state']).toBe('expired');
  });

  it('in otp mode, rejects a card whose acquirer does not take the OTP call, and does not navigate', async () => {
    const { submit, call, form, navigate } = await setup({ mode: 'otp' }, [refused('conflict', 'AUTHENTICATE_NOT_SUPPORTED', '4099')]);
    await submit('111111');
    const error = await rejection(call);
    expect(error).toMatchObject({ code: 'conflict', reason: 'AUTHENTICATE_NOT_SUPPORTED' });
    expect(form()!.dataset['state']).toBe('unsupported');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('in auto mode, falls back to the redirect for that card', async () => {
    const { submit, call, form, navigate } = await setup({ mode: 'auto' }, [refused('conflict', 'AUTHENTICATE_NOT_SUPPORTED', '4099')]);
    await submit('111111');
    expect(await call).toEqual({ status: 'redirected', referenceId: 'PAY-1', state: 'pending', code: '1007' });
    expect(navigate).toHaveBeenCalledExactlyOnceWith(`${GATEWAY}/v1/redirect/${SESSION}`);
    expect(form()!.dataset['state']).toBe('redirecting');
  });

  it('in auto mode, shows the form when the service offers the OTP call (otp: true)', async () => {
    const { submit, call, form, navigate } = await setup({ mode: 'auto' }, [approved], { ...pending(), otp: true });
    expect(form()!.dataset['state']).toBe('ready');
    await submit('111111');
    expect(await call).toMatchObject({ status: 'approved', state: 'captured' });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('in otp mode, draws the form even for otp: false; the service refuses and nothing navigates', async () => {
    const { submit, call, form, navigate } = await setup({ mode: 'otp' }, [refused('conflict', 'AUTHENTICATE_NOT_SUPPORTED', '4099')], {
      ...pending(),
      otp: false,
    });
    await submit('111111');
    expect(await rejection(call)).toMatchObject({ code: 'conflict', reason: 'AUTHENTICATE_NOT_SUPPORTED' });
    expect(form()!.dataset['state']).toBe('unsupported');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('lets the payer try again after a network or server failure', async () => {
    // An error code the page does not know is the merchant's server failing.
    const answers = [
      new TypeError('Failed to fetch'),
      refused('server_error'),
      refused('timeout'),
      { error: { code: 'teapot' } },
      approved,
    ];
    const { submit, call, form, input, submitOtp, settled } = await setup({}, answers);
    for (let attempt = 0; attempt < 4; attempt++) {
      await submit('111111');
      expect(form()!.dataset['state']).toBe('retry');
      expect(input().disabled).toBe(false);
      expect(document.activeElement).toBe(input());
    }
    expect(settled).not.toHaveBeenCalled();
    await submit('111111');
    expect((await call).status).toBe('approved');
    expect(submitOtp).toHaveBeenCalledTimes(5);
  });

  it('tells the payer the payment is being checked when its answer was lost, never that it failed', async () => {
    const { submit, call, form, input, settled, status } = await setup({}, [refused('outcome_unknown'), approved]);
    await submit('111111');
    expect(form()!.dataset['state']).toBe('checking');
    expect(status().textContent).toMatch(/checking your payment.*do not pay again/);
    expect(input().disabled).toBe(false);
    expect(settled).not.toHaveBeenCalled();
    await submit('111111');
    expect((await call).status).toBe('approved');
  });

  it('treats a submitOtp that throws at once like a network failure', async () => {
    const { submit, form, submitOtp } = await setup();
    submitOtp.mockImplementationOnce(() => {
      throw new Error('boom');
    });
    await submit('111111');
    expect(form()!.dataset['state']).toBe('retry');
  });

  it.each([
    ['a refusal by the authorize hook', refused('forbidden'), 'forbidden'],
    ['an unknown session', refused('not_found', 'NOT_FOUND', '4040'), 'not_found'],
    ['an answer that is not an outcome', { ok: true }, 'invalid_response'],
    ['a pending answer', { ...approved, status: 'pending', state: 'pending' }, 'invalid_response'],
    ["another payment's outcome", { ...approved, referenceId: 'PAY-2' }, 'invalid_response'],
    ['nothing', undefined, 'invalid_response'],
  ])('rejects %s and shows the form as failed', async (_, answer, code) => {
    const { submit, call, form } = await setup({}, [answer]);
    await submit('111111');
    const error = await rejection(call);
    expect(error).toBeInstanceOf(PayframeError);
    expect(error.code).toBe(code);
    expect(form()!.dataset['state']).toBe('failed');
  });

  it('passes the signal to submitOtp, and on abort removes the form and ignores a late answer', async () => {
    const controller = new AbortController();
    let answer!: (value: unknown) => void;
    const { form, input, submitOtp, call, container } = await setup({ signal: controller.signal });
    submitOtp.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    input().value = '111111';
    form()!.requestSubmit();
    await vi.waitFor(() => expect(submitOtp).toHaveBeenCalledWith(expect.anything(), { signal: controller.signal }));
    controller.abort();
    expect((await rejection(call)).code).toBe('aborted');
    expect(container.children).toHaveLength(0);
    answer(approved);
  });
});

describe('a card the service takes the OTP of on its own page only (otp: false)', () => {
  const shown = () => document.querySelector('form, input');

  it('in auto mode, navigates at once: no form is drawn, nothing is posted, the container is untouched', async () => {
    const container = document.createElement('div');
    container.append('merchant content');
    document.body.append(container);
    const navigate = vi.fn<(url: string) => void>();
    const submitOtp = vi.fn();
    // Any form drawn, even for an instant, is seen.
    const drawn: Node[] = [];
    const observer = new MutationObserver((records) => records.forEach((r) => drawn.push(...r.addedNodes)));
    observer.observe(document.body, { childList: true, subtree: true });
    const outcome = await handlePending({ ...pending(), otp: false }, { client, container, submitOtp, navigate });
    await Promise.resolve();
    observer.disconnect();
    expect(outcome).toEqual({ status: 'redirected', referenceId: 'PAY-1', state: 'pending', code: '1007' });
    expect(navigate).toHaveBeenCalledExactlyOnceWith(`${GATEWAY}/v1/redirect/${SESSION}`);
    expect(drawn).toEqual([]);
    expect(shown()).toBeNull();
    expect(container.textContent).toBe('merchant content');
    expect(submitOtp).not.toHaveBeenCalled();
  });

  it('still checks every option and the redirect URL first', async () => {
    const navigate = vi.fn();
    const given = { ...pending(), otp: false };
    const noContainer = handlePending(given, { client, container: '#nowhere', submitOtp: vi.fn(), navigate });
    expect(await rejection(noContainer)).toMatchObject({ code: 'invalid_config' });
    document.body.append(Object.assign(document.createElement('div'), { id: 'otp' }));
    const unsafe = handlePending(
      { ...given, redirectUrl: `https://evil.test/v1/redirect/${SESSION}` },
      { client, container: '#otp', submitOtp: vi.fn(), navigate },
    );
    expect(await rejection(unsafe)).toMatchObject({ code: 'unsafe_url' });
    expect(navigate).not.toHaveBeenCalled();
    expect(shown()).toBeNull();
  });

  it('a pending without otp (an older server) gets the form first, and the service refusal redirects', async () => {
    const { submit, call, form, navigate } = await setup({ mode: 'auto' }, [refused('conflict', 'AUTHENTICATE_NOT_SUPPORTED', '4099')]);
    expect(form()!.dataset['state']).toBe('ready');
    expect(navigate).not.toHaveBeenCalled();
    await submit('111111');
    expect((await call).status).toBe('redirected');
    expect(navigate).toHaveBeenCalledOnce();
  });

  it('reads only false as false: any other value is an older server, the form is drawn', async () => {
    for (const otp of [undefined, null, 0, '', 'false']) {
      const stop = new AbortController();
      const { form, navigate, call } = await setup({ mode: 'auto', signal: stop.signal }, [approved], {
        ...pending(),
        otp,
      } as unknown as PendingPayment);
      expect(form(), String(otp)).not.toBeNull();
      expect(navigate).not.toHaveBeenCalled();
      stop.abort();
      expect(await rejection(call)).toMatchObject({ code: 'aborted' });
    }
  });
});

describe('handlePending refuses bad input before anything happens', () => {
  const container = () => {
    const div = document.createElement('div');
    div.append('kept');
    document.body.replaceChildren(div);
    return div;
  };

  it.each<[string, () => [unknown, Partial<HandlePendingOptions>], string]>([
    ['an unknown mode', () => [pending(), { mode: 'popup' as never }], 'invalid_config'],
    ['an unknown locale', () => [pending(), { locale: 'fr' as never }], 'invalid_config'],
    ['a locale that is an Object.prototype key', () => [pending(), { locale: 'toString' as never }], 'invalid_config'],
    ['a navigate that is not a function', () => [pending(), { navigate: 'x' as never }], 'invalid_config'],
    [
      'a locale of its own without every text',
      () => [pending(), { locale: 'fr', texts: { fr: { dir: 'ltr', label: 'Code' } } }],
      'invalid_config',
    ],
    ['a text that is not a string', () => [pending(), { texts: { en: { submit: 1 as never } } }], 'invalid_config'],
    ['a text too long', () => [pending(), { texts: { en: { ready: 'x'.repeat(201) } } }], 'invalid_config'],
    ['a text of the card fields', () => [pending(), { texts: { en: { numberInvalid: 'x' } as never } }], 'invalid_config'],
    ['no container', () => [pending(), { container: undefined }], 'invalid_config'],
    ['a selector that matches nothing', () => [pending(), { container: '#nowhere' }], 'invalid_config'],
    ['an invalid selector', () => [pending(), { container: '##' }], 'invalid_config'],
    ['no submitOtp', () => [pending(), { submitOtp: undefined }], 'invalid_config'],
    ['no client', () => [pending(), { client: undefined as never }], 'invalid_config'],
    ['no pending payment', () => [undefined, {}], 'invalid_request'],
    ['a reference id that is a path', () => [{ ...pending(), referenceId: '../PAY-1' }, {}], 'invalid_request'],
    ['a session id that is not one', () => [{ ...pending(), sessionId: 'abc' }, {}], 'invalid_request'],
    ['no reference id (a regex would read "undefined")', () => [{ ...pending(), referenceId: undefined }, {}], 'invalid_request'],
    ['a reference id that is a number', () => [{ ...pending(), referenceId: 42 }, {}], 'invalid_request'],
    ['a session id in an array (JSON can make one)', () => [{ ...pending(), sessionId: [SESSION] }, {}], 'invalid_request'],
  ])('%s', async (_, make, code) => {
    const div = container();
    const navigate = vi.fn();
    const submitOtp = vi.fn();
    const [input, options] = make();
    const error = await rejection(handlePending(input as never, { client, mode: 'auto', container: div, submitOtp, navigate, ...options }));
    expect(error).toBeInstanceOf(PayframeError);
    expect(error.code).toBe(code);
    expect(div.textContent).toBe('kept');
    expect(navigate).not.toHaveBeenCalled();
    expect(submitOtp).not.toHaveBeenCalled();
  });

  it('rejects with aborted when the signal is already aborted', async () => {
    const div = container();
    const navigate = vi.fn();
    const error = await rejection(handlePending(pending(), { client, mode: 'redirect', navigate, signal: AbortSignal.abort() }));
    expect(error.code).toBe('aborted');
    expect(navigate).not.toHaveBeenCalled();
    expect(div.textContent).toBe('kept');
  });
});
