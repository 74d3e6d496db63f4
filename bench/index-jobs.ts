// The event index's background jobs as bench/index.ts measures them (snapshot save, load and search postings; a
// crawl, a poll of 2000 changes and a poll in which every event changed), and alone:
//   BENCH_INDEX_SIZES=1000000 BENCH_INDEX_JOBS=bulk node --expose-gc bench/index-jobs.ts
// runs only the jobs named (save, load, postings, crawl, poll, bulk; crawl and poll run before a bulk poll anyway)
// at each size, BENCH_INDEX_JOB_RUNS times (3), and prints each run's longest task in main-thread CPU, longest stall
// and GC pause, the heap and the machine's load. BENCH_INDEX_PROFILE=1 also profiles each run (node:inspector) and
// prints its main-thread tasks over BENCH_INDEX_PROFILE_MS (10) with the functions that took their time.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { COMPACT_MIN_DEAD } from '../src/index/compaction.ts';
import { EventIndex, type IndexClient } from '../src/index/event-index.ts';
import { type EventFacets, facetsOf } from '../src/index/facets.ts';
import { decodeSnapshot, encodeSnapshot } from '../src/index/snapshot-codec.ts';
import type { WpPost } from '../src/wp/types.ts';
import { benchIndex, fmt, heapNow, tecMapping as mapping, noClient, partsOf, silent } from './index-kit.ts';
import { type CpuProfile, turnOf } from './index-profile.ts';
import { runDelayMeter, threadCpu } from './run-delay.ts';
import { syntheticPosts } from './synthetic.ts';

const tick = () => new Promise((r) => setImmediate(r));

/** What one run of a background job did to the event loop (ms): see {@link stall}. */
export interface Job {
  stall: number;
  gc: number;
  cpu: number;
  /** The longest stall less the main thread's wait for a core during it (bench/run-delay.ts): the loop's own block. */
  own: number;
}

/** Garbage-collection pauses (start and duration, ms), as perf_hooks reports them. */
const pauses: { start: number; ms: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) pauses.push({ start: e.startTime, ms: e.duration });
}).observe({ entryTypes: ['gc'] });

/**
 * The longest event-loop stall (ms) while `job` runs, sampled every 5 ms; the longest garbage-collection pause that
 * began meanwhile; and the longest task in the main thread's CPU time (the CPU it used between two turns of a 1 ms
 * timer): what the stall would be on an idle machine, since a loaded one stretches every stall by the time the
 * process waits for a core; and the longest gap between two turns of that timer less the main thread's wait for a
 * core in it (Linux's run delay): the loop's own block, whoever took the core (another process or this one's GC
 * helper threads, which on two cores compete with the main thread).
 */
export async function stall(job: () => Promise<unknown>, label = 'job'): Promise<Job> {
  if (PROFILE) await profiling(true, label);
  const h = monitorEventLoopDelay({ resolution: 5 });
  let cpu = 0;
  let own = 0;
  let last = threadCpu();
  let lastAt = hrMicros();
  let lastWait = waited();
  const turns: Turn[] = [];
  const turn = setInterval(() => {
    const now = threadCpu();
    const at = hrMicros();
    const w = waited();
    cpu = Math.max(cpu, now - last);
    own = Math.max(own, (at - lastAt) / 1000 - 1 - (Number.isNaN(w) ? 0 : w - lastWait));
    lastWait = w;
    if (PROFILE && now - last > PROFILE_MS) turns.push({ from: lastAt, to: at, cpu: now - last });
    last = now;
    lastAt = at;
  }, 1);
  const t0 = performance.now();
  h.enable();
  await job();
  h.disable();
  const t1 = performance.now();
  clearInterval(turn);
  // GC entries are delivered a tick later.
  await new Promise((r) => setImmediate(r));
  const gc = pauses.filter((p) => p.start >= t0 && p.start <= t1).reduce((a, p) => Math.max(a, p.ms), 0);
  pauses.length = 0;
  if (PROFILE) await profiling(false, label, turns);
  return { stall: h.max / 1e6, gc, cpu, own };
}

const waited = runDelayMeter();
const PROFILE = process.env.BENCH_INDEX_PROFILE === '1';
const PROFILE_MS = Number(process.env.BENCH_INDEX_PROFILE_MS ?? 10);
let session: Session | null = null;

/** µs of the monotonic clock, as CPU profiles time their samples. */
const hrMicros = (): number => Number(process.hrtime.bigint() / 1000n);

/** An event-loop turn (µs of the monotonic clock) and its main-thread CPU (ms). */
interface Turn {
  from: number;
  to: number;
  cpu: number;
}

