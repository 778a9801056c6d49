// The commit subject rule as a contributor meets it: `npm ci`'s prepare step installs the tracked hook,
// and git refuses a subject over 72 characters. Run in throwaway repositories, never this one.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain script of the repository, without types
import { MAX_SUBJECT, subjectProblem } from '../scripts/commit-msg.mjs';

const root = new URL('..', import.meta.url).pathname;
const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A folder holding the hook and the two scripts, as a clone of the repository would. */
function checkout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'payframe-hooks-'));
  made.push(dir);
  for (const path of ['.githooks', 'scripts/commit-msg.mjs', 'scripts/install-hooks.mjs'])
    cpSync(join(root, path), join(dir, path), { recursive: true });
  return dir;
}
const git = (cwd: string, ...args: string[]) =>
  spawnSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.invalid', ...args], { cwd, encoding: 'utf8' });
const install = (cwd: string) => execFileSync('node', ['scripts/install-hooks.mjs'], { cwd, encoding: 'utf8' });

describe('the commit subject rule', () => {
  it('reads the subject: at most 72 characters, counted as characters, and no full stop', () => {
    expect(MAX_SUBJECT).toBe(72);
    expect(subjectProblem(`${'a'.repeat(72)}\n\nbody`)).toBeUndefined();
    expect(subjectProblem(`${'a'.repeat(73)}\n`)).toBe('the subject is 73 characters; at most 72');
    expect(subjectProblem(`${'é'.repeat(72)}\n`)).toBeUndefined(); // 144 bytes, 72 characters
    expect(subjectProblem('# a comment git adds\n\nFix the thing.\n')).toBe('the subject ends with a full stop');
    expect(subjectProblem(`Merge branch '${'x'.repeat(80)}'`)).toBeUndefined();
  });

  it('installed by the prepare step, git refuses a long subject and takes a short one', () => {
    const dir = checkout();
    git(dir, 'init', '-q');
    install(dir);
    expect(git(dir, 'config', '--get', 'core.hooksPath').stdout.trim()).toBe('.githooks');
    writeFileSync(join(dir, 'a.txt'), 'a');
    git(dir, 'add', 'a.txt');
    const long = git(dir, 'commit', '-q', '-m', `Add a file whose subject goes on and on, well past the limit the house keeps`);
    expect(long.status).not.toBe(0);
    expect(long.stderr).toContain('commit refused: the subject is 76 characters; at most 72');
    expect(git(dir, 'commit', '-q', '-m', 'Add a file').status).toBe(0);
    expect(git(dir, 'log', '--format=%s').stdout.trim()).toBe('Add a file');
  });

  it('does nothing outside a git checkout, in a folder below a repository top, or over a hooks path of yours', () => {
    const loose = checkout();
    expect(install(loose)).toBe('');
    expect(git(loose, 'config', '--get', 'core.hooksPath').stdout).toBe('');

    const outer = checkout();
    git(outer, 'init', '-q');
    const inner = join(outer, 'node_modules', 'payframe');
    mkdirSync(inner, { recursive: true });
    cpSync(join(outer, 'scripts'), join(inner, 'scripts'), { recursive: true });
    install(inner);
    expect(git(outer, 'config', '--get', 'core.hooksPath').stdout).toBe('');

    const own = checkout();
    git(own, 'init', '-q');
    git(own, 'config', 'core.hooksPath', 'my-hooks');
    expect(install(own)).toContain('core.hooksPath is my-hooks');
    expect(git(own, 'config', '--get', 'core.hooksPath').stdout.trim()).toBe('my-hooks');
  });
});
