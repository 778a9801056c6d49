// The house rules of design.md, checked on the source import graph.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');

/** Runtime imports of a file (type-only imports erase at build time and are skipped). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  const pattern = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/g;
  for (const m of text.matchAll(pattern)) if (!m[1]) found.push(m[2]!);
  for (const m of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1]!);
  return found;
}

function resolveLocal(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find(existsSync);
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Every file an entry reaches at run time, and the bare modules it imports. */
function graph(entry: string) {
  const files = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of importsOf(file)) {
      const local = resolveLocal(file, spec);
      if (local) visit(local);
      else bare.add(spec);
    }
  };
  visit(join(src, entry));
  return { files: [...files].map((f) => relative(src, f)), bare: [...bare] };
}

const layer = (file: string) => relative(src, file).split('/')[0]!;

describe('architecture', () => {
  it('keeps each layer to the imports design.md allows', () => {
    // Runtime imports only: a type-only import erases at build time. tokenize/ (card details → nonce)
    // and fields/ (a card field on an <input>) are shared by the page and the frames.
    const forbidden: Record<string, string[]> = {
      client: ['frame', 'server', 'sandbox', 'http.ts', 'schemas'],
      frame: ['client', 'server', 'sandbox', 'http.ts', 'schemas'],
      protocol: ['client', 'frame', 'server', 'sandbox', 'card', 'tokenize', 'schemas'],
      tokenize: ['client', 'frame', 'protocol', 'fields', 'server', 'sandbox', 'http.ts', 'schemas'],
      fields: ['client', 'frame', 'protocol', 'tokenize', 'server', 'sandbox', 'schemas', 'errors.ts'],
      card: ['schemas', 'client', 'frame', 'protocol', 'tokenize', 'fields', 'server', 'sandbox', 'errors.ts'],
      schemas: ['card', 'client', 'frame', 'protocol', 'tokenize', 'fields', 'server', 'sandbox', 'errors.ts'],
      server: ['client', 'frame', 'protocol', 'tokenize', 'fields', 'sandbox'],
    };
    const broken: string[] = [];
    for (const file of sourceFiles(src)) {
      for (const spec of importsOf(file)) {
        const target = resolveLocal(file, spec);
        if (!target) continue;
        const from = layer(file);
        const to = layer(target);
        if (from !== to && forbidden[from]?.includes(to)) broken.push(`${relative(src, file)} -> ${relative(src, target)}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('lets the browser and server entries run on valibot alone, without node: modules', () => {
    for (const entry of ['index.ts', 'server/index.ts']) {
      const { bare } = graph(entry);
      expect(bare.filter((m) => m !== 'valibot'), entry).toEqual([]);
    }
  });

  it('gives the sandbox nothing beyond node: modules and valibot (the package has no other dependency)', () => {
    const { bare } = graph('sandbox/index.ts');
    expect(bare.filter((m) => !m.startsWith('node:') && m !== 'valibot')).toEqual([]);
  });

  it('keeps valibot out of the page and the frames: the browser bundles stay small', () => {
    for (const entry of ['index.ts', 'script.ts', 'frame/main.ts']) {
      expect(graph(entry).bare, entry).toEqual([]);
    }
  });

  it('keeps the card rules out of the hosted form\'s script-tag bundle (src/script.ts), save the digit folding of the OTP', () => {
    const files = graph('script.ts').files;
    expect(files.filter((f) => (f.startsWith('card/') && f !== 'card/digits.ts') || f.startsWith('tokenize/') || f.startsWith('fields/') && f !== 'fields/state.ts')).toEqual([]);
    expect(files).not.toContain('client/attach.ts');
  });

  it('keeps the card core out of the hosted path: mounting fields needs no card rules on the page', () => {
    expect(graph('client/hosted.ts').files.filter((f) => f.startsWith('card/') || f.startsWith('tokenize/'))).toEqual([]);
  });

  it('builds payframe/react on React and the public entry alone: internal paths are free to move', () => {
    const broken: string[] = [];
    for (const file of sourceFiles(join(src, 'react'))) {
      for (const spec of importsOf(file)) {
        const target = resolveLocal(file, spec);
        const allowed = target ? target === join(src, 'index.ts') || layer(target) === 'react' : /^(react|react-dom|react\/jsx-runtime)$/.test(spec);
        if (!allowed) broken.push(`${relative(src, file)} -> ${spec}`);
      }
    }
    expect(broken).toEqual([]);
    // And nothing else imports it: the rest of payframe knows nothing of React.
    const users = sourceFiles(src).filter((f) => layer(f) !== 'react' && importsOf(f).some((spec) => resolveLocal(f, spec)?.startsWith(join(src, 'react'))));
    expect(users).toEqual([]);
  });

  it('keeps the sandbox out of the browser bundle', () => {
    for (const entry of ['index.ts', 'script.ts']) {
      expect(graph(entry).files.filter((f) => f.startsWith('sandbox/') || f.startsWith('server/')), entry).toEqual([]);
    }
  });

  it('keeps the demo a merchant\'s code: payframe by its package name, never our sources', () => {
    const demo = join(root, 'demo');
    const files = (dir: string, ext: RegExp): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name), ext) : ext.test(e.name) ? [join(dir, e.name)] : []);
    const broken: string[] = [];
    const check = (file: string, allowed: RegExp, within: string) => {
      for (const spec of importsOf(file)) {
        const local = spec.startsWith('.') && resolve(dirname(file), spec).startsWith(within);
        if (!local && !allowed.test(spec)) broken.push(`${relative(root, file)} -> ${spec}`);
      }
    };
    // The shop server: node:http and payframe/server, as a merchant's server would be written.
    for (const file of [join(demo, 'start.mjs'), ...files(join(demo, 'server'), /\.mjs$/)]) {
      check(file, /^(node:|payframe\/server$|payframe\/sandbox$)/, demo);
    }
    // The pages: payframe (the global's types, or the ES module, and its React binding) and React.
    for (const file of files(join(demo, 'web'), /\.tsx?$/)) check(file, /^(payframe|payframe\/react|react|react\/jsx-runtime|react-dom|react-dom\/client)$/, join(demo, 'web'));
    expect(broken).toEqual([]);
  });
});