/** Starts (true) or stops a CPU profile of this thread; stopped, prints what its longest turns ran to stderr. */
async function profiling(on: boolean, label: string, turns: Turn[] = []): Promise<void> {
  if (!session) {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 250 });
  }
  if (on) {
    await session.post('Profiler.start');
    return;
  }
  const { profile } = await session.post('Profiler.stop');
  const file = join(tmpdir(), `index-jobs-${process.pid}-${label.replace(/\W+/g, '-')}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  turns.sort((a, b) => b.cpu - a.cpu);
  process.stderr.write(`${label}: ${turns.length} turns over ${PROFILE_MS} ms of CPU (profile ${file})\n`);
  for (const t of turns.slice(0, 4))
    process.stderr.write(
      `  a turn of ${t.cpu.toFixed(1)} ms CPU, ${((t.to - t.from) / 1000).toFixed(1)} ms wall\n    ${turnOf(profile as CpuProfile, t.from, t.to).join('\n    ')}\n`,
    );
}

/** The pages an upstream serves: the crawl's, and the 2000 changes a poll finds (JSON bytes outside the JS heap). */
export interface UpstreamPages {
  pages: Buffer[];
  changedPages: Buffer[];
  changes: number;
}

export function upstreamPages(n: number): UpstreamPages {
  const pages: Buffer[] = [];
  const changedPages: Buffer[] = [];
  let page: WpPost[] = [];
  const changes: WpPost[] = [];
  let i = 0;
  for (const p of syntheticPosts(n)) {
    page.push(p);
    if (page.length === 100) {
      pages.push(Buffer.from(JSON.stringify(page)));
      page = [];
    }
    if (i++ % Math.max(1, Math.floor(n / 2000)) === 0 && changes.length < 2000) {
      changes.push({
        ...p,
        modified_gmt: '2030-06-01T00:00:00',
        title: { raw: `changed ${i}`, rendered: '' },
      });
      if (changes.length % 100 === 0) {
        changedPages.push(Buffer.from(JSON.stringify(changes.slice(-100))));
      }
    }
  }
  if (page.length) pages.push(Buffer.from(JSON.stringify(page)));
  return { pages, changedPages, changes: changes.length };
}

/** Sets the second digit of the year of every `modified_gmt` of `pages` (20xx or 21xx) (in place: no second copy of the site). */
function restamp(pages: Buffer[], digit: number): void {
  const from = Buffer.from('"modified_gmt":"2');
  for (const b of pages)
    for (let at = b.indexOf(from); at >= 0; at = b.indexOf(from, at + from.length + 1))
      b[at + from.length] = digit;
}

/**
 * A crawl, a poll that finds 2000 changes and a poll in which every event changed, from an upstream that answers
 * each page a tick later: the longest event-loop stall, GC pause and main-thread task of each. The upstream is
 * another process in life, so this one holds its pages as the bytes it would send (JSON, outside the JS heap), and
 * the index decodes and parses each page as the HTTP client would.
 */
export async function crawlAndPolls(
  n: number,
  up: UpstreamPages,
  withBulk = true,
): Promise<[Job, Job, Job | null]> {
  const { pages } = up;
  let from = pages;
  const upstream: IndexClient = {
    ...noClient,
    list: async <T>(req: { query?: Record<string, unknown> }) => {
      await new Promise((r) => setImmediate(r));
      const q = req.query ?? {};
      const at = Number(q.page ?? 1);
      const items = at <= from.length ? (JSON.parse(from[at - 1].toString('utf8')) as T[]) : [];
      const total = from === pages ? n : up.changes;
      return { items, total, totalPages: from.length };
    },
  };
  let crawled: EventIndex | null = new EventIndex({
    client: upstream,
    mapping,
    language: 'en',
    logger: silent,
  });
  const index = crawled;
  const quiet = { start() {}, update() {}, finish() {}, fail() {} };
  const crawl = await stall(() => index.build(quiet), 'crawl');
  from = up.changedPages;
  let applied = 0;
  const poll = await stall(async () => {
    applied = await index.refresh();
  }, 'poll of 2000 changes');
  if (index.size !== n || applied !== up.changes)
    throw new Error(
      `crawl and poll: ${index.size} events and ${applied} changes, not ${n} and ${up.changes}`,
    );
  if (!withBulk) {
    index.stop();
    return [crawl, poll, null];
  }
  // Then a poll in which every event changed (a bulk edit): every row is replaced, and the replaced rows are
  // compacted away in the background while the poll goes on. Its pages are the crawl's with a later
  // modified_gmt (21xx: the bytes changed in place, and back after the poll for the next run).
  restamp(pages, 0x31);
  from = pages;
  const bulk = await stall(async () => {
    applied = await index.refresh();
    // The compaction this poll started, until it is over. Below its threshold none starts (an index of a few
    // thousand events): waiting for `n / 2` there, as this did, waited for ever.
    while (index.deadRows > Math.max(n / 4, COMPACT_MIN_DEAD)) await new Promise((r) => setImmediate(r));
  }, 'poll of all');
  restamp(pages, 0x30);
  if (applied !== n || index.size !== n) throw new Error(`bulk poll: ${applied} changes, not ${n}`);
  index.stop();
  crawled = null;
  return [crawl, poll, bulk];
}

/** An index of `n` synthetic events filled as a snapshot load fills one, its words posted and searches made ahead. */
export async function builtIndex(n: number): Promise<EventIndex> {
  const index = benchIndex();
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
  // Search postings are built in the background after a load, then the most common searches are made ahead; wait
  // for both, as a serving instance would.
  while (index.pendingWords > 0 || index.warming) await tick();
  return index;
}

/** One run of the snapshot jobs: a save, a load into a new index (returned) and its search postings. */
export interface SnapshotRun {
  save: Job;
  load: Job;
  words: Job;
  saveMs: number;
  loadMs: number;
  wordsMs: number;
  bytes: number;
  copy: EventIndex;
}

/** Saves `index` as a snapshot (chunks held in memory), loads it into a new index, and waits for its postings. */
export async function snapshotRun(index: EventIndex): Promise<SnapshotRun> {
  let chunks: Buffer[] = [];
  const t1 = performance.now();
  const save = await stall(async () => {
    chunks = [];
    for await (const c of encodeSnapshot(index)) chunks.push(c);
  }, 'snapshot save');
  const saveMs = performance.now() - t1;
  const bytes = chunks.reduce((a, c) => a + c.length, 0);
  const copy = benchIndex();
  const t2 = performance.now();
  const load = await stall(() => decodeSnapshot(copy, chunks), 'snapshot load');
  const loadMs = performance.now() - t2;
  chunks = [];
  // Then the search postings and the most common searches made ahead (the row's "search postings").
  const words = await stall(async () => {
    while (copy.pendingWords > 0 || copy.warming) await tick();
  }, 'search postings');
  const wordsMs = performance.now() - t2 - loadMs;
  if (copy.size !== index.size)
    throw new Error(`snapshot round trip: ${copy.size} events, not ${index.size}`);
  return { save, load, words, saveMs, loadMs, wordsMs, bytes, copy };
}

/** Each run's figures of a job, as `cpu / stall / gc / own` lists (ms). */
export function runsOf(js: Job[]): string {
  const of = (k: keyof Job) => js.map((j) => fmt(j[k])).join(', ');
  return `${of('cpu')} / ${of('stall')} / ${of('gc')} / ${of('own')}`;
}

async function alone(): Promise<void> {
  const sizes = (process.env.BENCH_INDEX_SIZES ?? '100000').split(',').map(Number);
  const runs = Number(process.env.BENCH_INDEX_JOB_RUNS ?? 3);
  const want = new Set((process.env.BENCH_INDEX_JOBS ?? 'save,load,postings,crawl,poll,bulk').split(','));
  const out: string[] = [
    '| size | job | runs: longest task in main-thread CPU / longest stall / longest GC pause / longest stall less waits for a core (ms) |',
    '|---|---|---|',
  ];
  const load0 = loadavg()[0].toFixed(1);
  for (const n of sizes) {
    const jobs = new Map<string, Job[]>();
    const add = (name: string, j: Job) => jobs.set(name, [...(jobs.get(name) ?? []), j]);
    if (want.has('save') || want.has('load') || want.has('postings')) {
      const before = heapNow();
      const index = await builtIndex(n);
      out.push(`| ${n} | index heap (MB) | ${((heapNow() - before) / 1e6).toFixed(0)} |`);
      out.push(`| ${n} | index heap by part (MB) | ${partsOf(index)} |`);
      for (let r = 0; r < runs; r++) {
        const run = await snapshotRun(index);
        add('snapshot save', run.save);
        add('snapshot load (before ready)', run.load);
        add('search postings', run.words);
      }
    }
    if (want.has('crawl') || want.has('poll') || want.has('bulk')) {
      const up = upstreamPages(n);
      for (let r = 0; r < runs; r++) {
        const [c, p, b] = await crawlAndPolls(n, up, want.has('bulk'));
        add('crawl', c);
        add('poll of 2000 changes', p);
        if (b) add('poll of all', b);
      }
    }
    for (const [name, js] of jobs) out.push(`| ${n} | ${name} | ${runsOf(js)} |`);
  }
  out.push(`| | machine load (1-min average) at the start / end | ${load0} / ${loadavg()[0].toFixed(1)} |`);
  process.stdout.write(`${out.join('\n')}\n`);
}

if (process.argv[1]?.endsWith('index-jobs.ts')) await alone();
