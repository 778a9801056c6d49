/**
 * One small guard per message, written by hand (valibot would add kilobytes to the merchant's page).
 * Each reader answers the typed message, or undefined for anything else: another channel, an unknown
 * type, a malformed payload. Receivers check `event.origin` and `event.source` before calling them.
 */
import { isTimeout } from '../shared/call';
import type { Config, FieldState, Sibling, ToFrame, ToPage } from './messages';
import { type Data, isNum, isObj, isOpt, isStr, isText, isTokenText, MAX_TEXT } from './is';
import { type FieldName, isFieldEvent, isFieldName, isLocale, isLocaleTag } from '../shared/names';

const isBool = (x: unknown) => typeof x === 'boolean';
const isFieldState = (s: unknown): s is FieldState =>
  isObj(s) && ['isEmpty', 'isValid', 'isPotentiallyValid', 'isFocused'].every((k) => typeof s[k] === 'boolean') && isOpt(s.reason, isStr);
const isBrand = (b: unknown) =>
  b === null || (isObj(b) && isStr(b.id) && isStr(b.name) && isObj(b.code) && isStr(b.code.name) && isNum(b.code.size));
/** A JSON object, as a CVV post's body. */
const isRecord = (x: unknown): x is Data => isObj(x) && !Array.isArray(x);

/**
 * Frame → page. A job's answer (`result`, `posted`, the `failure` of a job) is read here by its type and
 * id alone: its job reads the rest when it takes it (job-answer.ts). A `failure` of id 0 is the frame's
 * refusal of its config, read here: its error's message.
 */
export function readToPage(m: unknown, ch: string): ToPage | undefined {
  if (!isObj(m) || m.ch !== ch) return undefined;
  const ok =
    (m.t === 'ready' && isText(m.label)) ||
    (m.t === 'state' && isOpt(m.n, isNum) && isOpt(m.event, isFieldEvent) && isFieldState(m.state) && isOpt(m.brand, isBrand)) ||
    (m.t === 'resize' && isNum(m.height)) ||
    (['result', 'posted', 'failure'].includes(m.t) &&
      isNum(m.id) &&
      (m.id > 0 || (m.t === 'failure' && isObj(m.error) && isStr(m.error.message))));
  return ok ? (m as ToPage) : undefined;
}

/**
 * A frame's config, however it came, in the frame's URL or posted by the page: the one reader of both.
 * Answers the config, or what is wrong with it (for `mountFields: …`; `field` is the frame's), which the
 * frame refuses with `invalid_config` (frame/start.ts), and the port drops in a posted one. What the
 * merchant's texts, styles, fonts and brands mean, and which brand ids exist, the frame checks as it applies them.
 */
export function readConfig(m: unknown, ch: string, field?: FieldName): Config | string {
  const ours =
    isObj(m) &&
    m.ch === ch &&
    m.t === 'config' &&
    Array.isArray(m.fields) &&
    m.fields.every(isFieldName) &&
    isOpt(m.scheme, (s) => isStr(s, 40)) &&
    // Text, as the page checks at once (mountFields): which brand ids exist, the frame checks.
    isOpt(m.brand, (b) => isStr(b, 32)) &&
    isOpt(m.disabled, isBool) &&
    // A shipped locale, or one its texts give (the frame checks them): what the page checks at once (mountFields, setLocale).
    (isLocale(m.locale) || (isLocaleTag(m.locale) && isObj(m.texts) && Object.hasOwn(m.texts, m.locale)));
  if (!ours) return 'the frame cannot read its config (another payframe version?)';
  if (!isOpt(m.label, isText) || !isOpt(m.placeholder, isText))
    return `fields.${field}: placeholder and label must be text of at most ${MAX_TEXT} characters`;
  if (!isOpt(m.brandMark, isBool)) return 'brandMark must be true or false';
  return m as Config;
}

/** Page → frame. A config is read by `readConfig`. */
export function readToFrame(m: unknown, ch: string): ToFrame | undefined {
  if (!isObj(m) || m.ch !== ch) return undefined;
  const ok =
    (m.t === 'config' && typeof readConfig(m, ch) !== 'string') ||
    m.t === 'focus' ||
    m.t === 'clear' ||
    m.t === 'touch' ||
    (m.t === 'placeholder' && isText(m.text)) ||
    (m.t === 'tokenize' &&
      isNum(m.id) &&
      isTokenText(m.token) &&
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
