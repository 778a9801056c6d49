/**
 * What `requests()` keeps of each request: masked by shape, not by known field names, and cut to
 * size, so that a test can look at what arrived without the log ever holding card data or a
 * credential, or growing without bound. docs/sandbox.md ("What `requests()` keeps") lists these rules.
 */
import { PAN, UUID } from '../../shared/errors';
import { tooDeep } from './context';

export interface Recorded {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  at: string;
}

/** Requests kept; the oldest go first. */
export const MAX_RECORDED = 1000;
/** Characters kept of a body (and of a path), after masking. */
export const MAX_RECORDED_TEXT = 4096;

const HIDDEN = '[redacted]';

/** A UUID (a nonce) is tried first and kept whole; the sandbox's other ids never hold twelve digits in a row (`hex`). */
const PAN_OR_ID = new RegExp(`(${UUID})|${PAN}`, 'giu');
/** A credential after its scheme, anywhere in a text. */
const CREDENTIAL = /\b(Basic|Bearer|Digest|Token)\s+(?!(?:Basic|Bearer|Digest|Token)\b)[^\s,;"']+/gi;
/**
 * A CVV-like key, then `:`, `=` or `>` and its value, or white space and a value with a digit in it
 * ("cvv 123", not "the cvv is wrong"), in text that is not JSON.
 */
const CVV_IN_TEXT =
  /(\b(?:(?:card[ _-]?)?(?:(?:cvv|cvc|cvn|csc|cvd|cvp)2?(?:[ _-]?(?:code|value|number))?|cid|security[ _-]?code|verification[ _-]?(?:code|value|number))|card[ _-]?code)(?:["']?\s*[:=>]\s*["']?|\s+["']?(?=[^"'&,;}<\s]*\p{Nd})))[^"'&,;}<\s]*/giu;
/** A multipart part's header line naming the part (read on one line, so no body makes it slow). */
const PART_NAME = /^content-disposition:.*?\bname="?([^"\r\n;]*)/i;
/** A header whose name says it carries a secret. */
const SECRET_HEADER = /auth|token|secret|passw|api-?key|session|credential|signature/i;

/**
 * Whether a key (a JSON key, a form or multipart field, a header's name) names a card security code:
 * cvv, CVV2, cvc, card_cvc, cvv_number, security_code, securityCode, card_code, cardCode, card[csc], cid, x-cvv...
 */
export function isCvvKey(key: string): boolean {
  const k = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  return (
    /(?:cvv|cvc|cvn|csc|cvd|cvp)2?(?:code|value|number)?$|cardcode$/.test(k) ||
    k === 'cid' ||
    k === 'cardcid' ||
    /securitycode|verification(?:code|value|number)/.test(k)
  );
}

/** Card numbers to their last four, credentials after their scheme, CVV-like `key: value` pairs. */
export function maskText(text: string): string {
  return text
    .replace(PAN_OR_ID, (pan, id?: string) => id ?? `****${pan.slice(-4)}`)
    .replace(CREDENTIAL, (_, scheme: string) => `${scheme} ${HIDDEN}`)
    .replace(CVV_IN_TEXT, '$1***');
}

/**
 * The value of every multipart part whose name is CVV-like, whatever the body's declared type. Read line
 * by line: a `Content-Disposition` line opens a part's head, a blank line ends it, and the value runs to
 * the next line that starts with `--` (a boundary). (A single regex did this, and backtracked for seconds
 * on a 64 KiB line of `name=`s, holding every other request.)
 */
function maskParts(text: string): string {
  if (!/content-disposition:/i.test(text)) return text;
  const out: string[] = [];
  let name: string | undefined; // of the part whose head is being read
  let hiding = false;
  let hidden = ''; // the line ending before the boundary belongs to the boundary
  for (const line of text.split(/(?<=\n)/)) {
    const bare = line.replace(/\r?\n$/, '');
    if (hiding) {
      if (!bare.startsWith('--')) {
        hidden = line.slice(bare.length);
        if (out.at(-1) !== '***') out.push('***');
        continue;
      }
      out.push(hidden);
      hiding = false;
    }
    out.push(line);
    if (name !== undefined) {
      if (bare === '') {
        hiding = isCvvKey(name);
        hidden = '';
        name = undefined;
      }
    } else name = PART_NAME.exec(bare)?.[1];
  }
  if (hiding) out.push(hidden);
  return out.join('');
}

/** A parsed JSON body, masked: keys and strings as text, CVV-like keys hidden, `number` to its last four. */
export function maskValue(value: unknown): unknown {
  if (typeof value === 'string') return maskText(value);
  if (typeof value === 'number') {
    const text = String(value);
    return maskText(text) === text ? value : maskText(text);
  }
  if (Array.isArray(value)) return value.map(maskValue);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, x]) => {
        if (isCvvKey(k)) return [maskText(k), '***'];
        if (k === 'number' && (typeof x === 'string' || typeof x === 'number')) return [k, `****${String(x).slice(-4)}`];
        return [maskText(k), maskValue(x)];
      }),
    );
  }
  return value;
}

