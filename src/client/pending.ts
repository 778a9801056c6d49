import { toAsciiDigits } from '../card/digits';
import { type ErrorCode, isErrorCode, PayframeError } from '../errors';
import { isSafeScheme } from '../url';
import type { OtpSubmission, PaymentState, PendingPayment } from '../schemas';
import { type Locale, type OtpFormState, renderOtpForm } from './otp-form';

export type { Locale, OtpFormState, OtpSubmission, PendingPayment };

/**
 * How a pending payment is finished: `otp` in the page's own form, `redirect` on the issuer's page,
 * `auto` the form first and the redirect when the card's acquirer does not take the OTP call.
 */
export type PendingMode = 'otp' | 'redirect' | 'auto';

export interface HandlePendingOptions {
  /** From `createClient`: the redirect is followed only on `client.origin`. */
  client: { readonly origin: string };
  /** Default `auto`. */
  mode?: PendingMode;
  /** Where the OTP form renders (`otp` and `auto`); its content is replaced. A selector or an element. */
  container?: string | Element;
  /**
   * Posts the OTP to the merchant's server (which calls `handlers.authenticate()`) and answers its
   * JSON. Called once per submit, with the call's `signal`.
   */
  submitOtp?: (body: OtpSubmission, init: { signal?: AbortSignal }) => Promise<unknown>;
  /** Default `en`; `ar` renders the form right to left. */
  locale?: Locale;
  /** Stops waiting: the form is removed and the call rejects with `aborted`. */
  signal?: AbortSignal;
  /** Default `url => window.location.assign(url)`. */
  navigate?: (url: string) => void;
}

export type PendingOutcome =
  | { status: 'approved'; referenceId: string; state: Exclude<PaymentState, 'pending' | 'declined'>; code: string; text?: string }
  | { status: 'declined'; referenceId: string; state: 'declined'; code: string; text?: string }
  /** The page is navigating to the issuer's page; the outcome arrives on the return page. */
  | { status: 'redirected'; referenceId: string; state: 'pending'; code: '1007'; text?: undefined };

const SESSION_ID = /^[0-9a-f]{32}$/i;
const REDIRECT_PATH = /^\/v1\/redirect\/([0-9a-f]{32})$/i;

/**
 * The URL to navigate to for `redirectUrl`, or `unsafe_url`: only `https:` (plain `http:` on loopback
 * hosts, as the client allows) on exactly the client's origin, path `/v1/redirect/<sessionId>` of this
 * very payment, no userinfo. The parsed form is returned, never the raw text.
 */
export function redirectTarget(redirectUrl: unknown, origin: unknown, sessionId: string): string {
  let url: URL | undefined;
  try {
    url = new URL(redirectUrl as string);
  } catch {
    // not a URL: refused below
  }
  const safe = typeof redirectUrl === 'string' && url && url.origin === origin && !url.username && !url.password
    && isSafeScheme(url)
    && REDIRECT_PATH.exec(url.pathname)?.[1]?.toLowerCase() === sessionId.toLowerCase();
  if (!safe) throw new PayframeError('unsafe_url', "redirectUrl is not this session's /v1/redirect/ page on the client's gateway origin");
  return url!.href;
}

/**
 * The payment session id the payer brings back from the redirect (`?payment-session-id=<id>` on the
 * merchant's `return_url`); `invalid_request` for anything that is not exactly one session id.
 */
export function readReturn(url: string | URL = location.href): { sessionId: string } {
  let ids: string[] = [];
  try {
    ids = new URL(String(url)).searchParams.getAll('payment-session-id');
  } catch {
    // not a URL: refused below
  }
  if (ids.length !== 1 || !SESSION_ID.test(ids[0]!)) throw new PayframeError('invalid_request', 'the return URL carries no payment session id');
  return { sessionId: ids[0]! };
}

const RETRY: ErrorCode[] = ['network', 'server_error', 'timeout', 'rate_limited'];

function check(ok: unknown, what: string): asserts ok {
  if (!ok) throw new PayframeError('invalid_config', `handlePending: ${what}`);
}

/**
 * Finishes a pending payment in the browser. Every option is checked before anything is shown or
 * navigated. Settles when the payment is finished (approved, declined) or handed to the issuer's page
 * (redirected); rejects when it cannot be finished here. A failure worth retrying (the merchant's
 * server or the network) is shown in the form, which the payer can submit again.
 */
