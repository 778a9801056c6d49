/**
 * The frame page as its host serves it: the HTML, and the headers that fence it in. One module for the
 * build (dist/frame/), the sandbox and `createFrameHost`, so that no host can serve a looser page than
 * another. No DOM and no `node:` module: it runs wherever a host runs.
 */

/** Where a frame page's policy comes from. */
export interface FramePolicy {
  /**
   * The one place the frames send a card: the gateway's origin, or `'self'` when the host is the
   * gateway (the sandbox).
   */
  gateway: string;
  /**
   * The merchant pages that may frame the fields (`frame-ancestors`) and, for a CVV-only form, receive
   * its post (`connect-src`). Never the frame host's own origin: a page on the frames' origin could read
   * the card out of them.
   */
  ancestors: string[];
  /** A CVV-only form's page (`cvv/` under the frame base): it posts the CVV to the merchant's own origin. */
  cvvOnly: boolean;
}

/** The frame's script: its file name (it carries its content hash) and its Subresource Integrity. */
export interface FrameScript {
  name: string;
  integrity: string;
}

const escape = (text: string) => text.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The frame page: no inline script or style (its CSP forbids both), one script checked by its
 * integrity. A host that knows its gateway names it, so that a frame pointed at another one refuses to
 * start and says why (its CSP would block the request anyway). A CVV-only form's page is one level
 * down (`cvv/`), beside nothing: its script is the one above it.
 */
export function framePage(script: FrameScript, { gateway, cvvOnly = false }: { gateway?: string; cvvOnly?: boolean } = {}): string {
  const named = gateway === undefined ? '' : `\n<meta name="payframe-gateway" content="${escape(gateway)}">`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">${named}
<title>payframe</title>
<script src="${cvvOnly ? '../' : ''}${escape(script.name)}" integrity="${script.integrity}" defer></script>
</head>
<body></body>
</html>
`;
}

/**
 * The page's headers: its own script only, styles only through the CSSOM, fonts over https, requests to
 * the gateway alone (and a CVV-only form's to the merchant's origins), framed by the merchant's origins
 * alone (`'none'` when there is none), an agent cluster of its own, and no referrer. Revalidated at
 * every load (`no-cache`), so that a new release's page names the new script at once.
 */
export function frameHeaders({ gateway, ancestors, cvvOnly }: FramePolicy): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'none'",
      'font-src https: http://localhost:* http://127.0.0.1:*',
      ['connect-src', gateway, ...(cvvOnly ? ancestors : [])].join(' '),
      "base-uri 'none'",
      "form-action 'none'",
      `frame-ancestors ${ancestors.join(' ') || "'none'"}`,
      "require-trusted-types-for 'script'",
      "trusted-types 'none'",
    ].join('; '),
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'origin-agent-cluster': '?1',
    'cache-control': 'no-cache',
  };
}

/** The script's headers: it is named by its content hash, so it is kept for good, and only its own page loads it. */
export const SCRIPT_HEADERS: Record<string, string> = {
  'content-type': 'text/javascript; charset=utf-8',
  'cache-control': 'public, max-age=31536000, immutable',
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
};
