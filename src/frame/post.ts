/**
 * The CVV of a saved card, posted by its frame straight to the merchant's own server: the service has
 * no CVV-only nonce, and the CVV reaches it only in the server's payment call. The page's scripts never
 * see it. The frame decides where it goes (the page's origin, named in the frame's URL), not the page,
 * and what of the answer the page gets: a `CvvAnswer` rebuilt from its known fields, or a refusal's
 * code and identifiers; never the route's own text, which could carry the CVV in a form no check knows.
 */
import { readCvvAnswer, readErrorAnswer } from '../protocol/merchant-answers';
import { MAX_POST_BODY, postTarget } from '../protocol/post-target';
import type { CvvAnswer } from '../protocol/wire';
import { asName, codeForStatus, readAnswer } from '../shared/http-answer';
import { MAX_MERCHANT_ANSWER } from '../shared/body';
import { PayframeError } from '../shared/errors';

export interface CvvPost {
  url: string;
  /** The page's origin, from the frame's URL: the only place the CVV may go. */
  origin: string;
  /** The gateway's origin: a pending payment's redirect must be on it. */
  gateway: string;
  body: Record<string, unknown>;
  cvv: string;
  signal: AbortSignal;
}

/** The reason a refusal may carry to the page: a name (`SESSION_EXPIRED`, shared/http-answer.ts), with no room for a digit of the CVV. */
const reasonOf = (reason: string | undefined) => (reason && !/\d/.test(reason) ? asName(reason) : undefined);

/**
 * Whether the answer's free-form fields (its reference id, a pending payment's redirect path and query)
 * hold the CVV as a token of its own, as an echo of the body would put it (`cvv_042`, `?cvv=042`). The
 * result code is one of the service's four-digit codes, and ids glued to letters or digits are not
 * echoes: an honest answer is never refused.
 */
function quotes({ referenceId, pending }: CvvAnswer, cvv: string): boolean {
  const redirect = pending ? new URL(pending.redirectUrl) : undefined;
  return new RegExp(`(?<![A-Za-z0-9])${cvv}(?![A-Za-z0-9])`).test(
    `${referenceId} ${redirect ? redirect.pathname + redirect.search + redirect.hash : ''}`,
  );
}

/**
 * POSTs `{ ...body, cvv }` as JSON, without cookies or referrer, and answers the route's `CvvAnswer`.
 * The request needs a CORS preflight (it is JSON), so only a route that allows the frame origin ever
 * receives it; a redirect is refused rather than followed with the CVV.
 */
export async function postCvv({ url, origin, gateway, body, cvv, signal }: CvvPost): Promise<CvvAnswer> {
  const target = postTarget(url, origin);
  if (!target) throw new PayframeError('unsafe_url', `postCvv: url must be on the page's origin, ${origin}`);
  if ('cvv' in body || JSON.stringify(body).length > MAX_POST_BODY) {
    throw new PayframeError('invalid_request', `postCvv: body must be a JSON object of at most ${MAX_POST_BODY} characters, without a cvv`);
  }
  const where = target.pathname;
  let response: Response;
  try {
    response = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ ...body, cvv }),
      credentials: 'omit',
      mode: 'cors',
      referrerPolicy: 'no-referrer',
      redirect: 'error',
      // No cache mode: a POST is never cached, and a `no-store` request skips the preflight cache.
      signal,
    });
  } catch (cause) {
    if (signal.aborted) throw signal.reason;
    throw new PayframeError('network', `postCvv: ${where} did not answer, redirected, or refused the frames' origin (CORS)`, {
      cause,
    });
  }
  const { status, ok } = response;
  const { text } = await readAnswer(response, MAX_MERCHANT_ANSWER).catch(() => {
    if (signal.aborted) throw signal.reason;
    throw new PayframeError('network', `postCvv: the answer of ${where} was cut off`, { status });
  });
  let json: unknown;
  try {
    json = JSON.parse(text ?? ''); // over the cap: refused as not JSON
  } catch {
    throw new PayframeError(
      'invalid_response',
      `postCvv: ${where} answered HTTP ${status} without JSON of at most ${MAX_MERCHANT_ANSWER} bytes`,
      { status },
    );
  }
  if (ok) {
    const answer = readCvvAnswer(json, new URL(gateway).origin);
    if (!answer)
      throw new PayframeError(
        'invalid_response',
        `postCvv: ${where} answered HTTP ${status} without a CvvAnswer (as handlers.cvv() answers); nothing of it is passed on`,
        { status },
      );
    if (quotes(answer, cvv))
      throw new PayframeError(
        'invalid_response',
        `postCvv: ${where} answered HTTP ${status} with the security code in it; nothing of it is passed on`,
        { status },
      );
    return answer;
  }
  // A refusal in payframe's shape keeps its code and reason; its text, and anything with a digit, stays in the frame.
  const error = readErrorAnswer(json, codeForStatus(status));
  const code = error?.code ?? codeForStatus(status);
  const reason = reasonOf(error?.reason);
  throw new PayframeError(code, `postCvv: ${where} refused the payment (HTTP ${status}, ${reason ?? code})`, { status, reason });
}
