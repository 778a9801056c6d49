/**
 * A PayframeError's crossing of the frame boundary, both ways: the frame posts it as data (structured
 * clone: `cause` stays behind), the page makes it a PayframeError again with the same code and fields.
 */
import { asEventId, asName, asResultCode } from '../shared/http-answer';
import { ERROR_INFO, PayframeError, pick } from '../shared/errors';
import type { ErrorInfo } from './messages';

/**
 * What a frame posts for an error it caught: its own when it is a PayframeError, else a generic
 * `server_error` (a bug of the frame says nothing of the card). Never its `body`: what a service or
 * the merchant's route answered stays in the frame; its reason, result code and event id only in their shapes.
 */
export function toErrorInfo(caught: unknown): ErrorInfo {
  const e = caught instanceof PayframeError ? caught : new PayframeError('server_error', 'the card frame failed unexpectedly');
  // What a service or the merchant's route named crosses only in its shape (shared/http-answer.ts): no card number fits.
  return {
    ...pick(e, ['code', 'message', ...ERROR_INFO]),
    reason: asName(e.reason),
    resultCode: asResultCode(e.resultCode),
    eventId: asEventId(e.eventId),
  } as ErrorInfo;
}

/** The error a frame posted, as the page's PayframeError: its known fields alone. */
export const fromErrorInfo = (info: ErrorInfo): PayframeError => new PayframeError(info.code, info.message, pick(info, ERROR_INFO));
