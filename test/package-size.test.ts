// The README's figures for the package (unpacked bytes, files, packed size) are this build's, as
// `npm pack --dry-run --json` counts them, within 5% (a small change to the code moves them a little;
// a new bundle or a forgotten exclusion moves them more, and the README must say so). Needs dist/ built.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { readPage } from './readme';

const root = new URL('..', import.meta.url).pathname;

describe("the README's package size", () => {
  it('is what npm pack counts, within 5%', () => {
    const said = /package is about ([\d.]+) MB unpacked \(([\d,]+) bytes, (\d+) files, (\d+) KB packed\)/.exec(readPage('README.md'));
    expect(said, 'README: "package is about X MB unpacked (N bytes, F files, K KB packed)"').not.toBeNull();
    const [mb, bytes, files, kb] = said!.slice(1).map((n) => Number(n!.replaceAll(',', '')));
    const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    const near = (written: number, actual: number) => Math.abs(written - actual) / actual <= 0.05;
    expect(near(bytes!, pack.unpackedSize), `${bytes} bytes written, ${pack.unpackedSize} packed`).toBe(true);
    expect(near(mb! * 1e6, pack.unpackedSize), `${mb} MB written, ${pack.unpackedSize} bytes packed`).toBe(true);
    expect(near(files!, pack.entryCount), `${files} files written, ${pack.entryCount} packed`).toBe(true);
    expect(near(kb! * 1000, pack.size), `${kb} KB written, ${pack.size} bytes packed`).toBe(true);
  });
});
