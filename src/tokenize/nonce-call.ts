import { readText } from '../shared/body';
import { PayframeError } from '../shared/errors';
import { codeForStatus, refusal, RETRY_STATUSES, retryDelayMs } from '../shared/refusal';
import type { CheckedCard } from './card';
import { readNonce, type TokenizeResult } from './read';

export interface NonceCall {
  /** The gateway's base URL, ending in a slash. */
  base: string;
  merchantId: string;
  token: string;
  card: CheckedCard;
  /** Attempts after the first, after a network error or a 5xx. */
  retries: number;
  /** A Deadline's signal. */
  signal: AbortSignal;
}

/** What is read of an answer: a nonce or an error body is a few hundred bytes, a proxy's error page a few KB. */
export const MAX_ANSWER_BYTES = 64 * 1024;

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/**
 * The one "card details → nonce" call, used by `client.tokenize` on the page and by the hosted
 * form's frame: plain fetch, retries with a short backoff, the service's refusals as typed errors.
 */
export async function requestNonce({ base, merchantId, token, card, retries, signal }: NonceCall): Promise<TokenizeResult> {
  const path = `v1/merchants/${encodeURIComponent(merchantId)}/credit-card-nonce`;
  const what = `POST /${path}`;
  for (let attempt = 0; ; attempt++) {
    let response: Response | undefined;
    let text: string | undefined;
    let cause: unknown;
    try {
      response = await fetch(base + path, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(card.body),
        signal,
        credentials: 'omit',
        cache: 'no-store',
        referrerPolicy: 'no-referrer',
      });
      text = await readText(response, MAX_ANSWER_BYTES);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      // fetch's own TypeError holds no request and no header, so it is safe to keep as the cause.
      [response, cause] = [undefined, error];
    }
    if ((!response || RETRY_STATUSES.includes(response.status)) && attempt < retries) {
      // A nonce request is safe to repeat: a spare nonce expires unused.
      await pause(retryDelayMs(attempt + 1), signal);
      continue;
    }
    if (!response) throw new PayframeError('network', `${what}: the connection failed`, { cause });
    const { status } = response;
    if (text === undefined) {
      const code = response.ok ? 'invalid_response' : codeForStatus(status);
      throw new PayframeError(code, `${what}: HTTP ${status}, an answer larger than ${MAX_ANSWER_BYTES} bytes (not read)`, { status });
    }
    let json: unknown = text;
    try {
      json = JSON.parse(text);
    } catch {
      // kept as text: an HTML error page is shown as what it is
    }
    if (!response.ok) throw refusal(status, json, what);
    const result = readNonce(json, card.brand, card.name);
    if (!result) throw new PayframeError('invalid_response', `${what}: the answer is not a nonce`, { status, body: json });
    return result;
  }
}
