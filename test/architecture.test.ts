// The house rules of docs/architecture.md, checked on the source import graph.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');

interface Import {
  spec: string;
  /** Erased at build time: `import type`, `export type`, or a clause whose every name is `type X`. */
  typeOnly: boolean;
}

/** Every import of a file: static (`import`, `export ... from`) and dynamic (`import('...')`). */
function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const found: Import[] = [];
  const pattern = /(?:^|\n)\s*(?:import|export)\s+(type\s)?\s*(?:([^'";]*?)\s+from\s+)?['"]([^'"]+)['"]/g;
  for (const m of text.matchAll(pattern)) {
    const names = /\{([^}]*)\}/.exec(m[2] ?? '')?.[1];
    const allTypes =
      !!names &&
      /^\s*\{/.test(m[2]!) &&
      names
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean)
        .every((n) => n.startsWith('type '));
    found.push({ spec: m[3]!, typeOnly: !!m[1] || allTypes });
  }
  for (const m of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push({ spec: m[1]!, typeOnly: false });
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
    for (const { spec, typeOnly } of importsOf(file)) {
      if (typeOnly) continue;
      const local = resolveLocal(file, spec);
      if (local) visit(local);
      else bare.add(spec);
    }
  };
  visit(join(src, entry));
  return { files: [...files].map((f) => relative(src, f)), bare: [...bare] };
}

const layer = (file: string) => relative(src, file).split('/')[0]!;

/** The import circles of a graph (file -> the files it imports), each as the path that closes it. */
function circlesOf(edges: Map<string, string[]>): string[][] {
  const circles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const walk = (file: string, path: string[]) => {
    state.set(file, 'open');
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === 'open') circles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) walk(next, [...path, next]);
    }
    state.set(file, 'done');
  };
  for (const file of edges.keys()) if (!state.has(file)) walk(file, [file]);
  return circles;
}