export async function handlePending(pending: PendingPayment, options: HandlePendingOptions): Promise<PendingOutcome> {
  const { client, mode = 'auto', container, submitOtp, locale = 'en', signal, navigate = (url: string) => location.assign(url) } =
    options ?? ({} as HandlePendingOptions);
  const { referenceId, sessionId, redirectUrl } = pending ?? ({} as PendingPayment);
  check(['otp', 'redirect', 'auto'].includes(mode), "mode must be 'otp', 'redirect' or 'auto'");
  check(locale === 'en' || locale === 'ar', "locale must be 'en' or 'ar'");
  check(typeof navigate === 'function', 'navigate must be a function');
  check(typeof client?.origin === 'string', 'client must come from createClient');
  if (!/^[\w.-]{1,128}$/.test(referenceId) || !SESSION_ID.test(sessionId)) {
    throw new PayframeError('invalid_request', 'pending must carry the referenceId and sessionId of a pending payment');
  }
  const href = mode === 'otp' ? '' : redirectTarget(redirectUrl, client.origin, sessionId);
  let place: unknown;
  if (mode !== 'redirect') {
    try {
      place = typeof container === 'string' ? document.querySelector(container) : container;
    } catch {
      // an invalid selector: refused below
    }
    check(place instanceof Element, 'container must be an element, or its selector');
    check(typeof submitOtp === 'function', 'submitOtp must be a function');
  }
  if (signal?.aborted) throw aborted();

  const redirected = (): PendingOutcome => {
    navigate(href);
    return { status: 'redirected', referenceId, state: 'pending', code: '1007' };
  };
  if (mode === 'redirect') return redirected();

  active.get(place as Element)?.();
  const { form, input, show } = renderOtpForm(place as Element, locale);
  return new Promise<PendingOutcome>((resolve, reject) => {
    let busy = false;
    let done = false;
    const stop = () => {
      done = true;
      form.remove();
      reject(aborted());
    };
    const finish = (state: OtpFormState, settle: () => void) => {
      done = true;
      signal?.removeEventListener('abort', stop);
      active.delete(place as Element);
      show(state);
      settle();
    };
    signal?.addEventListener('abort', stop);
    // A new form in the same container (the payer pays again) ends this call: its form is gone.
    active.set(place as Element, stop);

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (busy || done) return;
      // Spaces, and the direction and zero-width marks an OTP pasted from an Arabic SMS may carry.
      const otp = toAsciiDigits(input.value).replace(/[\s\u061c\u200b-\u200f\u2066-\u2069]/g, '');
      if (!/^\d{4,8}$/.test(otp)) return show('invalid');
      busy = true;
      show('busy');
      let read: ReturnType<typeof readAnswer>;
      try {
        read = readAnswer(await submitOtp!({ referenceId, sessionId, otp }, { signal }), referenceId);
      } catch (thrown) {
        read = thrown instanceof PayframeError ? thrown : new PayframeError('network', 'submitOtp failed', { cause: thrown });
      }
      busy = false;
      if (done) return;
      if (!(read instanceof PayframeError)) return finish(read.status, () => resolve(read));
      const notSupported = read.reason === 'AUTHENTICATE_NOT_SUPPORTED' || read.resultCode === '4099';
      if (notSupported && href) return finish('redirecting', () => resolve(redirected()));
      if (RETRY.includes(read.code)) return show('retry');
      const expired = read.reason === 'SESSION_EXPIRED' || read.resultCode === '4098';
      finish(notSupported ? 'unsupported' : expired ? 'expired' : 'failed', () => reject(read));
    });
  });
}

const aborted = () => new PayframeError('aborted', 'handlePending was aborted');
/** The call whose form is in a container, by container. */
const active = new WeakMap<Element, () => void>();
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The merchant's answer: `handlers.authenticate()`'s outcome, or its `{ error: { code, message, reason?, resultCode? } }`. */
function readAnswer(answer: unknown, referenceId: string): Extract<PendingOutcome, { status: 'approved' | 'declined' }> | PayframeError {
  const { status, state, code, error } = (answer ?? {}) as Record<string, any>;
  if (error && typeof error === 'object') {
    const known = isErrorCode(error.code) ? error.code : 'server_error';
    return new PayframeError(known, `the OTP was refused: ${text(error.message)}`, { reason: text(error.reason), resultCode: text(error.resultCode) });
  }
  const approved = status === 'approved' && (state === 'authorised' || state === 'captured');
  if ((approved || (status === 'declined' && state === 'declined')) && (answer as any).referenceId === referenceId && text(code)) {
    return { status, referenceId, state, code, text: text((answer as any).text) };
  }
  return new PayframeError('invalid_response', "the merchant's authenticate answer is not an outcome", { body: answer });
}
