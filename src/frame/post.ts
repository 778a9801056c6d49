/**
 * The CVV of a kept card, posted by its frame straight to the merchant's own server: the service has no
 * CVV-only nonce, and the CVV reaches it only in the server's payment call. The page's scripts never see
 * it. The frame decides where it goes (the page's origin, named in the frame's URL), not the page.
 */
import { MAX_POST_BODY, postTarget } from '../protocol/post-target';
import { readErrorAnswer } from '../protocol/answers';
import { codeForStatus, readAnswer } from '../shared/answer';
import { MAX_MERCHANT_ANSWER } from '../shared/body';
import { PayframeError } from '../shared/errors';

export interface CvvPost {
  url: string;
  /** The page's origin, from the frame's URL: the only place the CVV may go. */
  origin: string;
  body: Record<string, unknown>;
  cvv: string;
  signal: AbortSignal;
}

/**
 * POSTs `{ ...body, cvv }` as JSON, without cookies or referrer, and answers the server's JSON. The
 * request needs a CORS preflight (it is JSON), so only a route that allows the frame origin ever
 * receives it; a redirect is refused rather than followed with the CVV.
 */
export async function postCvv({ url, origin, body, cvv, signal }: CvvPost): Promise<unknown> {
  const target = postTarget(url, origin);
  if (!target) throw new PayframeError('unsafe_url', `postCvv: url must be on the page's origin, ${origin}`);
  if ('cvv' in body || JSON.stringify(body).length > MAX_POST_BODY) {
    throw new PayframeError('invalid_request', `postCvv: body must be a JSON object of at most ${MAX_POST_BODY} characters, without a cvv`);
  }
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
      cache: 'no-store',
      signal,
    });
  } catch (cause) {
    if (signal.aborted) throw signal.reason;
    throw new PayframeError('network', `postCvv: ${target.pathname} did not answer, or does not allow the card frames' origin (CORS)`, { cause });
  }
  const { status } = response;
  const { text } = await readAnswer(response, MAX_MERCHANT_ANSWER).catch(() => {
    if (signal.aborted) throw signal.reason;
    throw new PayframeError('network', `postCvv: the answer of ${target.pathname} was cut off`, { status });
  });
  let answer: unknown;
  try {
    answer = JSON.parse(text ?? ''); // over the cap: refused as not JSON
  } catch {
    throw new PayframeError('invalid_response', `postCvv: ${target.pathname} answered HTTP ${status} without JSON of at most ${MAX_MERCHANT_ANSWER} bytes`, { status });
  }
  // A route that echoes what it received would hand the CVV to the page: that answer goes nowhere.
  if (holds(answer, cvv)) throw new PayframeError('invalid_response', `postCvv: ${target.pathname} answered with the security code; the answer is not passed on`, { status });
  if (response.ok) return answer;
  // A refusal in payframe's own shape (what the server companion's handlers answer) keeps its code.
  const error = readErrorAnswer(answer, codeForStatus(status));
  throw new PayframeError(error?.code ?? codeForStatus(status), error?.message ?? `postCvv: ${target.pathname} answered HTTP ${status}`, { ...error, status, body: answer });
}

/**
 * Whether the CVV stands alone anywhere in this JSON: a number that reads the same, or a key or string
 * where its digits are a token of their own ("737", "cvv 737 was refused", a quoted request body). Digits
 * inside a longer token (13.737, ORD-1737, PAY-a737b, a uuid) are not it: an answer of a payment made
 * must not be refused for an amount or an id.
 */
function holds(value: unknown, cvv: string): boolean {
  // A dot belongs to the token only between digits (13.737), not at a sentence's end ("code: 737.").
  const token = new RegExp(`(?<![\\w-]|\\d\\.)${cvv}(?![\\w-]|\\.\\d)`);
  const seen = (v: unknown): boolean =>
    typeof v === 'number' ? String(v) === cvv
    : typeof v === 'string' ? token.test(v)
    : typeof v === 'object' && v !== null && Object.entries(v).some(([key, inner]) => token.test(key) || seen(inner));
  return seen(value);
}
