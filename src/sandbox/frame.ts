import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fail } from './errors';
import { param, type Reply, type Req, type Sandbox } from './request';

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

/** dist/frame of the package: next to the built module, or from src/sandbox in a checkout. */
export function defaultFrameDir(): string | undefined {
  for (const relative of ['./frame/', '../../dist/frame/']) {
    const dir = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(dir)) return dir;
  }
  return undefined;
}

/** GET /frame/*: static files of the hosted fields, never outside the folder. */
export function serveFrame(sb: Sandbox, req: Req): Reply {
  const missing = () => fail('NOT_FOUND', 'No such file');
  if (!sb.frameDir) return missing();
  let rel: string;
  try {
    rel = decodeURIComponent(param(req, 0));
  } catch {
    return missing();
  }
  if (rel === '' || rel.endsWith('/')) rel += 'index.html';
  const root = resolve(sb.frameDir);
  const file = resolve(root, rel);
  if (rel.includes('\0') || !file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) return missing();
  return { file: readFileSync(file), type: TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream' };
}
