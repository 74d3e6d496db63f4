// What the index benchmarks share (bench/index.ts, index-series.ts, geo-index.ts): the TEC mapping, an event index
// with no upstream, and the heap after full collections.
import { readFileSync } from 'node:fs';
import { EventIndex, type IndexClient } from '../src/index/event-index.ts';
import { type Mapping, mappingSchema } from '../src/mapping/schema.ts';

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
