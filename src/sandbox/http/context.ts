import { timingSafeEqual } from 'node:crypto';
import * as v from 'valibot';
import { redact } from '../../shared/errors';
import { issueMessage } from '../../schemas';
import { fail } from '../errors';
import type { Notifier } from '../model/notify';
import type { Ctx } from '../model/payments';
import type { Clock, MerchantConfig, Store } from '../model/state';

/** Everything a route needs about the running sandbox. */
export interface Sandbox {
  store: Store;
  clock: Clock;
  url: string;
  /** The plain-HTTP loopback URL of the development mode, else undefined. */
  httpUrl: string | undefined;
  merchants: Map<string, MerchantConfig>;
  tokenTtlMs: number;
  nonceTtlMs: number;
  testMode: boolean;
  frameDir: string | undefined;
  /** Host names answered besides the loopback ones (a tunnel's), lower case. */
  allowedHosts: string[];
  addFault(fault: unknown): void;
  notifier: Notifier;
}

export interface Req {
  method: string;
  pathname: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: Buffer;
  /** The sandbox's URL as this request reached it: https, or plain http in the development mode. */
  base: string;
  params: string[];
  /** Headers every answer carries, errors included (CORS on the nonce endpoint). */
  replyHeaders: Record<string, string>;
}

export type Reply =
  | { status?: number; json: unknown; headers?: Record<string, string> }
  | { status?: number; html: string; headers?: Record<string, string> }
  | { status?: number; file: Buffer; type: string; headers?: Record<string, string> };

export const param = (req: Req, i: number): string => req.params[i] ?? '';

/** A route of the sandbox: its method, its path (parameters as groups) and its handler. */
export interface Route {
  method: string;
  pattern: RegExp;
  handle: (sb: Sandbox, req: Req) => Reply | Promise<Reply>;
  testOnly?: boolean;
}

/** The merchant's part of a path; its id is the route's first parameter. */
export const MERCHANT = '^/v1/merchants/([^/]+)';

/** Basic auth for the merchant in the path; the context for its payments. */
export function merchantContext(sb: Sandbox, req: Req): Ctx {
  const merchant = merchantOf(sb, param(req, 0));
  requireBasic(req, merchant);
  return { store: sb.store, clock: sb.clock, url: req.base, merchantId: merchant.id };
}

export function merchantOf(sb: Sandbox, id: string): MerchantConfig {
  const merchant = sb.merchants.get(id);
  if (!merchant) return fail('NOT_FOUND', 'Unknown merchant: no merchant has this id');
  return merchant;
}

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** HTTP Basic with the merchant's client id and secret (RFC 7617). */
export function requireBasic(req: Req, merchant: MerchantConfig): void {
  const match = /^Basic\s+([A-Z0-9+/=]+)\s*$/i.exec(req.headers['authorization'] ?? '');
  const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const ok = colon > 0 && same(decoded.slice(0, colon), merchant.clientId) && same(decoded.slice(colon + 1), merchant.clientSecret);
  if (!ok) fail('UNAUTHORIZED', 'Missing or wrong Basic credentials for this merchant');
}

export const mediaType = (req: Req) => (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

/** The text of a body that must be JSON (415 otherwise); undefined when the body is empty. */
export function jsonText(req: Req): string | undefined {
  if (req.body.length === 0) return undefined;
  if (mediaType(req) !== 'application/json') fail('UNSUPPORTED_MEDIA_TYPE', 'The body must be application/json');
  return req.body.toString('utf8');
}

/** Deepest nesting of arrays and objects a body may have; deeper ones would overflow the stack of whoever walks them. */
export const MAX_DEPTH = 64;

/** Whether JSON text nests arrays or objects deeper than `max`, found without parsing (strings are skipped). */
export function tooDeep(text: string, max = MAX_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      if (++depth > max) return true;
    } else if (c === ']' || c === '}') depth--;
  }
  return false;
}

export function parseJson(text: string): unknown {
  if (tooDeep(text)) fail('INVALID_REQUEST', `The body nests arrays or objects deeper than ${MAX_DEPTH} levels`);
  try {
    return JSON.parse(text);
  } catch {
    return fail('INVALID_REQUEST', 'The body is not valid JSON');
  }
}

const AMOUNT_KEYS = new Set(['amount', 'total']);

/**
 * A card's `number` (the nonce body's, or a payment's `credit_card`) that is there but malformed: 1014,
 * like one that fails Luhn, as the live service's codes suggest. A missing one, or an unknown top-level
 * `number` field in another body, stays 1000.
 */
function isCardNumber(issue: v.BaseIssue<unknown>): boolean {
  const path = issue.path ?? [];
  if (issue.input === undefined || issue.type === 'strict_object' || path[path.length - 1]?.key !== 'number') return false;
  return path.length === 1 || path[path.length - 2]?.key === 'credit_card';
}

/** A safe message for the first issue: the field path and what was expected, never the value sent. */
function failIssue(issue: v.BaseIssue<unknown>): never {
  const last = issue.path?.[issue.path.length - 1]?.key;
  const amount = issue.input !== undefined && AMOUNT_KEYS.has(String(last)) && (issue.type === 'check' || issue.type === 'regex');
  // A union (the funding forms) that no form matched keeps its members' issues: a card number among them.
  const card = [issue, ...(issue.issues ?? [])].find(isCardNumber);
  if (card) return fail('INVALID_CARD_NUMBER', redact(issueMessage(card)));
  return fail(amount ? 'INVALID_AMOUNT' : 'INVALID_REQUEST', redact(issueMessage(issue)));
}

export function validate<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (!result.success) return failIssue(result.issues[0]);
  return result.output;
}

/** A JSON body checked against its schema; `emptyAs` stands in for an empty body where every field is optional. */
export function body<S extends v.GenericSchema>(req: Req, schema: S, emptyAs?: unknown): v.InferOutput<S> {
  const text = jsonText(req);
  if (text === undefined) return validate(schema, emptyAs);
  const value = parseJson(text);
  // Schemas of objects also take arrays (`[]` would pass as `{}`): every body is a JSON object.
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail('INVALID_REQUEST', 'The body must be a JSON object');
  return validate(schema, value);
}
