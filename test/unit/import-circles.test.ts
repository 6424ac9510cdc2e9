// No import circles in the product's code, file by file or folder by folder: a circle means two parts that cannot be
// understood (or moved, or tested) apart. Imports are read as TypeScript reads them (type-only ones too: a type
// circle is a design circle), from every source folder but the tests'.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.join(__dirname, '..', '..');
const SKIP = new Set(['node_modules', 'dist', 'test', 'data', 'docs', 'config', 'build']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name.startsWith('.') || SKIP.has(name)) return [];
    if (statSync(full).isDirectory()) return sources(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') && !name.endsWith('.test.ts') ? [full] : [];
  });
}

const files = sources(ROOT).filter((f) => path.dirname(f) !== ROOT);
const known = new Set(files);

/** The project files `file` imports (relative specifiers; packages are not ours). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles.flatMap(({ fileName }) => {
    if (!fileName.startsWith('.')) return [];
    const base = path.resolve(path.dirname(file), fileName.replace(/\.js$/, ''));
    const found = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((f) => known.has(f));
    return found ? [found] : [];
  });
}

/** Strongly connected components of more than one node (Tarjan), each sorted: the circles. */
function circles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const edges = files.map((file) => [file, importsOf(file)] as const);
const relative = (f: string) => path.relative(ROOT, f);

describe('import circles', () => {
  it('reads the imports of the whole tree', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(edges.reduce((n, [, to]) => n + to.length, 0)).toBeGreaterThan(1000);
  });

  it('none between files', () => {
    const graph = new Map(edges.map(([file, to]) => [relative(file), new Set(to.map(relative))]));
    expect(circles(graph)).toEqual([]);
  });

  it('none between folders, at every depth', () => {
    const graph = new Map<string, Set<string>>();
    for (const [file, to] of edges) {
      for (const target of to) {
        // The folders each side is in, pairwise below their common ancestor: core ← api, decider ← builtins, …
        const from = path.dirname(relative(file)).split(path.sep);
        const into = path.dirname(relative(target)).split(path.sep);
        let depth = 0;
        while (depth < from.length && depth < into.length && from[depth] === into[depth]) depth++;
        if (depth === from.length || depth === into.length) continue; // one folder holds the other
        const a = from.slice(0, depth + 1).join('/');
        const b = into.slice(0, depth + 1).join('/');
        if (!graph.has(a)) graph.set(a, new Set());
        graph.get(a)!.add(b);
      }
    }
    expect(circles(graph)).toEqual([]);
  });
});
