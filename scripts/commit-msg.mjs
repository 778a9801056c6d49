// The commit subject rule: at most 72 characters, no full stop at its end (docs/architecture.md,
// "Contributing"). Run by .githooks/commit-msg with the message's file; exits 1 with the reason.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const MAX_SUBJECT = 72;

/** Why the message's subject breaks the rule, or undefined. Git's own subjects (merges, reverts, fixups) pass. */
export function subjectProblem(message) {
  const subject = message.split('\n').find((line) => line.trim() !== '' && !line.startsWith('#')) ?? '';
  if (/^(?:Merge |Revert "|fixup! |squash! |amend! )/.test(subject)) return undefined;
  const length = [...subject].length;
  if (length > MAX_SUBJECT) return `the subject is ${length} characters; at most ${MAX_SUBJECT}`;
  if (subject.endsWith('.')) return 'the subject ends with a full stop';
  return undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problem = subjectProblem(readFileSync(process.argv[2], 'utf8'));
  if (problem) {
    console.error(`commit refused: ${problem} (docs/architecture.md, "Contributing").`);
    process.exit(1);
  }
}
