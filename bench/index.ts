// `npm run bench:index`: the event index at 10k, 100k and 1M synthetic events (BENCH_INDEX_SIZES). Prints one
// markdown table: query latencies (p50 / p99 in ms, medians of BENCH_INDEX_RUNS runs × 200 queries), the first
// query after a change, heap, snapshot save and load, and the longest event-loop stall of each background job (a
// crawl and polls too, at every size), then the first search for a common word, the longest garbage-collection pause
// of each job (perf_hooks' GC entries), the longest task of each in the main thread's CPU time (what a loaded machine
// does not stretch) and the machine's load.
// BENCH_INDEX_ONLY=phrases stops after the distinct phrase searches (build, heap, query rows, phrases);
// The background jobs alone, one or more at a size: bench/index-jobs.ts (BENCH_INDEX_JOBS).
// BENCH_INDEX_ONLY=geo runs only the near-me rows (bench/geo-index.ts), printed as a table of their own after the rest.
// The reference query (the linear filter and sort the index replaced) runs side by side up to 100k, for the ratio.
// Then bench/index-series.ts: 100k events with 20 % weekly series, one item per occurrence, beside today's.

import { loadavg } from 'node:os';
import { mulberry32 } from '../mocks/seed-data.ts';
import type { EventIndex } from '../src/index/event-index.ts';
import { type EventFacets, facetsOf } from '../src/index/facets.ts';
import { byStart, type IndexQuery, querySorted } from '../src/index/query.ts';
import type { WpPost } from '../src/wp/types.ts';
import { geoRows } from './geo-index.ts';
import { builtIndex, crawlAndPolls, type Job, runsOf, snapshotRun, upstreamPages } from './index-jobs.ts';
import { fmt, heapNow, tecMapping as mapping, partsOf, percentile, time } from './index-kit.ts';
import { seriesTable } from './index-series.ts';
import { median } from './lib.ts';
import { threadCpu } from './run-delay.ts';
import { COMMON, calendarDay, syntheticPosts } from './synthetic.ts';

const sizes = (process.env.BENCH_INDEX_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const runs = Number(process.env.BENCH_INDEX_RUNS ?? 3);
/** Single runs of each background job (snapshot save, load and postings; crawl and polls): each one is printed. */
const JOB_RUNS = Number(process.env.BENCH_INDEX_JOB_RUNS ?? 3);
/** `phrases`: build, heap, the query rows and the distinct phrase searches only (the rest takes minutes at 100k). */
const only = process.env.BENCH_INDEX_ONLY;
const QUERIES = 200;

const pair = ([a, b]: [number, number]) => `${fmt(a)} / ${fmt(b)}`;

/** Today, a year into the synthetic calendar: the default list shows the two years ahead (TEC's default). */
const TODAY = 365;
const ANON = { statuses: ['publish'], page: 1, perPage: 10 };
const kinds: [string, (i: number) => IndexQuery][] = [
  [
    'default list',
    (i) => ({ ...ANON, dates: { startGte: calendarDay(TODAY + (i % 7)), endLte: calendarDay(TODAY + 730) } }),
  ],
  [
    '30-day window',
    (i) => ({ ...ANON, dates: { startGte: calendarDay(i % 900), endLte: calendarDay((i % 900) + 30) } }),
  ],
  [
    'search, common word',
    (i) => ({ ...ANON, search: ['music', 'night', 'live'][i % 3], dates: { startGte: calendarDay(TODAY) } }),
  ],
  [
    'search, rare word or phrase',
    (i) => ({ ...ANON, search: i % 2 ? 'kalo' : '"music night"', dates: { startGte: calendarDay(TODAY) } }),
  ],
  [
    'category + venue filter',
    (i) => ({
      ...ANON,
      categories: [1 + (i % 30)],
      venue: [1000 + (i % 500)],
      dates: { startGte: calendarDay(TODAY) },
    }),
  ],
  [
    'page 50, editor (5 statuses)',
    () => ({
      ...ANON,
      page: 50,
      statuses: ['publish', 'future', 'draft', 'pending', 'private'],
      dates: { startGte: calendarDay(TODAY) },
    }),
  ],
];

/**
 * Two-word phrases of common words, each searched once (`"music night"`): the costliest searches to answer, since both
 * words are in most events and only their text tells whether they stand together. Ordered pairs: 89 distinct, a third per run.
 */
const PHRASES = COMMON.flatMap((a) => COMMON.filter((b) => b !== a).map((b) => `"${a} ${b}"`)).filter(
  // Searched by the rows above already.
  (p) => p !== '"music night"',
);

/**
 * p50 and p90 (ms) of distinct phrase searches as the anonymous default list makes them, and p90 in main-thread CPU
 * time (what a loaded machine does not stretch), medians over the runs.
 */
function distinctPhrases(index: EventIndex): [number, number, number] {
  const per = Math.floor(PHRASES.length / runs);
  const p50: number[] = [];
  const p90: number[] = [];
  const cpu90: number[] = [];
  for (let r = 0; r < runs; r++) {
    const ms: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < per; i++) {
      const q = { ...ANON, search: PHRASES[r * per + i], dates: { startGte: calendarDay(TODAY) } };
      const c0 = threadCpu();
      const t0 = performance.now();
      index.query(q);
      ms.push(performance.now() - t0);
      cpu.push(threadCpu() - c0);
    }
    ms.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    p50.push(percentile(ms, 50));
    p90.push(percentile(ms, 90));
    cpu90.push(percentile(cpu, 90));
  }
  return [median(p50), median(p90), median(cpu90)];
}

