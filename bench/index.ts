// `npm run bench:index`: the event index at 10k, 100k and 1M synthetic events (BENCH_INDEX_SIZES). Prints one
// markdown table: query latencies (p50 / p99 in ms, medians of BENCH_INDEX_RUNS runs × 200 queries), the first
// query after a change, heap, snapshot save and load, and the longest event-loop stall of each background job.
// The reference query (the linear filter and sort the index replaced) runs side by side up to 100k, for the ratio.

import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { mulberry32 } from '../mocks/seed-data.ts';
import { EventIndex, type IndexClient } from '../src/index/event-index.ts';
import { type EventFacets, facetsOf } from '../src/index/facets.ts';
import { byStart, type IndexQuery, querySorted } from '../src/index/query.ts';
import { decodeSnapshot, encodeSnapshot } from '../src/index/snapshot-codec.ts';
import { type Mapping, mappingSchema } from '../src/mapping/schema.ts';
import type { WpPost } from '../src/wp/types.ts';
import { median } from './lib.ts';
import { calendarDay, syntheticPosts } from './synthetic.ts';

const sizes = (process.env.BENCH_INDEX_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const runs = Number(process.env.BENCH_INDEX_RUNS ?? 3);
const QUERIES = 200;
const mapping: Mapping = mappingSchema.parse(
  JSON.parse(readFileSync(new URL('../mappings/tec.json', import.meta.url), 'utf8')),
);

const gc = (globalThis as { gc?: () => void }).gc;
const heapNow = () => {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

const noClient: IndexClient = {
  all: async () => [],
  list: async () => ({ items: [], total: 0, totalPages: 0 }),
  request: async () => {
    throw new Error('no upstream in the index benchmark');
  },
};
const silent = { info() {}, warn() {} };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

/** p50 and p99 (ms) of `make(i)` answered by `run`, median over the runs. */
function time(
  run: (q: IndexQuery) => unknown,
  make: (i: number) => IndexQuery,
  n = QUERIES,
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

const fmt = (n: number) =>
  n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n >= 1 ? n.toFixed(2) : n.toFixed(3);
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

/** The longest event-loop stall (ms) while `job` runs, sampled every 5 ms. */
async function stall(job: () => Promise<unknown>): Promise<number> {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  await job();
  h.disable();
  return h.max / 1e6;
}

async function measure(n: number): Promise<Record<string, string>> {
  const row: Record<string, string> = {};
  const before = heapNow();
  const index = new EventIndex({ client: noClient, mapping, language: 'en', logger: silent });
  const t0 = performance.now();
  const restoring = index.restoring();
  let batch: EventFacets[] = [];
  for (const post of syntheticPosts(n)) {
    batch.push(facetsOf(post, mapping));
    if (batch.length === 5000) {
      restoring.add(batch);
      // As a snapshot load does once its first chunk is in (and a crawl once its first page is).
      if (index.size === batch.length) restoring.reserve(n - batch.length);
      batch = [];
    }
  }
  restoring.add(batch);
  restoring.finish(null, new Date().toISOString());
  // Search postings are built in the background after a load; wait for them, as a serving instance would.
  while (index.pendingWords > 0) await new Promise((r) => setImmediate(r));
  row['build from posts (s)'] = ((performance.now() - t0) / 1000).toFixed(1);
  row['index heap (MB)'] = ((heapNow() - before) / 1e6).toFixed(0);

  for (const [name, make] of kinds) row[`${name} p50 / p99 (ms)`] = pair(time((q) => index.query(q), make));

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

  // Snapshot: encoded and compressed in chunks, a tick each, then loaded into a new index.
  let chunks: Buffer[] = [];
  let bytes = 0;
  const t1 = performance.now();
  const saveStall = await stall(async () => {
    chunks = [];
    for await (const c of encodeSnapshot(index)) chunks.push(c);
  });
  const saveMs = performance.now() - t1;
  bytes = chunks.reduce((a, c) => a + c.length, 0);
  row['snapshot save (s) / size (MB) / longest stall (ms)'] =
    `${(saveMs / 1000).toFixed(2)} / ${(bytes / 1e6).toFixed(0)} / ${fmt(saveStall)}`;
  const copy = new EventIndex({ client: noClient, mapping, language: 'en', logger: silent });
  const t2 = performance.now();
  const loadStall = await stall(() => decodeSnapshot(copy, chunks));
  const loadMs = performance.now() - t2;
  const wordsStall = await stall(async () => {
    while (copy.pendingWords > 0) await new Promise((r) => setImmediate(r));
  });
  row['snapshot load: ready (s) / longest stall (ms)'] = `${(loadMs / 1000).toFixed(2)} / ${fmt(loadStall)}`;
  row['then search postings (s) / longest stall (ms)'] =
    `${((performance.now() - t2 - loadMs) / 1000).toFixed(2)} / ${fmt(wordsStall)}`;
  if (copy.size !== index.size)
    throw new Error(`snapshot round trip: ${copy.size} events, not ${index.size}`);
  const probe = kinds[0][1](0);
  if (JSON.stringify(copy.query(probe)) !== JSON.stringify(index.query(probe)))
    throw new Error('snapshot round trip: different answers');
  chunks = [];

  if (n <= 100_000) {
    // A crawl and a poll that finds 2000 changes, from an upstream that answers each page a tick later: the
    // longest event-loop stall of each. The upstream is another process in life, so this one holds its pages as
    // the bytes it would send (JSON text), and the index parses each page as the HTTP client would.
    const pages: string[] = [];
    const changedPages: string[] = [];
    let page: WpPost[] = [];
    const changes: WpPost[] = [];
    let i = 0;
    for (const p of syntheticPosts(n)) {
      page.push(p);
      if (page.length === 100) {
        pages.push(JSON.stringify(page));
        page = [];
      }
      if (i++ % Math.max(1, Math.floor(n / 2000)) === 0 && changes.length < 2000) {
        changes.push({
          ...p,
          modified_gmt: '2030-06-01T00:00:00',
          title: { raw: `changed ${i}`, rendered: '' },
        });
        if (changes.length % 100 === 0) {
          changedPages.push(JSON.stringify(changes.slice(-100)));
        }
      }
    }
    if (page.length) pages.push(JSON.stringify(page));
    let polled = false;
    const upstream: IndexClient = {
      ...noClient,
      list: async <T>(req: { query?: Record<string, unknown> }) => {
        await new Promise((r) => setImmediate(r));
        const q = req.query ?? {};
        const from = polled && typeof q.modified_after === 'string' ? changedPages : pages;
        const at = Number(q.page ?? 1);
        const items = at <= from.length ? (JSON.parse(from[at - 1]) as T[]) : [];
        const total = from.length === pages.length ? n : changes.length;
        return { items, total, totalPages: from.length };
      },
    };
    const crawled = new EventIndex({ client: upstream, mapping, language: 'en', logger: silent });
    const quiet = { start() {}, update() {}, finish() {}, fail() {} };
    const crawlStall = await stall(() => crawled.build(quiet));
    polled = true;
    let applied = 0;
    const pollStall = await stall(async () => {
      applied = await crawled.refresh();
    });
    if (crawled.size !== n || applied !== changes.length)
      throw new Error(
        `crawl and poll: ${crawled.size} events and ${applied} changes, not ${n} and ${changes.length}`,
      );
    // Then a poll in which every event changed (a bulk edit): every row is replaced, and the replaced rows are
    // compacted away in the background while the poll goes on.
    changedPages.length = 0;
    for (const p of pages) changedPages.push(p.replaceAll('"modified_gmt":"20', '"modified_gmt":"21'));
    const bulkStall = await stall(async () => {
      applied = await crawled.refresh();
      while (crawled.deadRows > n / 2) await new Promise((r) => setImmediate(r));
    });
    if (applied !== n || crawled.size !== n) throw new Error(`bulk poll: ${applied} changes, not ${n}`);
    row['longest stall (ms): crawl / poll of 2000 changes / poll of all'] =
      `${fmt(crawlStall)} / ${fmt(pollStall)} / ${fmt(bulkStall)}`;
    crawled.stop();

    // The reference query over the same events, side by side.
    const facets: EventFacets[] = [];
    for (const post of syntheticPosts(n)) facets.push(facetsOf(post, mapping));
    facets.sort(byStart);
    const ref = time((q) => querySorted(facets, q), kinds[0][1], 50);
    const now = time((q) => index.query(q), kinds[0][1], 50);
    row['default list: reference / columnar, p50'] =
      `${fmt(ref[0])} / ${fmt(now[0])} ms (×${(ref[0] / now[0]).toFixed(0)})`;
  } else {
    row['default list: reference / columnar, p50'] = 'not run (the reference takes seconds a query)';
    row['longest stall (ms): crawl / poll of 2000 changes / poll of all'] = 'not run';
  }
  return row;
}

async function main(): Promise<void> {
  if (!gc)
    process.stderr.write('heap figures are rough without --expose-gc (npm run bench:index passes it)\n');
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
}

await main();
