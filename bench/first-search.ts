// The first search for a common word on the index's columns (every word posted, nothing searched yet), for this tree
// and other checkouts named on the command line, one after another in one process:
//   N=1000000 node --expose-gc bench/first-search.ts ../before
// Prints, per tree, the load and word-posting times and the first and second query of music, night and live (ms).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { calendarDay, syntheticPosts } from './synthetic.ts';

const N = Number(process.env.N ?? 1_000_000);
const roots = [resolve('.'), ...process.argv.slice(2).map((p) => resolve(p))];

for (const root of roots) {
  const { facetsOf } = await import(`${root}/src/index/facets.ts`);
  const { mappingSchema } = await import(`${root}/src/mapping/schema.ts`);
  const { EventColumns } = await import(`${root}/src/index/columns/index.ts`);
  const mapping = mappingSchema.parse(JSON.parse(readFileSync(`${root}/mappings/tec.json`, 'utf8')));
  (globalThis as { gc?: () => void }).gc?.();
  const c = new EventColumns({ background: false });
  c.reserve(N);
  let t = performance.now();
  for (const p of syntheticPosts(N)) c.set(facetsOf(p, mapping));
  const load = performance.now() - t;
  t = performance.now();
  c.indexWords(Number.POSITIVE_INFINITY);
  const words = performance.now() - t;
  const out: string[] = [];
  for (const w of ['music', 'night', 'live']) {
    const q = {
      statuses: ['publish'],
      page: 1,
      perPage: 10,
      search: w,
      dates: { startGte: calendarDay(365) },
    };
    t = performance.now();
    c.query(q);
    const first = performance.now() - t;
    t = performance.now();
    c.query(q);
    out.push(`${w} ${first.toFixed(2)} / ${(performance.now() - t).toFixed(3)}`);
  }
  process.stdout.write(
    `${root}: load ${load.toFixed(0)} ms, words ${words.toFixed(0)} ms; first / second query: ${out.join(', ')}\n`,
  );
}
