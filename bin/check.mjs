// `payframe frames check`: whether a frame host's answers keep the frames fenced in, path by path. The
// same verdicts for a deployed host (over the network) and for a folder `frames export` wrote (read as
// a static host reads it: the files, `_headers` matched on the path as it arrives, 404.html or, without
// one, index.html for every other path).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The paths checked, under the frame URL: the two pages, and paths a host must not serve the frame page at unguarded. */
export const PATHS = [
  { path: '', want: 'page' },
  { path: 'cvv/', want: 'cvv' },
  { path: 'index.html', want: 'any' },
  { path: 'payframe-check/', want: 'any' },
  { path: 'payframe-check/cvv/', want: 'any' },
  { path: '%63vv/', want: 'any' },
];

const meta = (html, name) =>
  new RegExp(`<meta (?:name="payframe-${name}"|http-equiv="${name}") content="([^"]*)">`, 'i')
    .exec(html)?.[1]
    ?.replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c)));

/**
 * A policy as a map of directive → its sources. A directive given twice is kept as browsers keep it,
 * the first (CSP 3, "parse a serialized CSP": later ones are ignored); `repeated` names the others.
 */
function parsePolicy(text) {
  const policy = new Map();
  policy.repeated = [];
  for (const [name, ...sources] of text
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .filter((d) => d[0])) {
    const directive = name.toLowerCase();
    if (policy.has(directive)) policy.repeated.push(directive);
    else policy.set(directive, sources);
  }
  return policy;
}

/** The sources every policy admits for `directive` (falling back to default-src where it may), or undefined when none restricts it. */
function admitted(policies, directive, fallback = true) {
  let set;
  for (const policy of policies) {
    const sources = policy.get(directive) ?? (fallback ? policy.get('default-src') : undefined);
    if (sources) set = set ? set.filter((s) => sources.includes(s)) : sources;
  }
  return set;
}

const same = (a, b) => a !== undefined && a.length === b.length && b.every((s) => a.includes(s));

/**
 * What is wrong with the fence (`frame-ancestors`) of the policies sent. Each policy that names it must
 * name the merchants exactly: a header sent twice (two of a host's rules, a proxy adding its own) is
 * enforced twice by a browser, but a proxy or CDN on the way may keep one of the two, so a looser one
 * (`*` first, then the right one) is a hole waiting for it.
 */
function fenceWrongs(sent, merchants) {
  const fenced = sent.map((policy, i) => [policy.get('frame-ancestors'), i]).filter(([sources]) => sources);
  if (fenced.length === 0) return [`frame-ancestors missing, not ${merchants.join(' ')}`];
  return fenced
    .filter(([sources]) => !same(sources, merchants))
    .map(([sources, i]) =>
      sent.length > 1
        ? `frame-ancestors ${sources.join(' ')} in Content-Security-Policy ${i + 1} of the ${sent.length} sent, not ${merchants.join(' ')}: send one policy, whose frame-ancestors is exactly ${merchants.join(' ')}`
        : `frame-ancestors ${sources.join(' ')}, not ${merchants.join(' ')}`,
    );
}

/**
 * What is wrong with one answer (`{ status, headers, body }`, headers by lower-case name), or '' when
 * nothing is: `want` is `page` (the full form's page), `cvv` (the CVV-only form's) or `any` (a path that
 * is either no frame page at all, or a frame page with its full headers).
 */
