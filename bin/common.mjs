// What the commands of `payframe` share: a one-line failure, a kept certificate, why a port cannot be
// listened on, and payframe's own modules from the package's build.
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const fail = (message, code = 1) => {
  console.error(`payframe: ${message}`);
  process.exit(code);
};

/** The package's built modules, or one clear line when it is not built. */
export const built = (...paths) =>
  Promise.all(paths.map((p) => import(new URL(`../dist/${p}`, import.meta.url).href))).catch(() =>
    fail('dist/ is missing: run `npm run build` first.'),
  );

/** The certificate kept in `dir`, made (and written) when missing or past its validity. */
export function keptCertificate(dir, makeCertificate) {
  const files = { cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem') };
  try {
    if (existsSync(files.cert) && existsSync(files.key)) {
      const kept = { cert: readFileSync(files.cert, 'utf8'), key: readFileSync(files.key, 'utf8') };
      if (Date.parse(new X509Certificate(kept.cert).validTo) > Date.now() + 24 * 3600_000) return { tls: kept, files };
    }
    const made = makeCertificate();
    mkdirSync(dir, { recursive: true });
    writeFileSync(files.key, made.key, { mode: 0o600 });
    writeFileSync(files.cert, made.cert);
    return { tls: made, files };
  } catch (error) {
    return fail(`cannot keep the certificate in ${dir}: ${error.message}`);
  }
}

/** What a person can do about a server (`what`) that cannot listen on `host`:`port`. */
export function whyNot(error, what, host, port) {
  const where = `${host}:${port}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return `port ${port} on ${host} is already in use: stop what uses it, or pick another port (--port 0 picks a free one)`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${host}: it is not an address of this machine (the default is 127.0.0.1)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${host}: the name does not resolve to an address of this machine`;
    case 'EACCES':
      return `not allowed to listen on ${where}: ports below 1024 need privileges; pick another with --port`;
    default:
      return `the ${what} could not start on ${where}: ${error.message}`;
  }
}

/** A port option: a whole number from 0 to 65535, or a usage error. */
export function portOf(text, usageFail) {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) usageFail(`--port must be a number from 0 to 65535, not "${text}"`);
  return port;
}
