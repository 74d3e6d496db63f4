// Dependencies run one way: no module of `src/` imports, even for a type, a module that imports it back (through any
// number of others). The imports that close today's circles are listed below, to be removed one by one.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));

/** Imports (`from → to`, relative to `src/`) known to close a circle. Shrink it; never add to it. */
const KNOWN: readonly string[] = [];

/** Every module of `src/` and the modules of `src/` it imports (static, type-only, re-exports and `import()`). */
function importGraph(): Map<string, string[]> {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.split('\\').join('/'));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(SRC, file), 'utf8'), true, true);
    const to = importedFiles
      .map((i) => i.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) =>
        relative(SRC, resolve(SRC, dirname(file), name))
          .split('\\')
          .join('/'),
      )
      .filter((name) => known.has(name));
    graph.set(file, [...new Set(to)]);
  }
  return graph;
}

/** The circles of a graph: its strongly connected components with more than one module (or a self-import). */
function circles(graph: Map<string, string[]>): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    order.set(v, order.size);
    low.set(v, order.get(v) as number);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, order.get(w) as number));
    }
    if (low.get(v) !== order.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.includes(v)) out.push(component.sort());
  };
  for (const v of graph.keys()) if (!order.has(v)) visit(v);
  return out;
}

const edge = (line: string): [string, string] => line.split(' → ') as [string, string];

describe('the import graph of src/', () => {
  it('has no circle, type imports included, once the known imports are set aside', () => {
    const graph = importGraph();
    for (const [from, to] of KNOWN.map(edge))
      graph.set(
        from,
        (graph.get(from) ?? []).filter((m) => m !== to),
      );
    expect(circles(graph)).toEqual([]);
  });

  it('lists only known imports that still exist and still close a circle', () => {
    const graph = importGraph();
    const reaches = (from: string, to: string) => {
      const seen = new Set([from]);
      for (const queue = [from]; queue.length > 0; ) {
        for (const next of graph.get(queue.pop() as string) ?? []) {
          if (next === to) return true;
          if (!seen.has(next)) {
            seen.add(next);
            queue.push(next);
          }
        }
      }
      return false;
    };
    for (const line of KNOWN) {
      const [from, to] = edge(line);
      expect(graph.get(from), line).toContain(to);
      expect(reaches(to, from), line).toBe(true);
    }
  });

  it('finds a circle through a type import', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(circles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    const { importedFiles } = ts.preProcessFile(
      "import type { X } from './x.ts';\nexport * from './y.ts';",
      true,
      true,
    );
    expect(importedFiles.map((i) => i.fileName)).toEqual(['./x.ts', './y.ts']);
  });
});