export function verdict({ status, headers, body }, want, { merchants, gateway }) {
  // The frame page: payframe's, with its one inline script (a host's own page is not it), under any
  // status a browser renders (a redirect's body is never shown).
  const script =
    !(status >= 300 && status < 400) && /<title>payframe<\/title>|<meta name="payframe-/.test(body)
      ? /<script>([\s\S]*?)<\/script/.exec(body)?.[1]
      : undefined;
  if (script === undefined) {
    if (want === 'any')
      return { ok: true, says: status >= 300 && status < 400 ? `redirects (${status}), no frame page` : `no frame page (${status})` };
    return { ok: false, says: `no frame page here (${status})` };
  }
  const kind = meta(body, 'form') === 'cvv' ? 'cvv' : 'page';
  // A frame page answered 404 (a host's fallback for unknown paths) is shown in a frame all the same.
  const what = `${kind === 'cvv' ? "the CVV-only form's page" : "the card form's page"}${status === 200 ? '' : ` (answered ${status})`}`;
  if (want !== 'any' && kind !== want) return { ok: false, says: `${what}, not the ${want === 'cvv' ? "CVV-only form's" : "card form's"}` };
  const sent = (headers['content-security-policy'] ?? '')
    .split(',')
    .filter((p) => p.trim())
    .map(parsePolicy);
  const inPage = meta(body, 'Content-Security-Policy');
  const all = inPage === undefined ? sent : [...sent, parsePolicy(inPage)];
  const hash = `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
  const gatewayOrigin = gateway ?? (meta(body, 'gateway') && new URL(meta(body, 'gateway')).origin);
  const wrong = [];
  if (sent.length === 0) wrong.push('no Content-Security-Policy header');
  else wrong.push(...fenceWrongs(sent, merchants));
  for (const directive of new Set(all.flatMap((p) => p.repeated)))
    wrong.push(`${directive} given twice in one policy: browsers keep the first and ignore the rest; give it once`);
  const connect = admitted(all, 'connect-src');
  const wantConnect = [gatewayOrigin, ...(kind === 'cvv' ? merchants : [])];
  if (!gatewayOrigin) wrong.push('the page names no gateway');
  else if (!same(connect, wantConnect)) wrong.push(`connect-src ${connect ? connect.join(' ') : 'missing'}, not ${wantConnect.join(' ')}`);
  if (!sent.some((p) => p.get('script-src')?.includes(hash))) wrong.push("script-src without the page's script hash");
  if (!/(?:^|,)\s*nosniff\s*(?:,|$)/i.test(headers['x-content-type-options'] ?? '')) wrong.push('no X-Content-Type-Options: nosniff');
  return wrong.length === 0
    ? { ok: true, says: `${what}, its headers hold` }
    : {
        ok: false,
        says: `${what} ${sent.length === 0 ? 'without its headers' : 'under a wrong policy'}: ${wrong.join('; ')}${
          status === 200 ? '' : `; a path with no page of its own must not answer the frame page: serve a 404 page of yours (404.html)`
        }`,
      };
}

/** Runs the checks with `get(path)` answering each; prints one line per path and answers whether all hold. */
export async function check(get, { merchants, gateway, where }) {
  let good = true;
  for (const { path, want } of PATHS) {
    let result;
    try {
      result = verdict(await get(path), want, { merchants, gateway });
    } catch (error) {
      result = { ok: false, says: `no answer: ${error.cause?.code ?? error.message}` };
    }
    good &&= result.ok;
    console.log(`${result.ok ? 'ok  ' : 'FAIL'}  /${path.padEnd(20)} ${result.says}`);
  }
  console.log(
    good
      ? `payframe frames check: ${where} keeps the frames fenced in.`
      : `payframe frames check: ${where} does not keep the frames fenced in (FAIL above).`,
  );
  return good;
}

/** An answer of a deployed host, over the network, redirects not followed. */
export const fetchFrom = (base) => async (path) => {
  const response = await fetch(new URL(path, base), { redirect: 'manual' });
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
};

/** `_headers` as rules: a path pattern (`*` any text, `:name` one segment), then its indented headers. */
export function readHeaderRules(text) {
  const rules = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line))
      rules.push({
        pattern: new RegExp(
          `^${line
            .trim()
            .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
            .replace(/\*/g, '.*')
            .replace(/:\w+/g, '[^/]+')}$`,
        ),
        headers: [],
      });
    else if (!line.trim().startsWith('!'))
      rules.at(-1)?.headers.push([
        line.trim().slice(0, line.trim().indexOf(':')).toLowerCase(),
        line
          .trim()
          .slice(line.trim().indexOf(':') + 1)
          .trim(),
      ]);
  }
  return rules;
}

/**
 * A folder as a static host serves it: the file at the decoded path (a folder's index.html), else
 * 404.html with 404, else (no 404.html: a single-page app, to the host) index.html with 200; the headers
 * of every `_headers` rule that matches the path as it arrived, the same header's values joined by commas.
 */
export const readFrom = (dir) => async (path) => {
  const raw = `/${path}`;
  const decoded = decodeURIComponent(raw);
  const file = (p) => {
    const full = join(dir, p.endsWith('/') ? `${p}index.html` : p);
    return existsSync(full) && statSync(full).isFile() ? readFileSync(full, 'utf8') : undefined;
  };
  let status = 200;
  let body = file(decoded);
  if (body === undefined) [status, body] = file('/404.html') !== undefined ? [404, file('/404.html')] : [200, file('/index.html') ?? ''];
  const headers = {};
  const rules = existsSync(join(dir, '_headers')) ? readHeaderRules(readFileSync(join(dir, '_headers'), 'utf8')) : [];
  for (const rule of rules.filter((r) => r.pattern.test(raw))) {
    for (const [name, value] of rule.headers) headers[name] = headers[name] ? `${headers[name]}, ${value}` : value;
  }
  return { status, headers, body };
};
