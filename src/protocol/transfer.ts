/**
 * A PayframeError's crossing of the frame boundary, both ways: the frame posts it as data (structured
 * clone: `cause` stays behind), the page makes it a PayframeError again with the same code and fields.
 */
import { PayframeError } from '../shared/errors';
import type { ErrorInfo } from './messages';

/**
 * What a frame posts for an error it caught: its own when it is a PayframeError, else a generic
 * `server_error` (a bug of the frame says nothing of the card). Only a CVV post's refusal carries
 * `body`: the merchant server's own answer, already checked for the CVV.
 */
export function toErrorInfo(caught: unknown, withBody: boolean): ErrorInfo {
  const e = caught instanceof PayframeError ? caught : new PayframeError('server_error', 'the card frame failed unexpectedly');
  const body = withBody && e.body !== undefined ? { body: e.body } : {};
  return { code: e.code, message: e.message, status: e.status, resultCode: e.resultCode, reason: e.reason, eventId: e.eventId, fields: e.fields, ...body };
}

/** The error a frame posted, as the page's PayframeError. */
export const fromErrorInfo = (e: ErrorInfo): PayframeError => new PayframeError(e.code, e.message, e);