const decode = (text: string) => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
};

/** A query string or form body, masked pair by pair; pairs with nothing to hide are kept as sent. */
export function maskQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const [key, value] = eq < 0 ? [decode(pair), undefined] : [decode(pair.slice(0, eq)), decode(pair.slice(eq + 1))];
      const k = maskText(key);
      const v = value === undefined ? undefined : isCvvKey(key) ? '***' : maskText(value);
      if (k === key && v === value) return pair;
      return encodeURIComponent(k) + (v === undefined ? '' : `=${v === '***' ? v : encodeURIComponent(v)}`);
    })
    .join('&');
}

/** A path and query as received, masked. */
export function maskPath(target: string): string {
  const q = target.indexOf('?');
  const pathname = q < 0 ? target : target.slice(0, q);
  const decoded = decode(pathname);
  const path = maskText(decoded) === decoded ? pathname : maskText(decoded);
  return cut(q < 0 ? path : `${path}?${maskQuery(target.slice(q + 1))}`);
}

/** Header values, masked: credentials and CVVs by the header's name, credentials and card data by the value's shape. */
export function maskHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'authorization' || name === 'proxy-authorization') {
      const scheme = /^\s*([A-Z][\w-]*)\s+\S/i.exec(value)?.[1];
      out[name] = scheme ? `${scheme[0]!.toUpperCase()}${scheme.slice(1).toLowerCase()} ${HIDDEN}` : HIDDEN;
    } else if (name === 'cookie') {
      out[name] = value
        .split(';')
        .map((c) => `${maskText(c.split('=')[0]!.trim())}=${HIDDEN}`)
        .join('; ');
    } else out[name] = SECRET_HEADER.test(name) ? HIDDEN : isCvvKey(name) ? '***' : maskText(value);
  }
  return out;
}

/** A body as requests() keeps it: JSON masked value by value, a form pair by pair, anything else (multipart too) as text. */
export function maskBody(body: Buffer, contentType: string | undefined): unknown {
  if (body.length === 0) return undefined;
  const text = body.toString('utf8');
  let kept: unknown;
  if (/^application\/x-www-form-urlencoded\b/i.test(contentType ?? '')) kept = maskQuery(text);
  else if (tooDeep(text)) kept = '[not recorded: nested too deeply]';
  else {
    try {
      kept = maskValue(JSON.parse(text));
    } catch {
      kept = maskText(maskParts(text));
    }
  }
  const serialized = typeof kept === 'string' ? kept : JSON.stringify(kept);
  return serialized.length > MAX_RECORDED_TEXT ? cut(serialized) : kept;
}

function cut(text: string): string {
  if (text.length <= MAX_RECORDED_TEXT) return text;
  return `${text.slice(0, MAX_RECORDED_TEXT)}… [${text.length - MAX_RECORDED_TEXT} more characters not kept]`;
}

/** Adds an entry, dropping the oldest past MAX_RECORDED. */
export function keep(log: Recorded[], entry: Recorded): void {
  if (log.push(entry) > MAX_RECORDED) log.shift();
}
