/**
 * What `handlePending` does once loaded: checks every option, then follows the redirect or shows the
 * OTP form and reads the merchant's answers. A chunk of its own in the ESM build (see pending.ts).
 */
import { foldDigits } from '../../card/digits';
import { readErrorAnswer, readOtpOutcome, redirectOf } from '../../protocol/merchant-answers';
import { textsFor } from '../../protocol/texts';
import { type OtpOutcome, type PendingPayment, REFERENCE_ID, SESSION_ID } from '../../protocol/wire';
import { type ErrorCode, PayframeError } from '../../shared/errors';
import { elementOf } from '../dom';
import { type OtpFormState, renderOtpForm, TEXTS } from './otp-form';
import type { HandlePendingOptions, PendingOutcome } from './types';

/** The URL to navigate to for `redirectUrl` (its parsed form, never the raw text), or `unsafe_url`. */
function redirectTarget(redirectUrl: unknown, origin: unknown, sessionId: string): string {
  const url = redirectOf(redirectUrl, origin, sessionId);
  if (!url) throw new PayframeError('unsafe_url', "redirectUrl is not this session's /v1/redirect/ page on the gateway");
  return url.href;
}

const RETRY: ErrorCode[] = ['network', 'server_error', 'timeout', 'rate_limited'];

function check(ok: unknown, what: string): asserts ok {
  if (!ok) throw new PayframeError('invalid_config', `handlePending: ${what}`);
}

/** `handlePending` (docs/pending.md): every option is checked before anything is shown or navigated. */
export async function finishPending(pending: PendingPayment, options: HandlePendingOptions): Promise<PendingOutcome> {
  const {
    client,
    mode = 'auto',
    container,
    submitOtp,
    locale = 'en',
    texts: given,
    signal,
    navigate = (url: string) => location.assign(url),
  } = options ?? ({} as HandlePendingOptions);
  const { referenceId, sessionId, redirectUrl, otp } = pending ?? ({} as PendingPayment);
  check(['otp', 'redirect', 'auto'].includes(mode), "mode must be 'otp', 'redirect' or 'auto'");
  const texts = textsFor(TEXTS, given, locale);
  check(typeof texts !== 'string', texts as string);
  check(typeof navigate === 'function', 'navigate must be a function');
  check(typeof client?.origin === 'string', 'client must come from createClient');
  // Strings first: a regex test reads `undefined` or `['…']` as their text.
  if (typeof referenceId !== 'string' || !REFERENCE_ID.test(referenceId) || typeof sessionId !== 'string' || !SESSION_ID.test(sessionId)) {
    throw new PayframeError('invalid_request', 'pending must carry its referenceId and sessionId');
  }
  const href = mode === 'otp' ? '' : redirectTarget(redirectUrl, client.origin, sessionId);
  let place: Element | undefined;
  if (mode !== 'redirect') {
    place = elementOf(container);
    check(place, 'container must be an element, or its selector');
    check(typeof submitOtp === 'function', 'submitOtp must be a function');
  }
  if (signal?.aborted) throw aborted();

  const redirected = (): PendingOutcome => {
    navigate(href);
    return { status: 'redirected', referenceId, state: 'pending', code: '1007' };
  };
  // `otp: false` (toPending): the service offers no OTP call for this card, so a form would take a code
  // the bank asks again on its page. `otp` mode is the merchant's "the form, nothing else": it draws
  // it, as does a pending without `otp` (an older server); the service's refusal redirects in `auto`.
  if (mode === 'redirect' || (otp === false && href)) return redirected();

  active.get(place as Element)?.();
  const { form, input, show } = renderOtpForm(place as Element, locale, texts as Exclude<typeof texts, string>);
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
      const otp = foldDigits(input.value).replace(/[\s\u061c\u200b-\u200f\u2066-\u2069]/g, '');
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
      // The OTP may have been taken: the merchant's route reads the session on the next try, never posts it twice.
      if (read.code === 'outcome_unknown') return show('checking');
      if (RETRY.includes(read.code)) return show('retry');
      const expired = read.reason === 'SESSION_EXPIRED' || read.resultCode === '4098';
      finish(notSupported ? 'unsupported' : expired ? 'expired' : 'failed', () => reject(read));
    });
  });
}

const aborted = () => new PayframeError('aborted', 'handlePending was aborted');
/** The call whose form is in a container, by container. */
const active = new WeakMap<Element, () => void>();

/** The merchant's answer: `handlers.authenticate()`'s outcome, or its refusal. */
function readAnswer(answer: unknown, referenceId: string): OtpOutcome | PayframeError {
  const error = readErrorAnswer(answer);
  if (error) return new PayframeError(error.code, `the OTP was refused: ${error.message ?? error.code}`, error);
  return (
    readOtpOutcome(answer, referenceId) ??
    new PayframeError('invalid_response', "the merchant's authenticate answer is not an outcome", { body: answer })
  );
}
