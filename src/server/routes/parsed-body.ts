/**
 * A body a framework's parser read before the route did (Express's `express.json()`, `urlencoded()`,
 * `raw()` and `text()`, Fastify's, Koa's): its bytes again, rebuilt by the request's content type, or
 * why that cannot be done faithfully. What cannot be rebuilt is never guessed at: the route answers 500
 * and `onEvent` says how to mount it (`MOUNT_ADVICE`), rather than act on a body that may differ from
 * the one sent.
 */

import type { PayframeError } from '../../shared/errors';

/** What to do when a parser took a body that cannot be given back as it came. */
export const MOUNT_ADVICE =
  "mount payframe's routes before the body parsers (app.post(path, toNodeListener(handler)) ahead of app.use(express.json()), ...), " +
  'or leave their content types to a parser that keeps the body as it came (a form as a flat form, JSON as JSON, express.raw() for any type): see docs/servers.md';

export type Rebuilt = { bytes: Uint8Array<ArrayBuffer> } | { unfaithful: string };

const unfaithful = (what: string): Rebuilt => ({ unfaithful: `a body parser read this request's body first and ${what}: ${MOUNT_ADVICE}` });

/** A form as `express.urlencoded({ extended: false })` leaves it: each name a string, or the strings of a repeated name. */
function isFlatForm(parsed: unknown): parsed is Record<string, string | string[]> {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
  const proto: unknown = Object.getPrototypeOf(parsed);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(parsed).every(
    (value) => typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string')),
  );
}

/** The media type and charset of a `Content-Type` value, lowercased. */
function mediaType(contentType: string | undefined): { type: string; charset: string | undefined } {
  const [type = '', ...params] = (contentType ?? '').split(';').map((part) => part.trim().toLowerCase());
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/^"|"$/g, '');
  return { type, charset };
}

/**
 * The bytes of a body that `parsed` stands for, by its content type: a Buffer (`express.raw()`) as its
 * bytes; a string (`express.text()`) in UTF-8 when it came so; a flat form as that form (names and
 * values in their order, a repeated name repeated); JSON as JSON. Anything else (a form with nested
 * names, `extended: true`'s objects; JSON under a type that is not JSON; text in another charset) is
 * unfaithful.
 */
export function rebuiltBody(parsed: unknown, contentType: string | undefined): Rebuilt {
  if (parsed instanceof Uint8Array) return { bytes: new Uint8Array(parsed) };
  const { type, charset } = mediaType(contentType);
  if (typeof parsed === 'string') {
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return unfaithful(`kept it as text decoded from ${charset}`);
    return { bytes: new TextEncoder().encode(parsed) };
  }
  if (type === 'application/x-www-form-urlencoded') {
    if (!isFlatForm(parsed)) return unfaithful('kept a form with nested names (extended: true), which a form cannot be made of again');
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(parsed)) for (const one of [value].flat()) form.append(name, one);
    return { bytes: new TextEncoder().encode(form.toString()) };
  }
  if ((type === 'application/json' || type.endsWith('+json')) && parsed !== undefined) {
    return { bytes: new TextEncoder().encode(JSON.stringify(parsed)) };
  }
  return unfaithful(
    parsed === undefined ? 'kept nothing of it' : `kept it as a value its type (${type || 'none'}) cannot be made of again`,
  );
}

/**
 * Requests whose body the adapter could not hand on, with the refusal the handler's body reader
 * (`readBody`) throws when it reads one, so that the route's `onEvent` hears it: a body over the cap
 * (413), or one a parser took and `rebuiltBody` could not give back (500, with why).
 */
export const unreadableBodies = new WeakMap<Request, PayframeError>();
