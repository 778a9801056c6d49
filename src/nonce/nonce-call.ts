import { answerBody, readAnswer } from '../shared/http-answer';
import { MAX_NONCE_ANSWER } from '../shared/body';
import { withRetries } from '../shared/retry';
import { PayframeError } from '../shared/errors';
import type { CheckedCard } from './card';
import type { TokenizeResult } from '../protocol/messages';
import { readNonce } from './read';

export interface NonceCall {
  /** The gateway's base URL, ending in a slash. */
  base: string;
  merchantId: string;
  token: string;
  card: CheckedCard;
  /** Attempts after the first, after a network error or a 5xx: a spare nonce expires unused. */
  retries: number;
  /** A Deadline's signal. */
  signal: AbortSignal;
}

/**
 * The one "card details → nonce" call, used by `client.tokenize` on the page and by the hosted
 * form's frame: plain fetch, retries with a short backoff, the service's refusals as typed errors.
 */
export async function requestNonce({ base, merchantId, token, card, retries, signal }: NonceCall): Promise<TokenizeResult> {
  const path = `v1/merchants/${encodeURIComponent(merchantId)}/credit-card-nonce`;
  const what = `POST /${path}`;
  const send = async () =>
    readAnswer(
      await fetch(base + path, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(card.body),
        signal,
        credentials: 'omit',
        // No cache mode: a POST is never cached anyway, and Chromium skips its preflight cache for a
        // `no-store` request, which would make every tokenisation two requests across origins.
        referrerPolicy: 'no-referrer',
        // The card goes to the gateway or nowhere: a redirect is the answer, never followed with the card.
        redirect: 'manual',
      }),
      MAX_NONCE_ANSWER,
    );
  let answer;
  try {
    answer = await withRetries(retries, signal, send);
  } catch (cause) {
    // fetch's own TypeError holds no request and no header, so it is safe to keep as the cause.
    throw cause instanceof PayframeError ? cause : new PayframeError('network', `${what}: the connection failed`, { cause });
  }
  const body = answerBody(answer, what, MAX_NONCE_ANSWER, base + path);
  const result = readNonce(body, card.brand, card.name);
  if (!result) throw new PayframeError('invalid_response', `${what}: the answer is not a nonce`, { status: answer.status, body });
  return result;
}
