/**
 * `postCvv`'s checks and its job, loaded at the first `postCvv()`: a chunk of its own in the ESM build
 * (few checkouts pay a saved card again), inline in the script-tag bundles.
 */
import { deadline } from '../../shared/deadline';
import { PayframeError, requestError } from '../../shared/errors';
import { isTimeout } from '../../shared/call';
import { plainCopy } from '../../shared/plain';
import { MAX_POST_BODY, postTarget } from '../../protocol';
import type { Ask } from '../../protocol/ask';
import type { CvvAnswer } from '../../protocol/wire';
import { atPay } from '../pending/warm';
import type { PostCvvOptions } from './types';

/**
 * Checks the options before anything is sent (the URL on the page's own origin, the body plain JSON
 * without a `cvv`), throwing a PayframeError, then answers what sends the post.
 */
export function cvvPost(options: PostCvvOptions, pageOrigin: string, defaultMs: number, ask: Ask): () => Promise<CvvAnswer> {
  const { url, body = {}, signal, timeoutMs = defaultMs } = options ?? {};
  const target = postTarget(url, pageOrigin, location.href);
  if (!target) throw new PayframeError('unsafe_url', `postCvv: url must be on this page's origin, ${pageOrigin}`);
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw requestError('signal must be an AbortSignal', 'postCvv');
  if (!isTimeout(timeoutMs)) throw requestError('timeoutMs must be a positive number of milliseconds', 'postCvv');
  const data: Record<string, unknown> = plainCopy(body, () => requestError('body must be plain JSON data', 'postCvv'));
  if (data === null || typeof data !== 'object' || Array.isArray(data) || 'cvv' in data || JSON.stringify(data).length > MAX_POST_BODY) {
    throw requestError(`body must be a JSON object without cvv, of at most ${MAX_POST_BODY} characters`, 'postCvv');
  }
  return async () => {
    // The post is the payment: its pending code loads beside it.
    atPay.warm?.();
    const d = deadline(timeoutMs, 'postCvv', signal);
    try {
      return await d.race(ask({ t: 'post', url: target.href, body: data, timeoutMs }, d.signal));
    } finally {
      d.done();
    }
  };
}