describe('architecture', () => {
  it('keeps each room to the rooms below it, types counted, and the rooms in no circle', () => {
    // Every import counts, types included: a room that names another's type is bound to it all the same.
    // shared/ is the middle layer every other stands on; protocol/ is what the page, the frames and their hosts share.
    // `room:types`: that room's types only. At run time schemas/ would bring valibot into the browser, card/ its
    // rules into the page's protocol, and nonce/ stands on the fields' rules, not on the page's messages.
    const allowed: Record<string, string[]> = {
      card: [],
      schemas: [],
      shared: ['schemas:types'],
      protocol: ['card:types', 'schemas:types', 'shared'],
      fields: ['card', 'shared', 'protocol'],
      nonce: ['card', 'schemas:types', 'shared', 'protocol:types', 'fields'],
      client: ['card', 'schemas:types', 'shared', 'protocol', 'fields', 'nonce'],
      frame: ['card', 'shared', 'protocol', 'fields', 'nonce'],
      server: ['card', 'schemas', 'shared', 'protocol'],
      sandbox: ['card', 'schemas', 'shared', 'protocol'],
    };
    const rooms = new Map(Object.entries(allowed).map(([room, below]) => [room, below.map((r) => r.replace(/:types$/, ''))]));
    expect(circlesOf(rooms)).toEqual([]);
    const broken: string[] = [];
    for (const file of sourceFiles(src)) {
      const from = layer(file);
      if (!(from in allowed)) continue;
      for (const { spec, typeOnly } of importsOf(file)) {
        const target = resolveLocal(file, spec);
        if (!target) continue;
        const to = layer(target);
        const may = allowed[from]!.includes(to) || (typeOnly && allowed[from]!.includes(`${to}:types`));
        if (from !== to && !may) broken.push(`${relative(src, file)} -> ${relative(src, target)}${typeOnly ? ' (types)' : ''}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('splits the sandbox and the server along their seams: the model never imports HTTP, the calls never the routes', () => {
    // Types count too: a model that names a route's type is bound to it all the same.
    const seams: [string, string][] = [
      ['sandbox/model', 'sandbox/http'],
      ['server/calls', 'server/routes'],
    ];
    const broken: string[] = [];
    for (const [lower, upper] of seams) {
      for (const file of sourceFiles(join(src, lower))) {
        for (const { spec } of importsOf(file)) {
          const target = resolveLocal(file, spec);
          if (target && relative(src, target).startsWith(`${upper}/`)) broken.push(`${relative(src, file)} -> ${relative(src, target)}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('keeps each folder of src/ small enough to read: at most 1,500 lines in its own files', () => {
    const lines = (dir: string): [string, number][] => {
      const entries = readdirSync(dir, { withFileTypes: true });
      const own = entries.filter((e) => e.isFile() && /\.tsx?$/.test(e.name));
      const count = own.reduce((n, e) => n + readFileSync(join(dir, e.name), 'utf8').split('\n').length, 0);
      return [[relative(src, dir) || '.', count], ...entries.filter((e) => e.isDirectory()).flatMap((e) => lines(join(dir, e.name)))];
    };
    expect(lines(src).filter(([, n]) => n > 1500)).toEqual([]);
  });

  it('has no import circle in src/: static and dynamic imports, types included', () => {
    const edges = new Map(
      sourceFiles(src).map((f) => [
        f,
        importsOf(f)
          .map((i) => resolveLocal(f, i.spec))
          .filter((t): t is string => !!t),
      ]),
    );
    expect(circlesOf(edges).map((c) => c.map((f) => relative(src, f)).join(' -> '))).toEqual([]);
  });

  it('finds a circle when there is one, however long', () => {
    expect(
      circlesOf(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
          ['d', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'c', 'a']]);
    expect(circlesOf(new Map([['a', ['a']]]))).toEqual([['a', 'a']]);
    expect(
      circlesOf(
        new Map([
          ['a', ['b']],
          ['b', []],
          ['c', ['a', 'b']],
        ]),
      ),
    ).toEqual([]);
  });

  it('keeps no loose module in src/ besides the entries', () => {
    const loose = readdirSync(src, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
    expect(loose.sort()).toEqual(['index.ts', 'script.ts']);
  });

  it('lets the browser and server entries run on valibot alone, without node: modules', () => {
    // payframe/frame-bundle is the frame's built script, a module of strings the build makes (scripts/frame-bundle.mjs).
    for (const entry of ['index.ts', 'server/index.ts']) {
      const { bare } = graph(entry);
      expect(
        bare.filter((m) => m !== 'valibot' && m !== 'payframe/frame-bundle'),
        entry,
      ).toEqual([]);
    }
  });

  it('posts and takes messages across windows and among the frames in protocol/port.ts alone: one place checks them', () => {
    const channel = /postMessage|addEventListener\(\s*['"]message['"]|\.onmessage\s*=/;
    const found = sourceFiles(src).filter((f) => channel.test(readFileSync(f, 'utf8')));
    expect(found.map((f) => relative(src, f))).toEqual(['protocol/port.ts']);
  });

  it('keeps the frame page module free of the DOM and of node: modules, for every host', () => {
    expect(importsOf(join(src, 'protocol/frame-page.ts'))).toEqual([]);
  });

  it('gives the sandbox nothing beyond node: modules and valibot (the package has no other dependency)', () => {
    // And the frame's built script, the package's own module, for the hash its pages are served with.
    const { bare } = graph('sandbox/index.ts');
    expect(bare.filter((m) => !m.startsWith('node:') && m !== 'valibot' && m !== 'payframe/frame-bundle')).toEqual([]);
  });

  it('keeps valibot out of the page and the frames: the browser bundles stay small', () => {
    for (const entry of ['index.ts', 'script.ts', 'frame/main.ts']) {
      // Save, for script.ts, the pin of its pending flow: a module of strings the build makes (scripts/pending-chunk.mjs).
      expect(
        graph(entry).bare.filter((m) => entry !== 'script.ts' || m !== 'virtual:payframe-pending-chunk'),
        entry,
      ).toEqual([]);
    }
  });

  it("keeps the card rules out of the hosted form's script-tag bundle (src/script.ts), save the digit folding of the OTP", () => {
    const files = graph('script.ts').files;
    expect(
      files.filter(
        (f) =>
          (f.startsWith('card/') && f !== 'card/digits.ts') ||
          f.startsWith('nonce/') ||
          (f.startsWith('fields/') && f !== 'fields/state.ts'),
      ),
    ).toEqual([]);
    expect(files).not.toContain('client/form/attach.ts');
  });

  it('keeps the card core out of the hosted path: mounting fields needs no card rules on the page', () => {
    expect(graph('client/form/hosted.ts').files.filter((f) => f.startsWith('card/') || f.startsWith('nonce/'))).toEqual([]);
  });

  it('builds payframe/react on React and the public entry alone: internal paths are free to move', () => {
    const broken: string[] = [];
    for (const file of sourceFiles(join(src, 'react'))) {
      for (const { spec } of importsOf(file)) {
        const target = resolveLocal(file, spec);
        const allowed = target
          ? target === join(src, 'index.ts') || layer(target) === 'react'
          : /^(?:react|react-dom|react\/jsx-runtime)$/.test(spec);
        if (!allowed) broken.push(`${relative(src, file)} -> ${spec}`);
      }
    }
    expect(broken).toEqual([]);
    // And nothing else imports it: the rest of payframe knows nothing of React.
    const users = sourceFiles(src).filter(
      (f) => layer(f) !== 'react' && importsOf(f).some(({ spec }) => resolveLocal(f, spec)?.startsWith(join(src, 'react'))),
    );
    expect(users).toEqual([]);
  });

  it('builds payframe/element on the public entry alone, touching nothing at import; nothing else imports it', () => {
    const broken: string[] = [];
    for (const file of sourceFiles(join(src, 'element'))) {
      for (const { spec } of importsOf(file)) {
        const target = resolveLocal(file, spec);
        if (!target || (target !== join(src, 'index.ts') && layer(target) !== 'element')) broken.push(`${relative(src, file)} -> ${spec}`);
      }
    }
    expect(broken).toEqual([]);
    const users = sourceFiles(src).filter(
      (f) => layer(f) !== 'element' && importsOf(f).some(({ spec }) => resolveLocal(f, spec)?.startsWith(join(src, 'element'))),
    );
    expect(users).toEqual([]);
    // The element's class extends HTMLElement, which a server has not: it is made when defined, never at a module's top.
    for (const file of sourceFiles(join(src, 'element'))) {
      const top = readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => /^(?:export )?class .* extends HTMLElement/.test(line));
      expect(top, relative(src, file)).toEqual([]);
    }
  });

  it('keeps the sandbox out of the browser bundle', () => {
    for (const entry of ['index.ts', 'script.ts']) {
      expect(
        graph(entry).files.filter((f) => f.startsWith('sandbox/') || f.startsWith('server/')),
        entry,
      ).toEqual([]);
    }
  });

  it("keeps the demo a merchant's code: payframe by its package name, never our sources", () => {
    const demo = join(root, 'demo');
    const files = (dir: string, ext: RegExp): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name), ext) : ext.test(e.name) ? [join(dir, e.name)] : [],
      );
    const broken: string[] = [];
    const check = (file: string, allowed: RegExp, within: string) => {
      for (const { spec } of importsOf(file)) {
        const local = spec.startsWith('.') && resolve(dirname(file), spec).startsWith(within);
        if (!local && !allowed.test(spec)) broken.push(`${relative(root, file)} -> ${spec}`);
      }
    };
    // The shop server: node:http, payframe/server and its database's drivers (PGlite, node-postgres, ioredis), as a merchant's server would be written.
    for (const file of [join(demo, 'start.mjs'), join(demo, 'shop.mjs'), ...files(join(demo, 'server'), /\.mjs$/)]) {
      check(file, /^(?:node:|payframe\/server$|payframe\/sandbox$|@electric-sql\/pglite$|pg$|ioredis$)/, demo);
    }
    // The pages: payframe (the global's types, or the ES module, and its React binding) and React.
    for (const file of files(join(demo, 'web'), /\.tsx?$/))
      check(file, /^(?:payframe|payframe\/react|react|react\/jsx-runtime|react-dom|react-dom\/client)$/, join(demo, 'web'));
    expect(broken).toEqual([]);
  });
});
