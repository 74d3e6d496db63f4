// A snapshot load alone, for this tree and other checkouts named on the command line, in alternating rounds in one
// process (a shared machine slows each tree alike):
//   N=100000 node --expose-gc bench/snapshot-load.ts ../main
// Prints per round and tree: wall clock, the main thread's CPU, and the garbage collections during the load (count,
// total and longest, from perf_hooks' GC entries).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { syntheticPosts } from './synthetic.ts';

const N = Number(process.env.N ?? 100_000);
const ROUNDS = Number(process.env.ROUNDS ?? 6);
const roots = [resolve('.'), ...process.argv.slice(2).map((p) => resolve(p))];
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

const pauses: number[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) pauses.push(e.duration);
}).observe({ entryTypes: ['gc'] });

/** Waits for an index's background word posting (and warm-up) to end, so that it does not run in the next load. */
async function settle(index: Loaded): Promise<void> {
  while (index.pendingWords > 0 || index.warming) await new Promise((r) => setImmediate(r));
}

interface Loaded {
  size: number;
  pendingWords: number;
  warming?: boolean;
}
interface Tree {
  root: string;
  make: () => Loaded;
  decode: (index: unknown, chunks: Buffer[]) => Promise<boolean>;
  chunks: Buffer[];
}
const trees: Tree[] = [];
for (const root of roots) {
  const { EventIndex } = await import(`${root}/src/index/event-index.ts`);
  const { facetsOf } = await import(`${root}/src/index/facets.ts`);
  const { byStart } = await import(`${root}/src/index/query.ts`);
  const { mappingSchema } = await import(`${root}/src/mapping/schema.ts`);
  const codec = await import(`${root}/src/index/snapshot-codec.ts`);
  const mapping = mappingSchema.parse(JSON.parse(readFileSync(`${root}/mappings/tec.json`, 'utf8')));
  const client = {
    all: async () => [],
    list: async () => ({ items: [], total: 0, totalPages: 0 }),
    request: async () => {
      throw new Error('no upstream');
    },
  };
  const make = () => new EventIndex({ client, mapping, language: 'en', logger: { info() {}, warn() {} } });
  const index = make();
  const restoring = index.restoring();
  restoring.add([...syntheticPosts(N)].map((p) => facetsOf(p, mapping)).sort(byStart));
  restoring.finish(null, new Date().toISOString());
  await settle(index);
  const chunks: Buffer[] = [];
  for await (const c of codec.encodeSnapshot(index)) chunks.push(c);
  trees.push({ root, make, decode: codec.decodeSnapshot, chunks });
}

for (let round = 0; round < ROUNDS; round++) {
  // Alternating order, so neither tree always runs first.
  for (const t of round % 2 ? [...trees].reverse() : trees) {
    const copy = t.make();
    gc();
    gc();
    // GC entries arrive a while later: the forced collections' ones must be in before counting starts.
    await new Promise((r) => setTimeout(r, 200));
    pauses.length = 0;
    const c0 = process.threadCpuUsage();
    const t0 = performance.now();
    if (!(await t.decode(copy, t.chunks)) || copy.size !== N) throw new Error(`${t.root}: load failed`);
    const wall = performance.now() - t0;
    const c = process.threadCpuUsage(c0);
    await new Promise((r) => setTimeout(r, 50));
    const total = pauses.reduce((a, b) => a + b, 0);
    await settle(copy);
    process.stdout.write(
      `${round} ${t.root}: wall ${wall.toFixed(0)} ms, CPU ${((c.user + c.system) / 1000).toFixed(0)} ms, ` +
        `GCs ${pauses.length}, GC total ${total.toFixed(1)} ms, longest ${Math.max(0, ...pauses).toFixed(1)} ms\n`,
    );
  }
}
