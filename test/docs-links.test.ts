// The README is a front door and the docs are linked from it: every relative link and every `#anchor` of
// README.md, docs/**/*.md and bench/README.md leads somewhere, as GitHub renders them.
import { existsSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docPages, readPage } from './readme';

const root = new URL('..', import.meta.url).pathname;

/** The text with fenced blocks blanked (their lines kept, so that line numbers stay) and code spans emptied. */
function prose(markdown: string): string {
  let fence: string | undefined;
  const lines = markdown.split('\n').map((line) => {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && opener !== undefined) {
      fence = opener;
      return '';
    }
    if (fence !== undefined) {
      if (line.trim().startsWith(fence[0]!.repeat(fence.length)) && line.trim().replaceAll(fence[0]!, '') === '') fence = undefined;
      return '';
    }
    return line;
  });
  // A code span ends at the next run of as many backticks, within its paragraph.
  return lines
    .join('\n')
    .replace(
      /(`+)(?!`)((?:(?!\n\s*\n)[\s\S])*?[^`])\1(?!`)/g,
      (_, ticks: string, code: string) => `${ticks}${code.replace(/[^\n]/g, 'x')}${ticks}`,
    );
}

/**
 * The anchors GitHub gives the headings of a page: the heading's text (code spans' content kept, link
 * targets and HTML tags dropped), lower-cased, every character that is not a letter, a mark, a digit,
 * `_`, `-` or a space removed, spaces turned to `-`; a slug seen before gets `-1`, `-2`, ...
 */
export function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const fenced = prose(markdown).split('\n');
  markdown.split('\n').forEach((line, index) => {
    const heading = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (heading === null || fenced[index] === '') return;
    const text = heading[1]!
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replaceAll('`', '');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    let slug = base;
    for (let n = 1; slugs.has(slug); n++) slug = `${base}-${n}`;
    slugs.add(slug);
  });
  return slugs;
}

/** The link targets of a page's prose (inline links, images, reference definitions, HTML href and src), with their line. */
export function linkTargets(markdown: string): { target: string; line: number }[] {
  const text = prose(markdown);
  const found: { target: string; line: number }[] = [];
  const patterns = [
    /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(?:<([^>]*)>|([^\s)]+))(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g,
    /^ {0,3}\[[^\]]+\]:\s*(?:<([^>]*)>|(\S+))/gm,
    /<(?:a|img)\b[^>]*?\s(?:href|src)="([^"]*)"/g,
  ];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      found.push({ target: match[1] || (match[2] ?? ''), line: text.slice(0, match.index).split('\n').length });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}

/**
 * What is wrong with the relative links of `page` (whose text is `markdown`): a file that does not exist
 * (or lies outside the repository), or an anchor no heading of the target page has. `readText` gives a
 * page's text by its path from the root, or undefined when there is no such file.
 */