async function measure(n: number): Promise<Record<string, string>> {
  const row: Record<string, string> = {};
  const before = heapNow();
  const t0 = performance.now();
  const index = await builtIndex(n);
  row['build from posts (s)'] = ((performance.now() - t0) / 1000).toFixed(1);
  row['index heap (MB)'] = ((heapNow() - before) / 1e6).toFixed(0);
  const parts = partsOf(index);

  for (const [name, make] of kinds)
    row[`${name} p50 / p99 (ms)`] = pair(time((q) => index.query(q), make, runs, QUERIES));
  // Each phrase once, on this index: its rows are found on that query (no earlier search made them).
  const phrases = distinctPhrases(index);
  if (only === 'phrases') {
    row['distinct phrase searches of common words, p50 / p90 (ms) / p90 in main-thread CPU (ms)'] =
      `${pair([phrases[0], phrases[1]])} / ${fmt(phrases[2])}`;
    row['index heap by part after the build (MB)'] = parts;
    row['machine load (1-min average) at the end'] = loadavg()[0].toFixed(1);
    return row;
  }

  // A change, then the first query: an editor saves, a poll applies it, the next list answers.
  const rnd = mulberry32(99);
  const posts = [...syntheticPosts(50, 7)];
  const after: number[] = [];
  for (let i = 0; i < posts.length; i++) {
    const p = posts[i];
    const id = 1 + Math.floor(rnd() * n);
    index.upsert({
      ...p,
      id,
      slug: `event-${id}`,
      modified_gmt: `2030-01-01T00:00:${String(i % 60).padStart(2, '0')}`,
    } as WpPost);
    const t = performance.now();
    index.query(kinds[0][1](i));
    after.push(performance.now() - t);
  }
  row['first query after a change (ms)'] = fmt(median(after));

  // Snapshot: encoded and compressed in chunks, a tick each, then loaded into a new index; JOB_RUNS single runs.
  const save: Job[] = [];
  const load: Job[] = [];
  const words: Job[] = [];
  const first: number[] = [];
  for (let run = 0; run < JOB_RUNS; run++) {
    const r = await snapshotRun(index);
    save.push(r.save);
    load.push(r.load);
    words.push(r.words);
    if (run === 0) {
      row['snapshot save (s) / size (MB) / longest stall (ms)'] =
        `${(r.saveMs / 1000).toFixed(2)} / ${(r.bytes / 1e6).toFixed(0)} / ${fmt(r.save.stall)}`;
      row['snapshot load: ready (s) / longest stall (ms)'] =
        `${(r.loadMs / 1000).toFixed(2)} / ${fmt(r.load.stall)}`;
      row['then search postings (s) / longest stall (ms)'] =
        `${(r.wordsMs / 1000).toFixed(2)} / ${fmt(r.words.stall)}`;
    }
    const copy = r.copy;
    const probe = kinds[0][1](0);
    if (JSON.stringify(copy.query(probe)) !== JSON.stringify(index.query(probe)))
      throw new Error('snapshot round trip: different answers');
    // The first search for each common word on the loaded index (nothing searched it yet): its postings are read
    // and its per-search bits and block counts made on that query.
    if (run === 0)
      for (const [i, word] of ['music', 'night', 'live'].entries()) {
        const q = { ...kinds[2][1](i), search: word };
        const t = performance.now();
        const got = copy.query(q);
        first.push(performance.now() - t);
        if (JSON.stringify(got) !== JSON.stringify(index.query(q)))
          throw new Error(`snapshot round trip: different answers for ${word}`);
      }
  }

  // The reference query over the same events, side by side (up to 100k: it takes seconds a query at 1M).
  let reference = 'not run (the reference takes seconds a query)';
  if (n <= 100_000) {
    const facets: EventFacets[] = [];
    for (const post of syntheticPosts(n)) facets.push(facetsOf(post, mapping));
    facets.sort(byStart);
    const ref = time((q) => querySorted(facets, q), kinds[0][1], runs, 50);
    const now = time((q) => index.query(q), kinds[0][1], runs, 50);
    reference = `${fmt(ref[0])} / ${fmt(now[0])} ms (×${(ref[0] / now[0]).toFixed(0)})`;
  }
  index.stop();

  const crawl: Job[] = [];
  const poll: Job[] = [];
  const bulk: Job[] = [];
  const upstream = upstreamPages(n);
  for (let run = 0; run < JOB_RUNS; run++) {
    const [c, p, b] = await crawlAndPolls(n, upstream);
    crawl.push(c);
    poll.push(p);
    if (b) bulk.push(b);
  }
  const firsts = [crawl[0], poll[0], bulk[0]];
  row['longest stall (ms): crawl / poll of 2000 changes / poll of all'] = firsts
    .map((j) => fmt(j.stall))
    .join(' / ');
  row['default list: reference / columnar, p50'] = reference;
  // Rows added after the ones above (whose order stays, so runs before and after compare line by line).
  row['first search, common word: median / max of 3 words (ms)'] =
    `${fmt(median(first))} / ${fmt(Math.max(...first))}`;
  row['longest GC pause (ms): snapshot save / load / postings'] = [save[0], load[0], words[0]]
    .map((j) => fmt(j.gc))
    .join(' / ');
  row['longest GC pause (ms): crawl / poll of 2000 changes / poll of all'] = firsts
    .map((j) => fmt(j.gc))
    .join(' / ');
  row['longest task in main-thread CPU (ms): snapshot save / load / postings'] = [save[0], load[0], words[0]]
    .map((j) => fmt(j.cpu))
    .join(' / ');
  row['longest task in main-thread CPU (ms): crawl / poll of 2000 changes / poll of all'] = firsts
    .map((j) => fmt(j.cpu))
    .join(' / ');
  // Each job's single runs (issue 33: every one ≤ 20 ms, not only a median): the longest task in main-thread CPU,
  // the longest stall (wall clock, which a loaded machine stretches) and the longest GC pause, run by run.
  const each: [string, Job[]][] = [
    ['snapshot save', save],
    ['snapshot load (before ready)', load],
    ['search postings', words],
    ['crawl', crawl],
    ['poll of 2000 changes', poll],
    ['poll of all', bulk],
  ];
  for (const [name, js] of each)
    row[
      `${name}, runs 1–${js.length}: longest task in CPU / stall / GC pause / stall less waits for a core (ms)`
    ] = runsOf(js);
  row['distinct phrase searches of common words, p50 / p90 (ms) / p90 in main-thread CPU (ms)'] =
    `${pair([phrases[0], phrases[1]])} / ${fmt(phrases[2])}`;
  row['index heap by part after the build (MB)'] = parts;
  row['machine load (1-min average) at the end'] = loadavg()[0].toFixed(1);
  return row;
}

