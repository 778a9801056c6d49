// `npm ci`'s prepare step: points git at the tracked hooks (.githooks/) so the commit subject rule runs
// on every commit. Harmless elsewhere: outside a git checkout of this package (a tarball, a folder that
// is not its own repository's top) or where git is missing it does nothing, and a hooks path set by
// someone else is left as it is, with one line saying so.
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';

const git = (...args) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

let top;
try {
  top = git('rev-parse', '--show-toplevel');
} catch {
  process.exit(0); // not a git checkout, or no git
}
if (realpathSync(top) !== realpathSync(process.cwd())) process.exit(0);
let current = '';
try {
  current = git('config', '--get', 'core.hooksPath');
} catch {
  // unset
}
if (current === '') git('config', 'core.hooksPath', '.githooks');
else if (current !== '.githooks') console.log(`payframe: core.hooksPath is ${current}; the commit subject check is in .githooks/`);
