// What the README says of the package is true of it: its tables of entries list every code entry of
// package.json's `exports`, and its figures (unpacked bytes, files, packed size) are this build's, as
// `npm pack --dry-run --json` counts them, within 5% (a small change to the code moves them a little;
// a new bundle or a forgotten exclusion moves them more, and the README must say so). Needs dist/ built.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPage } from './readme';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** The rows of the README's table whose header row is `header`. */
function table(header: string): string {
  const text = readPage('README.md');
  const start = text.indexOf(`\n${header}\n`);
  expect(start, `README: a table headed ${header}`).toBeGreaterThan(0);
  const rows = text.slice(start + 1).split('\n');
  return rows
    .slice(
      0,
      rows.findIndex((row) => !row.startsWith('|')),
    )
    .join('\n');
}

describe("the README's tables of the package", () => {
  // A code entry: a module (`types` and `default`) or a script file; not package.json.
  const code = Object.entries(pkg.exports as Record<string, unknown>)
    .filter(([, target]) => typeof target === 'object' || /\.m?js$/.test(String(target)))
    .map(([key]) => (key === '.' ? 'payframe' : `payframe/${key.slice(2)}`));

  it('finds the code entries of exports', () => {
    expect(code).toEqual(expect.arrayContaining(['payframe', 'payframe/server', 'payframe/react', 'payframe/payframe.umd.min.js']));
    expect(code).not.toContain('payframe/package.json');
  });

  it.each([
    ['the entries', '| entry | runs in | what it does |'],
    ['the package', '| what | where |'],
  ])('%s: every code entry, as `payframe/...` (or its dist/ file)', (_, header) => {
    const rows = table(header);
    const missing = code.filter((entry) => !rows.includes(`\`${entry}\``) && !rows.includes(`\`dist/${entry.slice('payframe/'.length)}\``));
    expect(missing).toEqual([]);
  });
});

describe("the README's package size", () => {
  it('is what npm pack counts, within 5%', () => {
    const said = /package is about ([\d.]+) MB unpacked \(([\d,]+) bytes, (\d+) files, (\d+) KB packed\)/.exec(readPage('README.md'));
    expect(said, 'README: "package is about X MB unpacked (N bytes, F files, K KB packed)"').not.toBeNull();
    const [mb, bytes, files, kb] = said!.slice(1).map((n) => Number(n!.replaceAll(',', '')));
    const [pack] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    );
    const near = (written: number, actual: number) => Math.abs(written - actual) / actual <= 0.05;
    expect(near(bytes!, pack.unpackedSize), `${bytes} bytes written, ${pack.unpackedSize} packed`).toBe(true);
    expect(near(mb! * 1e6, pack.unpackedSize), `${mb} MB written, ${pack.unpackedSize} bytes packed`).toBe(true);
    expect(near(files!, pack.entryCount), `${files} files written, ${pack.entryCount} packed`).toBe(true);
    expect(near(kb! * 1000, pack.size), `${kb} KB written, ${pack.size} bytes packed`).toBe(true);
  });
});

describe("the README's note on npm ci's engine warnings", () => {
  it('names every installed package whose declared Node versions leave out the Node running this suite', () => {
    const { satisfies } = createRequire(import.meta.url)('semver') as { satisfies(version: string, range: string): boolean };
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
    const warned = Object.entries(lock.packages as Record<string, { engines?: { node?: string }; optional?: boolean }>)
      .filter(([path, p]) => path && !p.optional && p.engines?.node && !satisfies(process.version, p.engines.node))
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    const note =
      readPage('README.md')
        .split('\n\n')
        .find((paragraph) => paragraph.includes('EBADENGINE')) ?? '';
    expect(warned.filter((name) => !note.includes(`\`${name}\``))).toEqual([]);
    // And none of them is a dependency of the package itself.
    for (const name of warned) expect(Object.keys(pkg.dependencies ?? {})).not.toContain(name);
  });
});
