/**
 * `handlePending` of the script-tag bundle (payframe.umd.min.js). Few pages meet a pending payment, so
 * the code that finishes one, the OTP form included, is a file beside the bundle
 * (payframe.pending.umd.min.js, made by scripts/pending-chunk.mjs), loaded when the payer presses Pay as the
 * ESM build loads its chunk: a <script> with the page script's nonce, its URL made by a Trusted Types
 * policy named `payframe` where the browser has them, and its SHA-384 pinned (`integrity`), so that
 * the browser refuses any other file (docs/pending.md, "The script-tag bundle").
 */
import { chunk, shared } from 'virtual:payframe-pending-chunk';
import type { PendingPayment } from '../../protocol/wire';
import { configError, PayframeError } from '../../shared/errors';
import { urlOf } from '../../shared/url-of';
import type { finishPending } from './pending-flow';
import type { HandlePendingOptions, PendingOutcome } from './types';
import { atPay } from './warm';

type Flow = { finishPending: typeof finishPending };
/** What the chunk's file calls as it runs: its module, given the parts it takes from this bundle. */
type Body = (require: (name: string) => object, exports: Partial<Flow>) => void;

// The bundle's own <script>, read as the bundle runs: `document.currentScript` is null afterwards.
const own = typeof document === 'object' ? (document.currentScript as HTMLScriptElement | null) : null;

let flow: Promise<Flow> | undefined;
let policy: { createScriptURL(url: string): unknown } | undefined;

/** The chunk, run: one <script>, removed once it has run or failed; a failure leaves nothing behind. */
function load(): Promise<Flow> {
  return new Promise((resolve, reject) => {
    // Not one of a `<script src>` (inline, or bundled into the merchant's own code): no place to look beside.
    const url = own?.src ? urlOf(chunk.file, own.src)?.href : undefined;
    if (!url) {
      throw configError(
        'payframe.umd.min.js, not loaded by a <script src>, cannot find its pending file; use payframe.full.umd.min.js',
        'handlePending',
      );
    }
    const script = document.createElement('script') as HTMLScriptElement & { payframe?: (body: Body) => void };
    let src: unknown = url;
    try {
      // Under `require-trusted-types-for 'script'` a string is refused: a policy that makes this one URL, nothing else.
      const types = (globalThis as { trustedTypes?: { createPolicy(name: string, rules: object): NonNullable<typeof policy> } })
        .trustedTypes;
      src = (policy ??= types!.createPolicy('payframe', { createScriptURL: () => url })).createScriptURL(url);
    } catch {
      // No Trusted Types in this browser, or the page's `trusted-types` names no `payframe`: the plain URL.
    }
    try {
      script.src = src as string;
    } catch {
      throw configError('Trusted Types refused payframe.pending.umd.min.js: the CSP must allow `trusted-types payframe`', 'handlePending');
    }
    script.integrity = chunk.integrity;
    script.crossOrigin = 'anonymous';
    script.nonce = own!.nonce;
    script.payframe = (body) => {
      const exports: Partial<Flow> = {};
      body((name) => shared[name]!, exports);
      resolve(exports as Flow);
    };
    // After it ran (resolved above; this does nothing then), or when it did not: unreachable, refused by the
    // page's CSP, or not the file this bundle was built with.
    script.onload = script.onerror = () => {
      script.remove();
      reject(
        new PayframeError(
          'network',
          `handlePending: ${url} did not load: unreachable, refused by the CSP, or not this bundle's (integrity)`,
        ),
      );
    };
    document.head.append(script);
  });
}

const loaded = () =>
  (flow ??= load().catch((error: PayframeError) => {
    // Unreachable, refused by the page's script-src, or not this bundle's file: asked for again at the
    // next call. Trusted Types that refuse the policy, or no <script src>: so until the page reloads; kept,
    // so that the browser reports the refusal once.
    if (error.code === 'network') flow = undefined;
    throw error;
  }));

/** The load the payer's first Pay started (warm.ts), once per page: a page that cannot load the file says so once. */
let warm: Promise<Flow> | undefined;
atPay.warm = () => void (warm ??= loaded()).catch(() => undefined);

/**
 * Finishes a pending payment in the browser (pending.ts, docs/pending.md), once the file beside the
 * bundle has loaded; one that did not is `network` (the next call asks for it again), `invalid_config`
 * when this page cannot ask for it, and nothing was shown, sent or navigated. A load that Pay started
 * and that failed, on its way or before, is asked for once more here.
 */
export function handlePending(pending: PendingPayment, options: HandlePendingOptions): Promise<PendingOutcome> {
  const first = loaded();
  return (first === warm ? first.catch(loaded) : first).then((f) => f.finishPending(pending, options));
}
