/**
 * A frame's answer to the page's job, its payload read whole when the job takes it (ask.ts): a nonce's
 * result, a CVV post's answer, or an error as data. The page's port reads such a message by its type and
 * id alone (guards.ts), so that these checks load with the job's code, not with the page.
 */
import { type Data, isNum, isObj, isOpt, isStr } from './is';
import { isFieldName } from '../shared/names';
import type { ToPage } from './messages';

/** A PayframeError as data (`ErrorInfo`), as a frame posts it. */
export const isErrorInfo = (e: unknown) =>
  isObj(e) &&
  isStr(e.code) &&
  isStr(e.message) &&
  isOpt(e.status, isNum) &&
  isOpt(e.resultCode, isStr) &&
  isOpt(e.reason, isStr) &&
  isOpt(e.eventId, isStr) &&
  isOpt(e.fields, (f) => Array.isArray(f) && f.every(isFieldName)) &&
  isOpt(e.reasons, isObj);

/** Whether a job's answer carries what its type promises. */
export function isAnswer(m: Data): m is Extract<ToPage, { t: 'result' | 'posted' | 'failure' }> {
  const r = m.result;
  return (
    (m.t === 'result' &&
      isObj(r) &&
      isStr(r.nonce) &&
      isOpt(r.brand, isStr) &&
      isStr(r.last4) &&
      isNum(r.expireMonth) &&
      isNum(r.expireYear) &&
      isStr(r.expiresAt) &&
      isOpt(r.name, isStr)) ||
    (m.t === 'posted' && 'body' in m) ||
    (m.t === 'failure' && isErrorInfo(m.error))
  );
}
