/**
 * What one call sent that must never come back in one of its errors: a service that quotes the request
 * it refuses (its text, a field of its error body, a redirect's address) would otherwise hand the CVV,
 * the OTP or the client secret to whatever logs the error. The transport scrubs every answer it builds
 * an error from with the secrets of that call, before the error exists (its message, its `body`, and so
 * its stack). A successful answer is never changed: its ids may hold a CVV's digits by chance.
 */

/** The request body's fields that carry a secret: a card's number and CVV (`cvv2`), an OTP. */
const SECRET_FIELDS = new Set(['number', 'cvv2', 'otp']);

/** Written in place of a secret. */
export const SCRUBBED = '[scrubbed]';

/**
 * The secrets of one call: from its Basic credentials, the encoded pair and the client secret; from its
 * JSON body, every string of a secret field, at any depth.
 */
export function secretsOf(authorization: string, json: unknown): string[] {
  const secrets: string[] = [];
  const basic = /^Basic (\S+)$/.exec(authorization)?.[1];
  if (basic) {
    secrets.push(basic);
    try {
      const pair = new TextDecoder().decode(Uint8Array.from(atob(basic), (c) => c.charCodeAt(0)));
      secrets.push(pair.slice(pair.indexOf(':') + 1));
    } catch {
      // not base64: the header itself is the secret, pushed above
    }
  }
  const walk = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    for (const [key, inner] of Object.entries(value)) {
      if (SECRET_FIELDS.has(key) && typeof inner === 'string') secrets.push(inner);
      else walk(inner);
    }
  };
  walk(json);
  return secrets.filter((s) => s !== '');
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The decimal digits of every script (Unicode's `Nd`: ASCII, Arabic-Indic, Devanagari, fullwidth,
 * mathematical, ...) by value: each script's digits are runs from 0 to 9, so a digit's value is its
 * place in its run. Wider than the card fields' folding (card/digits.ts), which takes what a keyboard
 * types: a service may render a number in any script. Made once, on first use.
 */
let byValue: string[][] | undefined;
function digitsByValue(): string[][] {
  if (byValue) return byValue;
  const table: string[][] = Array.from({ length: 10 }, () => []);
  const isDigit = (cp: number) => /\p{Nd}/u.test(String.fromCodePoint(cp));
  let start = 0;
  for (let cp = 0x30; cp < 0x20000; cp++) {
    if (!isDigit(cp)) continue;
    if (!isDigit(cp - 1)) start = cp;
    table[(cp - start) % 10]!.push(String.fromCodePoint(cp));
  }
  return (byValue = table);
}

/** `text` with every decimal digit of any script as its ASCII digit. */
export function foldAnyDigits(text: string): string {
  const table = digitsByValue();
  return text.replace(/\p{Nd}/gu, (d) => String(table.findIndex((same) => same.includes(d))));
}

/** A digit in any script. */
const anyScript = (d: string) => `[${digitsByValue()[Number(d)]!.join('')}]`;
/** What a paste or a formatter puts between digits: the separators of a card number's shape (shared/errors.ts PAN). */
const SEPARATOR = '[\\s./_\\-\\p{Cf}]{0,3}';

/** A base64 text's trailing '=': the look-behind starts a match only at a run's first '=' (linear time). */
export const BASE64_PADDING = /(?<!=)=+$/;

/**
 * A pattern for every rendering of one secret. Digits (a card number, a CVV, a numeric OTP): in any
 * script, run together or apart, and without its leading zeros, but never inside a longer number (a CVV's
 * digits in an amount are not the CVV). Any other text: itself, its JSON- and URL-escaped forms, and a
 * base64 text in its URL-safe alphabet.
 */
function renderings(secret: string): string[] {
  if (/^\d+$/.test(secret)) {
    const forms = [secret, secret.replace(/^0+(?=\d\d)/, '')];
    return forms.map((f) => `(?<!\\p{Nd})${[...f].map(anyScript).join(SEPARATOR)}(?!\\p{Nd})`);
  }
  const forms = [
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    secret.replace(BASE64_PADDING, '').replace(/\+/g, '-').replace(/\//g, '_'),
  ];
  return forms.map(escaped);
}

/** A UUID (an event id, a nonce) is kept whole: its groups of digits are the service's, not a CVV. */
const UUID = '[\\da-f]{8}(?:-[\\da-f]{4}){3}-[\\da-f]{12}';

/** One pattern per call's secrets, made at its first use: a body's every key, text and number is scrubbed with it. */
const patterns = new WeakMap<readonly string[], RegExp>();
function patternOf(secrets: readonly string[]): RegExp {
  let pattern = patterns.get(secrets);
  if (!pattern) {
    pattern = new RegExp(`(${UUID})|${[...new Set(secrets.flatMap(renderings))].join('|')}`, 'giu');
    patterns.set(secrets, pattern);
  }
  return pattern;
}

/** Removes every rendering of `secrets` from a text. */
export function scrubText(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return text;
  return text.replace(patternOf(secrets), (match, uuid?: string) => uuid ?? SCRUBBED);
}

/** Deeper than this, an error body is not read: its subtree is dropped (and the stack is safe). */
const MAX_DEPTH = 64;

/** A parsed body with every rendering of `secrets` removed from its texts, its keys and its numbers. */
export function scrubValue(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value, secrets);
  if (typeof value === 'number') return scrubText(String(value), secrets) === String(value) ? value : SCRUBBED;
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return SCRUBBED;
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, secrets, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [scrubText(key, secrets), scrubValue(inner, secrets, depth + 1)]));
}

/** An answer's text with every rendering of `secrets` removed: its JSON scrubbed value by value, any other text as text. */
export function scrubAnswerText(text: string, secrets: readonly string[]): string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return scrubText(text, secrets);
  }
  return JSON.stringify(scrubValue(json, secrets));
}
