// An empty PGlite database, made once per PGlite version on this machine and copied wherever a test
// needs a new one (the stores' suite on PGlite, the demo's launches, the first hour's guide): PGlite
// makes a database (PostgreSQL's initdb, in WebAssembly) in 5 to 25 s on two busy cores, and a copy of
// one opens in about a second. docs/stores.md's block still makes its own on first use (test/server/store/docs.test.ts).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('../../', import.meta.url);

/** The template's folder, made by the first caller on this machine. */
function template(): string {
  const pkg = JSON.parse(readFileSync(new URL('node_modules/@electric-sql/pglite/package.json', ROOT), 'utf8')) as { version: string };
  const made = join(tmpdir(), `payframe-demo-db-${pkg.version}`);
  if (existsSync(made)) return made;
  const making = `${made}-${process.pid}`;
  const script = `import { PGlite } from '@electric-sql/pglite'; await (await PGlite.create(${JSON.stringify(making)})).close();`;
  execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
  // Another process may have made it meanwhile (the unit and browser suites run side by side): the first one renamed stays.
  try {
    renameSync(making, made);
  } catch {
    rmSync(making, { recursive: true, force: true });
  }
  return made;
}

/** Makes `folder` (which must not exist) an empty PGlite database, as `PGlite.create(folder)` would; answers it. */
export function emptyPglite(folder: string): string {
  cpSync(template(), folder, { recursive: true });
  return folder;
}
