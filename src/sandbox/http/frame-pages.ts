import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { frameScript } from 'payframe/frame-bundle';
import { frameHeaders, type FramePolicy, framePage, isFresh, pageTag } from '../../protocol/frame-page';
import { CVV_PAGE } from '../../protocol/address';
import { LOOPBACK_HOSTS } from '../../shared/url';
import { fail } from '../errors';
import { type Reply, type Req, type Sandbox } from './context';
import type { MerchantConfig } from '../model/state';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * dist/frame of the package: next to the built module (dist/sandbox.mjs), three levels up from it when
 * the build keeps one file per module (dist/lib/sandbox/http/frame-pages.mjs), or from src/sandbox/http in a checkout.
 */
export function defaultFrameDir(): string | undefined {
  for (const relative of ['./frame/', '../../../frame/', '../../../dist/frame/']) {
    const dir = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(dir)) return dir;
  }
  return undefined;
}

/** Where a merchant without configured `origins` may embed the frames: any loopback origin (CSP has no IPv6 hosts). */
const LOOPBACK_ANCESTORS = ['https', 'http'].flatMap((scheme) =>
  LOOPBACK_HOSTS.filter((h) => !h.startsWith('[')).map((h) => `${scheme}://${h}:*`),
);
const ORIGIN = /^https?:\/\/[\w.-]+(?::(?:\d{1,5}|\*))?$/;

/**
 * The frame page's policy in the sandbox (src/protocol/frame-page.ts makes its headers and page): framed
 * only by the merchant's origins (named by `?merchant=` in the frame's URL; an unknown merchant's frame may
 * be framed by nobody, and may post nowhere), and the sandbox, which is the gateway, is the one place a card goes.
 */
export function framePolicyFor(merchant: MerchantConfig | undefined, cvvOnly = false): FramePolicy {
  const ancestors = merchant ? (merchant.origins ?? LOOPBACK_ANCESTORS).filter((o) => ORIGIN.test(o)) : [];
  return { gateway: "'self'", ancestors, cvvOnly, script: frameScript.hash };
}

export const frameHeadersFor = (merchant: MerchantConfig | undefined, cvvOnly = false): Record<string, string> =>
  frameHeaders(framePolicyFor(merchant, cvvOnly));

/**
 * GET /frame/*: static files of the hosted fields, never outside the folder. A page is made for its
 * merchant, with the frame host's headers and validator: a repeat visit revalidates it to an empty 304,
 * as from `createFrameHost`. The path is decoded once, and it is a CVV-only form's page exactly when the
 * frames decide so (src/protocol/address.ts), by the path as it came: never a full form under the CVV
 * page's policy, which admits the merchant's origins.
 */
export async function serveFrame(sb: Sandbox, req: Req): Promise<Reply> {
  const missing = () => fail('NOT_FOUND', 'No such file');
  if (!sb.frameDir) return missing();
  const raw = req.pathname.slice('/frame/'.length);
  let rel: string;
  try {
    rel = decodeURIComponent(raw);
  } catch {
    return missing();
  }
  if (rel === '' || rel.endsWith('/')) rel += 'index.html';
  const root = resolve(sb.frameDir);
  const file = resolve(root, rel);
  if (rel.includes('\0') || !file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) return missing();
  const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  const kept = readFileSync(file);
  if (!type.startsWith('text/html')) return { file: kept, type };
  // A page of another build (a stale or hand-made frameDir) would load with its script blocked by this
  // build's policy, which allows this build's script alone: say so at once instead of a form that times out.
  const inline = /<script>([\s\S]*?)<\/script/.exec(kept.toString('utf8'))?.[1];
  if (inline !== undefined && inline !== frameScript.code) {
    return fail(
      'INTERNAL_ERROR',
      `the frame page ${rel} in frameDir is not this version's (its script is not the one this sandbox's policy allows): rebuild it (npm run build), or leave frameDir to its default`,
    );
  }
  const policy = framePolicyFor(sb.merchants.get(req.query.get('merchant') ?? ''), req.pathname.endsWith(`/${CVV_PAGE}`));
  // The sandbox is the gateway: the page names it as its own origin (`/`).
  const body = inline === undefined ? kept : Buffer.from(framePage(frameScript, { gateway: '/', policy }));
  const headers = frameHeaders(policy);
  headers.etag = await pageTag(body.toString('utf8'), headers);
  if (isFresh(req.headers['if-none-match'], headers.etag)) return { status: 304, html: '', headers };
  return { file: body, type, headers };
}
