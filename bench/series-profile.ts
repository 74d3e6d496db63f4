// Where the series mix's queries spend their time (bench/index-series.ts's kinds, its 20 % weekly series): builds the
// index once, then for each kind times 200 queries and prints the functions by self time and the project's frames by
// inclusive time from a CPU profile (node:inspector). `node --expose-gc bench/series-profile.ts [kind substring]`.
import { Session } from 'node:inspector/promises';
import { listOccurrences } from '../src/index/occurrences/list.ts';
import type { IndexQuery } from '../src/index/query.ts';
import type { WpPost } from '../src/wp/types.ts';
import { benchIndex, fmt, heapNow, tecMapping as mapping, restoreFrom, time } from './index-kit.ts';
import { type CpuProfile, turnOf } from './index-profile.ts';
import { kinds, posts } from './index-series.ts';
import { syntheticPosts } from './synthetic.ts';

const size = Number(process.env.BENCH_SERIES_SIZE ?? 100_000);
const only = process.argv[2];
const before = heapNow();
const index = benchIndex();
await restoreFrom(index, posts(size, true), mapping, size);
console.log(`heap ${((heapNow() - before) / 1e6).toFixed(0)} MB, ${index.repeats.held} occurrences`);

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 50 });
const run = (q: IndexQuery) => listOccurrences(index, q);
async function profile(name: string, body: () => void): Promise<void> {
  await session.post('Profiler.start');
  body();
  const { profile: p } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile };
  console.log(`\n## ${name}\n${turnOf(p, p.startTime, Number.POSITIVE_INFINITY, 12).join('\n')}`);
}
for (const [name, make] of kinds) {
  if (only && !name.includes(only)) continue;
  const [p50] = time(run, make, 1, 200);
  await profile(`${name}: p50 ${fmt(p50)} ms`, () => {
    for (let i = 0; i < 200; i++) run(make(i));
  });
}
if (!only || 'first after a change'.includes(only)) {
  const ms: number[] = [];
  await profile('first default list after a change', () => {
    for (let i = 0; i < 20; i++) {
      const p = [...syntheticPosts(5 * (i + 1))].at(-1) as WpPost;
      (p.meta as Record<string, unknown>)._EventRecurrenceRule = `RRULE:FREQ=WEEKLY;INTERVAL=${1 + (i % 3)}`;
      (p as { modified_gmt: string }).modified_gmt = new Date(Date.now() + i * 1000)
        .toISOString()
        .slice(0, 19);
      index.upsert(p);
      const t1 = performance.now();
      run(kinds[0]![1](i));
      ms.push(performance.now() - t1);
    }
  });
  ms.sort((a, b) => a - b);
  console.log(`first after change p50 ${fmt(ms[10]!)} ms`);
}
