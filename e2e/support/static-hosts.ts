// Stand-ins for the static hosts `payframe frames export` writes for, each serving a folder the way its
// documentation says it does (what these tests rely on, and no more):
// - Cloudflare Pages: the file at the decoded path (a folder's index.html; `/x.html` and `/x/index.html`
//   redirect to their pretty URL, `/x` to `/x/`); else the nearest 404.html with 404; with no 404.html
//   at all, the site is a single-page app: index.html with 200 at every path. Every `_headers` rule whose
//   pattern matches the path as it arrived (percent-encoded) adds its headers; a header set by two rules
//   gets both values, joined by a comma.
// - Netlify: the file at the decoded path, `/x` redirects to `/x/`; else /404.html with 404, else its
//   own not-found page. `_headers` rules that match apply, a later rule's value of a header replacing an
//   earlier one's.
// - Vercel: the file at the decoded path (`trailingSlash: true`: `/x` redirects to `/x/`); else 404.html
//   with 404. vercel.json's `headers` whose `source` matches apply, the last one's value of a header winning.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { trustedTls } from './tls';

export type StaticHost = 'cloudflare' | 'netlify' | 'vercel';

interface Rule {
  pattern: RegExp;
  headers: [string, string][];
}

/** `_headers`: a path (`*` any text, `:name` one segment), then its headers, indented. `! Name` lines detach, unused here. */
function headersFile(text: string): Rule[] {
  const rules: Rule[] = [];
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (!t || t.startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      rules.push({
        pattern: new RegExp(
          `^${t
            .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
            .replace(/\*/g, '.*')
            .replace(/:\w+/g, '[^/]+')}$`,
        ),
        headers: [],
      });
    } else if (!t.startsWith('!'))
      rules.at(-1)!.headers.push([t.slice(0, t.indexOf(':')).toLowerCase(), t.slice(t.indexOf(':') + 1).trim()]);
  }
  return rules;
}

/** vercel.json's `headers`: a `source` with `(regex)` groups and `:name` segments. */
function vercelRules(text: string): Rule[] {
  const config = JSON.parse(text) as { headers?: { source: string; headers: { key: string; value: string }[] }[] };
  return (config.headers ?? []).map(({ source, headers }) => ({
    pattern: new RegExp(`^${source.replace(/\./g, '\\.').replace(/:\w+/g, '[^/]+')}$`),
    headers: headers.map(({ key, value }) => [key.toLowerCase(), value] as [string, string]),
  }));
}

export interface Served {
  url: string;
  /** Serves another folder from now on (a re-deploy). */
  deploy(dir: string): void;
  close(): Promise<void>;
}

/** Serves `dir` as `host` would, over https on 127.0.0.3 (an origin of its own). */
export async function serveStatic(host: StaticHost, dir: string): Promise<Served> {
  let root = dir;
  const file = (path: string) => {
    const full = join(root, path);
    return existsSync(full) && statSync(full).isFile() ? readFileSync(full) : undefined;
  };
  const server: Server = createServer(trustedTls(), (req, res) => {
    const raw = new URL(req.url ?? '/', 'https://static.invalid').pathname;
    let path: string;
    try {
      path = decodeURIComponent(raw);
    } catch {
      return res.writeHead(400).end();
    }
    const redirect = (to: string) => res.writeHead(308, { location: to }).end();
    if (path.endsWith('/index.html') && host === 'cloudflare') return redirect(raw.slice(0, -'index.html'.length));
    if (!path.endsWith('/') && file(`${path}/index.html`)) return redirect(`${raw}/`);
    let status = 200;
    let body = file(path.endsWith('/') ? `${path}index.html` : path);
    if (!body) {
      status = 404;
      if (host === 'cloudflare') {
        // The nearest 404.html up the path; none anywhere: a single-page app.
        const dirs = path.split('/').slice(0, -1);
        while (dirs.length > 0 && !body) {
          body = file(`${dirs.join('/')}/404.html`);
          dirs.pop();
        }
        if (!body && !existsSync(join(root, '404.html'))) [status, body] = [200, file('/index.html')];
      } else body = file('/404.html');
    }
    const rules =
      host === 'vercel'
        ? file('/vercel.json')
          ? vercelRules(file('/vercel.json')!.toString())
          : []
        : file('/_headers')
          ? headersFile(file('/_headers')!.toString())
          : [];
    const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' };
    const set = new Set<string>();
    for (const rule of rules.filter((r) => r.pattern.test(raw))) {
      for (const [name, value] of rule.headers) {
        headers[name] = host === 'cloudflare' && set.has(name) ? `${headers[name]}, ${value}` : value;
        set.add(name);
      }
    }
    res.writeHead(status, headers).end(body ?? 'Not Found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.3', resolve));
  return {
    url: `https://127.0.0.3:${(server.address() as AddressInfo).port}/`,
    deploy: (next) => void (root = next),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
