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
  /** The hash of the one script the page may run, its own inline one (`FrameScript.hash`). */
  script: string;
}

/** The frame's script: its text, which the page carries inline, and its hash as `script-src` names it (`sha256-…`). */
export interface FrameScript {
  code: string;
  hash: string;
}

const escape = (text: string) => text.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);

/** What a host tells the page itself, so that it holds wherever it is served (src/frame/start.ts reads it). */
export interface PageFacts {
  /** The gateway's base URL, or `/` when the host is the gateway (the sandbox): a frame sent elsewhere refuses. */
  gateway: string;
  /** The page's policy: the page carries the part a `<meta>` can hold. */
  policy: FramePolicy;
}

/**
 * The frame page, in one response: the script is inline (at the end of the body, where an inline script
 * runs with the document parsed, as a deferred one would), allowed by its hash alone; no inline style.
 * A host's page carries what must hold even where the host sends none of its headers (a static host's
 * fallback, a path its header rules miss): the policy in a `<meta>` (all of it but `frame-ancestors`,
 * which a meta cannot hold), the merchant's origins, which the frame checks its ancestors against
 * itself, the gateway, and whether it is a CVV-only form's page. The build's bare page (no facts) is
 * the sandbox's check that a frameDir is this build's: its frame refuses to start.
 */
export function framePage(script: FrameScript, facts?: PageFacts): string {
  const meta = (name: string, content: string) =>
    `\n<meta ${name === 'csp' ? 'http-equiv="Content-Security-Policy"' : `name="payframe-${name}"`} content="${escape(content)}">`;
  const head =
    facts === undefined
      ? ''
      : [
          meta(
            'csp',
            directives(facts.policy)
              .filter((d) => !d.startsWith('frame-ancestors'))
              .join('; '),
          ),
          meta('gateway', facts.gateway),
          meta('ancestors', facts.policy.ancestors.join(' ')),
          facts.policy.cvvOnly ? meta('form', 'cvv') : '',
        ].join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">${head}
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>payframe</title>
</head>
<body><script>${script.code}</script></body>
</html>
`;
}

/** Fonts from a loopback host only for a loopback gateway (development): a live page's policy names no loopback. */
const fontSources = (gateway: string) =>
  gateway === "'self'" || /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:|$)/.test(gateway)
    ? 'https: http://localhost:* http://127.0.0.1:*'
    : 'https:';

function directives({ gateway, ancestors, cvvOnly, script }: FramePolicy): string[] {
  return [
    "default-src 'none'",
    `script-src '${script}'`,
    "style-src 'none'",
    `font-src ${fontSources(gateway)}`,
    ['connect-src', gateway, ...(cvvOnly ? ancestors : [])].join(' '),
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors.join(' ') || "'none'"}`,
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ];
}

/**
 * The page's headers: its own inline script only (by hash: never `'unsafe-inline'`), styles only
 * through the CSSOM, fonts over https, requests to the gateway alone (and a CVV-only form's to the
 * merchant's origins), framed by the merchant's origins alone (`'none'` when there is none), an agent
 * cluster of its own, and no referrer. Revalidated at every load (`no-cache`, with the host's `ETag`),
 * so that a new release's page, its script inside, is used at once.
 */
export function frameHeaders(policy: FramePolicy): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': directives(policy).join('; '),
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'origin-agent-cluster': '?1',
    'cache-control': 'no-cache',
  };
}

/**
 * The page's validator: a digest of its body and headers (both change with a release, a gateway or the
 * merchant's origins), so that a repeat visit revalidates three frames with three empty 304s.
 */
export async function pageTag(body: string, headers: Record<string, string>): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${JSON.stringify(headers)}\n${body}`));
  return `"${btoa(String.fromCharCode(...new Uint8Array(digest).slice(0, 18)))}"`;
}

/** Whether a request's `If-None-Match` names `tag` (weak comparison, as RFC 9110 asks for this header). */
export function isFresh(ifNoneMatch: string | null | undefined, tag: string): boolean {
  return (
    !!ifNoneMatch &&
    ifNoneMatch.split(',').some((t) => {
      const item = t.trim();
      return item === '*' || item.replace(/^W\//, '') === tag;
    })
  );
}
