/**
 * One small guard per message, written by hand (valibot would add kilobytes to the merchant's page).
 * Each reader answers the typed message, or undefined for anything else: another channel, an unknown
 * type, a malformed payload. Receivers check `event.origin` and `event.source` before calling them.
 */
import { isTimeout } from '../shared/call';
import type { FieldState, Sibling, ToFrame, ToPage } from './messages';
import { isFieldEvent, isFieldName, isLocale, isLocaleTag } from './names';

type Data = Record<string, any>;

const isObj = (x: unknown): x is Data => typeof x === 'object' && x !== null;
const isStr = (x: unknown, max = 4096): x is string => typeof x === 'string' && x.length <= max;
const isNum = (x: unknown): x is number => Number.isFinite(x) && (x as number) >= 0;
const isOpt = (x: unknown, is: (y: unknown) => boolean) => x === undefined || is(x);
const isBool = (x: unknown) => typeof x === 'boolean';
const isFieldState = (s: unknown): s is FieldState =>
  isObj(s) && ['isEmpty', 'isValid', 'isPotentiallyValid', 'isFocused'].every((k) => typeof s[k] === 'boolean') && isOpt(s.reason, isStr);
const isBrand = (b: unknown) =>
  b === null || (isObj(b) && isStr(b.id) && isStr(b.name) && isObj(b.code) && isStr(b.code.name) && isNum(b.code.size));
const isResult = (r: unknown) =>
  isObj(r) &&
  isStr(r.nonce) &&
  isOpt(r.brand, isStr) &&
  isStr(r.last4) &&
  isNum(r.expireMonth) &&
  isNum(r.expireYear) &&
  isStr(r.expiresAt) &&
  isOpt(r.name, isStr);
const isError = (e: unknown) =>
  isObj(e) &&
  isStr(e.code) &&
  isStr(e.message) &&
  isOpt(e.status, isNum) &&
  isOpt(e.resultCode, isStr) &&
  isOpt(e.reason, isStr) &&
  isOpt(e.eventId, isStr) &&
  isOpt(e.fields, (f) => Array.isArray(f) && f.every(isFieldName)) &&
  isOpt(e.reasons, isObj);
/** A JSON object, as a CVV post's body. */
const isRecord = (x: unknown): x is Data => isObj(x) && !Array.isArray(x);
/** A client token goes into an Authorization header: visible ASCII only. */
const isToken = (x: unknown) => isStr(x) && /^[\x21-\x7e]+$/.test(x);

/** Frame → page. */
export function readToPage(m: unknown, ch: string): ToPage | undefined {
  if (!isObj(m) || m.ch !== ch) return undefined;
  const ok =
    (m.t === 'ready' && isStr(m.label, 200)) ||
    (m.t === 'state' && isOpt(m.n, isNum) && isOpt(m.event, isFieldEvent) && isFieldState(m.state) && isOpt(m.brand, isBrand)) ||
    (m.t === 'resize' && isNum(m.height)) ||
    (m.t === 'result' && isNum(m.id) && isResult(m.result)) ||
    (m.t === 'posted' && isNum(m.id) && 'body' in m) ||
    (m.t === 'failure' && isNum(m.id) && isError(m.error));
  return ok ? (m as ToPage) : undefined;
}

/** Page → frame. */
export function readToFrame(m: unknown, ch: string): ToFrame | undefined {
  if (!isObj(m) || m.ch !== ch) return undefined;
  const ok =
    (m.t === 'config' &&
      // A shipped locale, or one its texts give (the frame checks them): what the page checks before it sends.
      (isLocale(m.locale) || (isLocaleTag(m.locale) && isObj(m.texts) && Object.hasOwn(m.texts, m.locale))) &&
      isOpt(m.label, (l) => isStr(l, 200)) &&
      isOpt(m.placeholder, (p) => isStr(p, 200)) &&
      Array.isArray(m.fields) &&
      m.fields.every(isFieldName) &&
      isOpt(m.scheme, (s) => isStr(s, 40)) &&
      isOpt(m.brand, (b) => isStr(b, 32)) &&
      isOpt(m.brandMark, isBool) &&
      isOpt(m.disabled, isBool)) ||
    m.t === 'focus' ||
    m.t === 'clear' ||
    m.t === 'touch' ||
    (m.t === 'placeholder' && isStr(m.text, 200)) ||
    (m.t === 'tokenize' &&
      isNum(m.id) &&
      isToken(m.token) &&
      isTimeout(m.timeoutMs) &&
      Number.isInteger(m.retries) &&
      m.retries >= 0 &&
      m.retries <= 10 &&
      isObj(m.seen) &&
      Object.values(m.seen).every((n) => isOpt(n, isNum))) ||
    (m.t === 'post' && isNum(m.id) && isStr(m.url, 2048) && isRecord(m.body) && isTimeout(m.timeoutMs)) ||
    (m.t === 'cancel' && isNum(m.id));
  return ok ? (m as ToFrame) : undefined;
}

/** Frame ↔ frame. */
export function readSibling(m: unknown, ch: string): Sibling | undefined {
  if (!isObj(m) || m.ch !== ch) return undefined;
  const ok =
    m.t === 'ask' ||
    (m.t === 'value' && isFieldName(m.field) && isStr(m.value, 256) && isNum(m.n)) ||
    (m.t === 'sizes' && Array.isArray(m.sizes) && m.sizes.length > 0 && m.sizes.every((n) => Number.isInteger(n) && n > 0 && n < 9));
  return ok ? (m as Sibling) : undefined;
}
