// The event index with recurring events (issue 31), beside today's: 100k events (BENCH_SERIES_SIZE), 20 % of them
// weekly series without an end, every query kind of bench/index.ts in a 24-month window from today, answered as a
// list of one item per occurrence (src/index/occurrences/list.ts); and the same events without their rules, answered
// as today. Prints both side by side: build, heap, p50 / p99 (ms, medians of BENCH_INDEX_RUNS runs × 200 queries) and
// the mean main-thread CPU time of a query (what a loaded machine does not stretch).
// Run by `npm run bench:index` after its own table, or alone: `node --expose-gc bench/index-series.ts`.
import { loadavg } from 'node:os';
import { listOccurrences } from '../src/index/occurrences/list.ts';
import type { IndexQuery } from '../src/index/query.ts';
import type { WpPost } from '../src/wp/types.ts';
import { benchIndex, fmt, heapNow, tecMapping as mapping, restoreFrom, time } from './index-kit.ts';
import { median } from './lib.ts';
import { syntheticPosts } from './synthetic.ts';

const size = Number(process.env.BENCH_SERIES_SIZE ?? 100_000);
const runs = Number(process.env.BENCH_INDEX_RUNS ?? 3);
const QUERIES = 200;
const DAY = 86_400_000;

const wall = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const today = Math.floor(Date.now() / DAY) * DAY;
const day = (d: number) => wall(today + d * DAY);

/** Every fifth event a weekly series without an end (half in New York, half in Madrid), when `series`. */
export function* posts(n: number, series: boolean): Generator<WpPost> {
  for (const p of syntheticPosts(n)) {
    if (series && p.id % 5 === 0) {
      const meta = p.meta as Record<string, unknown>;
      meta._EventRecurrenceRule = 'RRULE:FREQ=WEEKLY';
      meta._EventTimezone = p.id % 10 === 0 ? 'America/New_York' : 'Europe/Madrid';
    }
    yield p;
  }
}

const ANON = { statuses: ['publish'], page: 1, perPage: 10 };
const WINDOW = (i: number) => ({ startGte: day(i % 7), endLte: day(730) });
export const kinds: [string, (i: number) => IndexQuery][] = [
  ['default list (24 months)', (i) => ({ ...ANON, dates: WINDOW(i) })],
  ['30-day window', (i) => ({ ...ANON, dates: { startGte: day(i % 700), endLte: day((i % 700) + 30) } })],
  ['search, common word', (i) => ({ ...ANON, search: ['music', 'night', 'live'][i % 3], dates: WINDOW(i) })],
  [
    'search, rare word or phrase',
    (i) => ({ ...ANON, search: i % 2 ? 'kalo' : '"music night"', dates: WINDOW(i) }),
  ],
  [
    'category + venue filter',
    (i) => ({ ...ANON, categories: [1 + (i % 30)], venue: [1000 + (i % 500)], dates: WINDOW(i) }),
  ],
  [
    'page 50, editor (5 statuses)',
    (i) => ({
      ...ANON,
      page: 50,
      statuses: ['publish', 'future', 'draft', 'pending', 'private'],
      dates: WINDOW(i),
    }),
  ],
  ['hide_subsequent_recurrences', (i) => ({ ...ANON, firstOnly: true, dates: WINDOW(i) })],
];

/**
 * The mean main-thread CPU time (ms) of a query kind over 200 queries: the thread's clock counts only the time it
 * ran, which a loaded machine does not stretch (bench/fast-path.ts reads it so). Over all 200 at once: the clock
 * steps too coarsely to time one sub-millisecond query.
 */
function cpuMean(run: (q: IndexQuery) => unknown, make: (i: number) => IndexQuery): number {
  const c = process.threadCpuUsage();
  for (let i = 0; i < QUERIES; i++) run(make(i));
  const d = process.threadCpuUsage(c);
  return (d.user + d.system) / 1000 / QUERIES;
}

async function measure(series: boolean): Promise<Record<string, string>> {
  const row: Record<string, string> = {};
  const before = heapNow();
  const index = benchIndex();
  const t0 = performance.now();
  await restoreFrom(index, posts(size, series), mapping, size);
  row['build from posts (s)'] = ((performance.now() - t0) / 1000).toFixed(1);
  row['index heap (MB)'] = ((heapNow() - before) / 1e6).toFixed(0);
  row['series / occurrences kept'] = series
    ? `${index.repeats.seriesCount} / ${index.repeats.held}`
    : '0 / 0';
  const run = series ? (q: IndexQuery) => listOccurrences(index, q) : (q: IndexQuery) => index.query(q);
  for (const [name, make] of kinds) {
    // Today's index has no series: `firstOnly` lists what it lists anyway.
    const [p50, p99] = time(run, make, runs, QUERIES);
    row[`${name} p50 / p99 (ms)`] = `${fmt(p50)} / ${fmt(p99)}`;
    row[`${name}, main-thread CPU mean (ms)`] = fmt(cpuMean(run, make));
  }
  // The first list after a series changes (the answers cached on the index's version are dropped).
  const first: number[] = [];
  let firstCpu = 0;
  for (let i = 0; i < 20; i++) {
    const p = [...syntheticPosts(5 * (i + 1))].at(-1) as WpPost;
    (p.meta as Record<string, unknown>)._EventRecurrenceRule = series
      ? `RRULE:FREQ=WEEKLY;INTERVAL=${1 + (i % 3)}`
      : '';
    (p as { modified_gmt: string }).modified_gmt = wall(Date.now() + i * 1000);
    index.upsert(p);
    const t1 = performance.now();
    const c = process.threadCpuUsage();
    run(kinds[0]![1](i));
    first.push(performance.now() - t1);
    const d = process.threadCpuUsage(c);
    firstCpu += (d.user + d.system) / 1000 / 20;
  }
  row['first default list after a change, p50 (ms)'] = fmt(median(first));
  row['first default list after a change, main-thread CPU mean (ms)'] = fmt(firstCpu);
  return row;
}

export async function seriesTable(): Promise<string> {
  process.stderr.write(`index benchmark with series: ${size} events, today's then 20 % weekly series…\n`);
  const plain = await measure(false);
  const mixed = await measure(true);
  const lines = [
    `| ${size / 1000}k events | today (no series) | 20 % weekly series without an end, one item per occurrence |`,
    '|---|---|---|',
  ];
  for (const name of Object.keys(mixed)) lines.push(`| ${name} | ${plain[name]} | ${mixed[name]} |`);
  lines.push(`| machine load (1-min average) at the end | ${loadavg()[0]?.toFixed(1)} | |`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${await seriesTable()}\n`);
}
