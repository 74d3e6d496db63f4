// What the index benchmarks share (bench/index.ts, index-series.ts, geo-index.ts): the TEC mapping, an event index
// with no upstream, and the heap after full collections.
import { readFileSync } from 'node:fs';
import { EventIndex, type IndexClient } from '../src/index/event-index.ts';
import { facetsOf } from '../src/index/facets.ts';
import type { IndexQuery } from '../src/index/query.ts';
import { type Mapping, mappingSchema } from '../src/mapping/schema.ts';
import type { WpPost } from '../src/wp/types.ts';
import { median } from './lib.ts';

export const tecMapping: Mapping = mappingSchema.parse(
  JSON.parse(readFileSync(new URL('../mappings/tec.json', import.meta.url), 'utf8')),
);

const gc = (globalThis as { gc?: () => void }).gc;

/** Heap used plus array buffers, after two full collections when `--expose-gc` gives them. */
export const heapNow = (): number => {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

export const noClient: IndexClient = {
  all: async () => [],
  list: async () => ({ items: [], total: 0, totalPages: 0 }),
  request: async () => {
    throw new Error('no upstream in the index benchmark');
  },
};
export const silent = { info() {}, warn() {} };

/** An empty event index that never asks WordPress (it is filled by `restoring()` or `upsert`). */
export const benchIndex = (mapping: Mapping = tecMapping): EventIndex =>
  new EventIndex({ client: noClient, mapping, language: 'en', logger: silent });

/**
 * Fills `index` from `posts` as a snapshot load does (5000 facets a batch), and resolves once its word postings and
 * warm-ups are done. `size`: rows to reserve ahead, when known.
 */
export async function restoreFrom(
  index: EventIndex,
  posts: Iterable<WpPost>,
  mapping: Mapping = tecMapping,
  size?: number,
): Promise<void> {
  const restoring = index.restoring();
  if (size !== undefined) restoring.reserve(size);
  let batch = [];
  for (const post of posts) {
    batch.push(facetsOf(post, mapping));
    if (batch.length === 5000) {
      restoring.add(batch);
      batch = [];
    }
  }
  restoring.add(batch);
  restoring.finish(null, new Date().toISOString());
  while (index.pendingWords > 0 || index.warming) await new Promise((r) => setImmediate(r));
}

/** The value at percentile `p` of an ascending list. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

/** p50 and p99 (ms) of `make(i)` answered by `run`, `n` queries a run, median over `runs` runs. */
export function time(
  run: (q: IndexQuery) => unknown,
  make: (i: number) => IndexQuery,
  runs: number,
  n = 200,
): [number, number] {
  const p50: number[] = [];
  const p99: number[] = [];
  for (let r = 0; r < runs; r++) {
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const q = make(i + r * n);
      const t0 = performance.now();
      run(q);
      ms.push(performance.now() - t0);
    }
    ms.sort((a, b) => a - b);
    p50.push(percentile(ms, 50));
    p99.push(percentile(ms, 99));
  }
  return [median(p50), median(p99)];
}

/** A figure with 3 significant digits or so, as the tables print them. */
export const fmt = (n: number): string =>
  n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n >= 1 ? n.toFixed(2) : n.toFixed(3);

/** An index's bytes by part (`EventIndex.bytesByPart`), in MB: `part 12.3; part 4.56; …`. */
export const partsOf = (index: EventIndex): string =>
  Object.entries(index.bytesByPart())
    .map(([part, bytes]) => `${part} ${fmt(bytes / 1e6)}`)
    .join('; ');
