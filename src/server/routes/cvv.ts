/**
 * `handlers.cvv()`: a saved card's CVV, posted by its frame (`form.postCvv`), used by the merchant's
 * `handle`. Only the card frames' origin may post here, and the answer is the payment as the page may
 * see it (a `CvvAnswer`): no rendering of the CVV can reach the page.
 */
import type { CvvAnswer } from '../../protocol/wire';
import type { Payment } from '../../schemas';
import { asName, asResultCode } from '../../shared/http-answer';
import { configError, PayframeError } from '../../shared/errors';
import { isExactOrigin, isLoopbackOrigin } from '../../shared/url';
import { isCvv } from '../calls/payment-input';
import { readPayment, toPending } from '../readers';
import { foldAnyDigits } from '../scrub';
import { guarded, type Handler, jsonResponse, readJsonObject, refusalResponse } from './respond';

export interface CvvOptions {
  /** Where the card frames are served; default: the gateway's origin (the frames' default home). */
  frameOrigin?: string;
  /**
   * Uses the CVV, in `payments.create({ card: { savedCardId, cvv }, ... })`, and answers the payment it
   * made: `body` is what the page passed to `postCvv({ body })` (a ticket of its checkout, say: the
   * frame sends no cookie). A `PayframeError` it throws answers as the other handlers' refusals do.
   */
  handle: (input: { cvv: string; body: Record<string, unknown>; request: Request }) => Payment | Promise<Payment>;
}

/**
 * Whether `text` holds the CVV in any rendering a program makes of it by accident: its digits (apart, or
 * run together with other characters), as a number that lost its leading zeros, or in hex.
 */
export function rendersCvv(text: string, cvv: string): boolean {
  const n = Number(cvv);
  const forms = [cvv, String(n), n.toString(16)].filter((f) => f.length >= 2);
  // Other scripts' digits (Arabic-Indic, Devanagari, fullwidth, ...) read as the same CVV: folded first.
  text = foldAnyDigits(text);
  const squeezed = text.toLowerCase().replace(/[^\da-z]/g, '');
  return forms.some((f) => text.includes(f) || squeezed.includes(f));
}

/** The payment `handle` made, as the page may see it. */
function cvvAnswer(payment: Payment): CvvAnswer {
  const outcome = readPayment(payment);
  const { status, referenceId, state, code } = outcome;
  return { status, referenceId, state, code, ...(status === 'pending' ? { pending: toPending(payment) } : {}) };
}

/** `https://host[:port]` (or http), and nothing more: what an Origin header holds. */
const isOrigin = (text: unknown): text is string => isExactOrigin(text) && /^https?:/.test(text);

/** `handlers.cvv()`: a saved card's CVV, posted by its frame, used by the merchant's `handle`. */
export function cvvHandler(gatewayOrigin: string, options: CvvOptions, report: (status: number, error: unknown) => void): Handler {
  let { frameOrigin } = options ?? ({} as CvvOptions);
  const { handle } = options ?? ({} as CvvOptions);
  if (typeof handle !== 'function') throw configError('handle must be a function ({ cvv, body, request }) => answer', 'cvv');
  // The sandbox serves the frames beside its API; the live service does not: its origin would refuse every post.
  if (frameOrigin === undefined && !isLoopbackOrigin(gatewayOrigin)) {
    throw configError('frameOrigin is required with a live gateway: the origin of your frame host (the frameUrl the page mounts)', 'cvv');
  }
  frameOrigin ??= gatewayOrigin;
  if (!isOrigin(frameOrigin)) throw configError('frameOrigin must be an origin such as https://frames.example', 'cvv');
  const cors = { 'access-control-allow-origin': frameOrigin, vary: 'origin' };
  const forbidden = (message: string) => refusalResponse(403, { code: 'forbidden', message }, { vary: 'origin' });
  const post = guarded(
    'POST',
    async (request) => {
      const { cvv, ...rest } = await readJsonObject(request);
      if (!isCvv(cvv)) throw new PayframeError('invalid_request', 'cvv must be 3 or 4 digits');
      let payment: Payment;
      try {
        payment = await handle({ cvv, body: rest, request });
      } catch (error) {
        // The merchant's words, or the service's, may quote what they were sent: said only without the CVV.
        if (error instanceof PayframeError && rendersCvv(error.message, cvv)) {
          throw new PayframeError(error.code, 'the payment was refused', {
            status: error.status,
            reason: asName(error.reason),
            resultCode: asResultCode(error.resultCode),
          });
        }
        throw error;
      }
      let answer: CvvAnswer;
      try {
        answer = cvvAnswer(payment);
      } catch (error) {
        if (error instanceof PayframeError) throw error;
        throw new PayframeError('server_error', 'cvv: handle must answer the payment it made (payments.create)');
      }
      return jsonResponse(200, answer, cors);
    },
    report,
    cors,
  );
  return async (request) => {
    // A browser names the page's origin; only the card frames may post a CVV here (and read the answer).
    if (request.headers.get('origin') !== frameOrigin) return forbidden('only the card frames may post a security code here');
    if (request.method !== 'OPTIONS') return post(request);
    const headers = (request.headers.get('access-control-request-headers') ?? '')
      .toLowerCase()
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    const ok =
      request.headers.get('access-control-request-method') === 'POST' && headers.every((h) => h === 'content-type' || h === 'accept');
    if (!ok) return forbidden('only a JSON POST is allowed here');
    return new Response(null, {
      status: 204,
      headers: {
        ...cors,
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'content-type',
        'access-control-max-age': '600',
      },
    });
  };
}