/** The near-me rows (bench/geo-index.ts), as a table of their own: they have one size, 100k events over 5k venues. */
async function geoTable(): Promise<void> {
  process.stderr.write('index benchmark: near me…\n');
  const row = await geoRows(mapping, (run, make) => time(run, make, runs, QUERIES), pair);
  const lines = ['| | |', '|---|---|', ...Object.entries(row).map(([k, v]) => `| ${k} | ${v} |`)];
  lines.push(`| machine load (1-min average) at the end | ${loadavg()[0].toFixed(1)} |`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main(): Promise<void> {
  if (!(globalThis as { gc?: unknown }).gc)
    process.stderr.write('heap figures are rough without --expose-gc (npm run bench:index passes it)\n');
  if (only === 'geo') return geoTable();
  const columns: Record<string, string>[] = [];
  for (const n of sizes) {
    process.stderr.write(`index benchmark: ${n} events…\n`);
    columns.push(await measure(n));
  }
  const names = Object.keys(columns[0]);
  const head = `| | ${sizes.map((n) => (n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`)).join(' | ')} |`;
  const lines = [head, `|---|${sizes.map(() => '---').join('|')}|`];
  for (const name of names) lines.push(`| ${name} | ${columns.map((c) => c[name]).join(' | ')} |`);
  process.stdout.write(`${lines.join('\n')}\n`);
  if (only !== 'phrases') await geoTable();
  // Recurring events beside today's index (BENCH_INDEX_SERIES=0 leaves them out).
  if (only !== 'phrases' && only !== 'geo' && process.env.BENCH_INDEX_SERIES !== '0')
    process.stdout.write(`\n${await seriesTable()}\n`);
}

await main();
