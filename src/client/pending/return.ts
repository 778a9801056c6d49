import { SESSION_ID } from '../../protocol/wire';
import { PayframeError } from '../../shared/errors';
import { urlOf } from '../../shared/url-of';

/**
 * The payment session id the payer brings back from the redirect (`?payment-session-id=<id>` on the
 * merchant's `return_url`); `invalid_request` for anything that is not exactly one session id.
 */
export function readReturn(url: string | URL = location.href): { sessionId: string } {
  // Not a URL: no ids, refused below.
  const ids = urlOf(String(url))?.searchParams.getAll('payment-session-id') ?? [];
  if (ids.length !== 1 || !SESSION_ID.test(ids[0]!))
    throw new PayframeError('invalid_request', 'the return URL carries no payment session id');
  return { sessionId: ids[0]! };
}