export function brokenLinks(page: string, markdown: string, readText: (path: string) => string | undefined): string[] {
  const broken: string[] = [];
  for (const { target, line } of linkTargets(markdown)) {
    if (/^[a-z][a-z\d+.-]*:|^\/\//i.test(target)) continue; // https:, mailto:, data:: not a file of this repository
    const hash = target.indexOf('#');
    const path = decodeURI(hash === -1 ? target : target.slice(0, hash));
    const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const resolved = path === '' ? page : path.startsWith('/') ? posix.normalize(path.slice(1)) : posix.join(posix.dirname(page), path);
    const where = `${page}:${line}: ${target}`;
    if (resolved.startsWith('..')) {
      broken.push(`${where}: outside the repository`);
      continue;
    }
    const text = readText(resolved.replace(/\/$/, ''));
    if (text === undefined) broken.push(`${where}: no file ${resolved}`);
    else if (anchor !== undefined && !(resolved.endsWith('.md') && headingSlugs(text).has(anchor)))
      broken.push(`${where}: no heading #${anchor} in ${resolved}`);
  }
  return broken;
}

/** A file's text ('' for a directory or a file that is not Markdown), or undefined when there is none. */
function fromDisk(path: string): string | undefined {
  const file = join(root, path);
  if (!existsSync(file)) return undefined;
  return statSync(file).isFile() && file.endsWith('.md') ? readPage(path) : '';
}

describe('links of the README and the docs', () => {
  it('lead to a file that exists and, with an anchor, to one of its headings', () => {
    const broken = docPages().flatMap((page) => brokenLinks(page, readPage(page), fromDisk));
    expect(broken).toEqual([]);
    expect(docPages().flatMap((page) => linkTargets(readPage(page))).length).toBeGreaterThan(50);
  });

  it('the README is a front door: at most 400 lines, linking every docs page and the benchmark report', () => {
    const readme = readPage('README.md');
    expect(readme.split('\n').length - 1).toBeLessThanOrEqual(400);
    const linked = new Set(linkTargets(readme).map(({ target }) => posix.normalize(target.split('#')[0]!)));
    for (const page of docPages().slice(1)) expect(linked, page).toContain(page);
  });

  it('slugs headings as GitHub does', () => {
    const slugs = headingSlugs(
      [
        '# payframe',
        '## Quick start: a checkout in three files',
        "### The merchant page's Content Security Policy",
        '### `attachForm`: your own inputs',
        '### What `requests()` keeps',
        '## Errors in the library',
        '## Errors in the library',
        '## Errors in the library-1',
        '```md',
        '## Not a heading',
        '```',
        '## العربية und Größe_2 [link](x.md) <b>bold</b>',
      ].join('\n'),
    );
    expect([...slugs]).toEqual([
      'payframe',
      'quick-start-a-checkout-in-three-files',
      'the-merchant-pages-content-security-policy',
      'attachform-your-own-inputs',
      'what-requests-keeps',
      'errors-in-the-library',
      'errors-in-the-library-1',
      'errors-in-the-library-1-1',
      'العربية-und-größe_2-link-bold',
    ]);
  });

  it('finds a missing file, a missing anchor and a link out of the repository, and passes good ones', () => {
    const files: Record<string, string> = {
      'README.md': '# payframe\n\n## Two commands\n',
      'docs/server.md': '# The server companion\n\n## Endpoints payframe calls\n',
      'docs/checkout.png': '',
    };
    const page = [
      '# Guide',
      'See [the README](../README.md), [its commands](../README.md#two-commands), [endpoints](server.md#endpoints-payframe-calls),',
      '![shot](checkout.png), [this page](#guide), [the web](https://example.com/#x) and [a form](<server.md>).',
      'Broken: [gone](sandbox.md), [no anchor](server.md#endpoints), [here](#nowhere), [a wrapped',
      'link](../README.md#install), [out](../../etc/passwd) and [into a picture](checkout.png#top).',
      '`[not a link](nowhere.md)`',
      '```',
      '[nor this](nowhere.md)',
      '```',
      '[ref]: missing.md',
      '<a href="missing.html">html</a>',
    ].join('\n');
    expect(brokenLinks('docs/guide.md', page, (path) => (path === 'docs/guide.md' ? page : files[path]))).toEqual([
      'docs/guide.md:4: sandbox.md: no file docs/sandbox.md',
      'docs/guide.md:4: server.md#endpoints: no heading #endpoints in docs/server.md',
      'docs/guide.md:4: #nowhere: no heading #nowhere in docs/guide.md',
      'docs/guide.md:4: ../README.md#install: no heading #install in README.md',
      'docs/guide.md:5: ../../etc/passwd: outside the repository',
      'docs/guide.md:5: checkout.png#top: no heading #top in docs/checkout.png',
      'docs/guide.md:10: missing.md: no file docs/missing.md',
      'docs/guide.md:11: missing.html: no file docs/missing.html',
    ]);
  });
});
