// The comments of the source say true things about the repository: every file they name exists, and every
// `payframe/...` module they name is an entry of package.json's `exports` (a comment naming a file that moved
// or never came, or a module by a name it does not have, sends a reader nowhere; a shipped .d.ts carries them).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const sources = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.tsx?$/.test(file))
  .map((file) => `src/${file.split('\\').join('/')}`);

/** Every comment of a source file, found by the compiler's parser (so not a `//` inside a string or a URL). */
function commentsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found = new Map<number, string>();
  const visit = (node: ts.Node) => {
    for (const range of [...(ts.getLeadingCommentRanges(text, node.pos) ?? []), ...(ts.getTrailingCommentRanges(text, node.end) ?? [])]) {
      found.set(range.pos, text.slice(range.pos, range.end));
    }
    node.forEachChild(visit);
  };
  visit(source);
  for (const range of ts.getLeadingCommentRanges(text, source.endOfFileToken.pos) ?? [])
    found.set(range.pos, text.slice(range.pos, range.end));
  return [...found.values()];
}

/** Every file of the repository by its name, but what git ignores (node_modules, dist, reports). */
const IGNORED = new Set(['node_modules', 'dist', 'reports', 'test-results', 'playwright-report', '.git', '.sandbox']);
function repositoryFiles(dir = root, into: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (IGNORED.has(entry.name)) continue;
    if (entry.isDirectory()) repositoryFiles(join(dir, entry.name), into);
    else into.push(join(dir, entry.name).slice(root.length));
  }
  return into;
}
const files = repositoryFiles();
const names = new Set(files.map((f) => basename(f)));

// A file's name in prose: a path or a name with an extension, not a call (`response.json()`), not inside a URL or a
// longer word. The built files (dist/, the bundles) are made by the build; the rest must be in the repository.
const FILE = /(?<![\w.:/@-])((?:[\w-]+\/)*[\w-]+(?:\.[\w-]+)*\.(?:md|ts|tsx|mjs|cjs|js|json|css|html))(?![\w(/-])/g;
const BUILT = /^(?:dist\/|payframe\.|frame-bundle\.mjs$|index\.html$)/;

function exists(named: string, from: string): boolean {
  if (!named.includes('/')) return names.has(named);
  return [root, join(root, dirname(from)), join(root, 'src')].some((base) => existsSync(join(base, named)));
}

describe('comments in src/', () => {
  it('name only files that are in the repository', () => {
    const missing: string[] = [];
    for (const file of sources) {
      for (const comment of commentsOf(file)) {
        for (const [, named] of comment.matchAll(FILE)) if (!BUILT.test(named!) && !exists(named!, file)) missing.push(`${file}: ${named}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('name only payframe modules that package.json exports', () => {
    const entries = new Set(Object.keys(pkg.exports).map((key) => (key === '.' ? 'payframe' : `payframe/${key.slice(2)}`)));
    const unknown: string[] = [];
    for (const file of sources) {
      for (const comment of commentsOf(file)) {
        for (const [named] of comment.matchAll(/\bpayframe[:/][\w.-]+(?<!\.)/g)) if (!entries.has(named)) unknown.push(`${file}: ${named}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  // A section number alone (after the word spec, or opening a comment) leaves the reader to guess the document:
  // the service is described by its interface document, and a comment says so ("the interface document's 4.3").
  it('name the document of every section number they cite', () => {
    const BARE = [/\bspec(?:ification)?\s+\d+\.\d+/i, /^(?:\/\/|\/\*+|\*)\s*\d+\.\d+\b/m];
    const bare: string[] = [];
    for (const file of [...sources, ...files.filter((f) => /^test\/.*\.tsx?$/.test(f))]) {
      for (const comment of commentsOf(file)) {
        for (const pattern of BARE) {
          const found = pattern.exec(
            comment
              .split('\n')
              .map((line) => line.trim())
              .join('\n'),
          );
          if (found) bare.push(`${file}: ${found[0]}`);
        }
      }
    }
    expect(bare.join('\n')).toBe('');
  });
});
