// `npm run bench:busy`: cached anonymous reads while the site is busy, over a real local WordPress (issue 33).
// - WordPress (wordpress/wp.sh, BENCH_BUSY_WP_PORT, default 9602, or the port it already runs on; its state in
//   BENCH_BUSY_WP_STATE, default .wordpress/busy-bench) and a Redis of its own (BENCH_BUSY_REDIS_PORT, 9605) are
//   started; the gateway runs as `npm start` would, against both.
// - Each round: BENCH_BUSY_RATE (2000) anonymous reads a second over 13 cached list URLs for
//   BENCH_BUSY_SECONDS (10), paced evenly over 50 connections, each read timed from when it fell due
//   (bench/busy/paced.ts; BENCH_BUSY_LOAD=autocannon: autocannon's quota a second, which sends each second's reads in
//   one burst, as this bench did until 2026-12-02; the paced reads' connections stay open across a gateway's phases,
//   and their code is run for 2 s against a server of this process before any phase), first without writes, then with BENCH_BUSY_WRITES (2) event creates a second through the
//   gateway; BENCH_BUSY_ROUNDS (3) rounds. Printed: p50/p99 without → with, their ratio per round, the max, reads over
//   50 ms, reads held of those asked, and the gateway's event-loop lag max without → with the writes: the longest
//   lateness of a 1 ms timer in the gateway (bench/busy/stalls.ts, always preloaded), so a block of the loop reads
//   within 1 ms of its length (the gateway's own lag metric samples every 10 ms: it reads a block up to 10 ms long).
// - Under each round, where the cores' time went in each phase: each core's busy share, and each process's CPU as a
//   share of one core, its main thread apart from its other threads (bench/busy/cpu.ts).
// - Before each mode's rounds, BENCH_BUSY_WARMUP_ROUNDS (1; 0: none) rounds of the same work, not counted: a gateway
//   just started is still compiling its read and write paths and running its start's jobs, and the load generator is
//   compiling its own, all on the pinned core; the warm-up rounds' figures are printed beside the counted ones.
// - BENCH_BUSY_MODES (`pinned,unpinned`): pinned puts WordPress and MariaDB on core 1 and the gateway, Redis and this
//   process (the load generator) on core 0 (taskset); unpinned lets every process use both.
// - The gateway runs under `--cpu-prof` (BENCH_BUSY_PROFILE=0: not): its main thread's tasks over 5 ms during the
//   write phases are listed with the functions they spent their time in.
// - BENCH_BUSY_TASKS=1 also measures the gateway's tasks in main-thread CPU time (bench/busy/tasks.ts, preloaded):
//   those over 5 ms of CPU during the write phases, named from the profile, and how every task of the run spread.
// - BENCH_BUSY_STALLS=1 also prints what each loop-lag spike of the write phases was, and the longest of the phases
//   without writes: the timer's lateness, the main thread's CPU over the gap, and the GC pauses in it.
// - BENCH_BUSY_NODE_FLAGS: more node flags for the gateway (spaces apart), e.g. `--max-semi-space-size=4`.
// - BENCH_COMPARE_DIR: a second checkout (e.g. `git archive main`, with node_modules linked) whose gateway is measured
//   beside this one, round by round (each going first in every other round), so before and after share the
//   machine's load.
// Created events are deleted at the end. The machine is shared: read ratios measured side by side, not absolutes.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type CpuMark, cpuLine, cpuMark } from './busy/cpu.ts';
import { type Phase, Reads, slowAt } from './busy/load.ts';
import { warmGenerator } from './busy/paced.ts';
import { longTasks, profileIn, spentBy, topSelf, windowOf } from './busy/profile.ts';
import { deleteEvents, pin, startRedis, startSite } from './busy/site.ts';
import { GC_KINDS, type GcPause, type Late, lateLine, ownLateMs, type SlowRequest } from './busy/stalls.ts';
import type { MeasuredTask } from './busy/tasks.ts';
import { CACHED_LISTS, median, pct, type Server, startChild } from './lib.ts';

const NS = '/wp-json/calendar/events/v1';
const METRICS = 'bench-busy-metrics-token';
const env = (k: string, d: string) => process.env[k] ?? d;
const RATE = Number(env('BENCH_BUSY_RATE', '2000'));
const SECONDS = Number(env('BENCH_BUSY_SECONDS', '10'));
const ROUNDS = Number(env('BENCH_BUSY_ROUNDS', '3'));
const WARMUP_ROUNDS = Number(env('BENCH_BUSY_WARMUP_ROUNDS', '1'));
const WRITES = Number(env('BENCH_BUSY_WRITES', '2'));
const MODES = env('BENCH_BUSY_MODES', 'pinned,unpinned').split(',');
const PROFILE = env('BENCH_BUSY_PROFILE', '1') !== '0';
const TASKS = env('BENCH_BUSY_TASKS', '0') === '1';
const STALLS = env('BENCH_BUSY_STALLS', '0') === '1';
const LOAD = env('BENCH_BUSY_LOAD', 'paced');
const WP_PORT = Number(env('BENCH_BUSY_WP_PORT', '9602'));
const REDIS_PORT = Number(env('BENCH_BUSY_REDIS_PORT', '9605'));
const here = new URL('../', import.meta.url).pathname;
const WP_STATE = resolve(here, env('BENCH_BUSY_WP_STATE', '.wordpress/busy-bench'));
const dirs = [here, ...(process.env.BENCH_COMPARE_DIR ? [process.env.BENCH_COMPARE_DIR] : [])];

const PATHS = [...CACHED_LISTS, '/events?featured=true', '/events?start_date=2020-01-01'].map((p) => NS + p);
const load = new Reads(LOAD, PATHS, RATE, SECONDS);

interface Round {
  quiet: Phase;
  busy: Phase;
  /** The gateway's loop lag max (a 1 ms timer's longest lateness) over the reads without writes, and with them. */
  quietLagMs: number;
  lagMs: number;
  /** The same less each late firing's wait for a core (the run delay in its gap): the loop's own blocks. */
  quietOwnLagMs: number;
  ownLagMs: number;
  /** Reads of the write phase answered by the fast path, and with a previous answer while a write's drop refilled. */
  how: { fast: number; soft: number };
  creates: number;
  /** The phase without writes and the write phase, µs of the monotonic clock (the CPU profile's). */
  quietFrom: number;
  quietTo: number;
  from: number;
  to: number;
  /** Each core's busy share and each process's CPU over the phase without writes, and with them (bench/busy/cpu.ts). */
  quietCpu: string;
  busyCpu: string;
}

const max = (xs: number[]) => xs.reduce((a, b) => Math.max(a, b), 0);
const usNow = () => Number(process.hrtime.bigint() / 1000n);

const scrapeOf = async (g: Server) =>
  (
    await fetch(`${g.url}/calendar-gateway/v1/metrics`, { headers: { Authorization: `Bearer ${METRICS}` } })
  ).text();

/** How the gateway answered so far: hits of the fast path, and previous answers served while a write's drop refilled. */
async function answered(g: Server): Promise<{ fast: number; soft: number }> {
  const text = await scrapeOf(g);
  const sum = (name: string) =>
    [...text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'gm'))].reduce(
      (a, m) => a + Number(m[1]),
      0,
    );
  return {
    fast: sum('calendar_gateway_fast_path_hits_total'),
    soft: sum('calendar_gateway_cache_soft_answers_total'),
  };
}

const created: number[] = [];
let made = 0;
/** One event in the next weeks, so it lands on the lists being read. */
async function create(g: Server, auth: string): Promise<void> {
  const day = new Date(Date.now() + (1 + (made++ % 40)) * 86_400_000).toISOString().slice(0, 10);
  const res = await fetch(`${g.url}${NS}/events`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(auth).toString('base64')}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({
      title: `Busy bench ${made}`,
      description: `<p>Created by bench:busy, round event ${made}.</p>`,
      start_date: `${day} 18:00:00`,
      end_date: `${day} 20:00:00`,
      status: 'publish',
    }),
  });
  const body = (await res.json()) as { id?: number };
  if (res.status === 201 && body.id) created.push(body.id);
}

/** Fills the cache (twice: a load that raced an invalidation is answered but not stored), then lets refills end. */
async function warm(g: Server): Promise<void> {
  await new Promise((r) => setTimeout(r, 1500));
  for (let i = 0; i < 2; i++) for (const p of PATHS) await (await fetch(g.url + p)).arrayBuffer();
}

/** The processes whose CPU each phase reports: set once the site, its Redis and the gateways run. */
let procsOf: (g: Server) => Record<string, number[]> = () => ({});

async function round(g: Server, auth: string): Promise<Round> {
  await warm(g);
  const mark = (): CpuMark => cpuMark(procsOf(g));
  const quietFrom = usNow();
  const q0 = mark();
  const quiet = await load.phase(g.url);
  const quietCpu = cpuLine(q0, mark());
  const quietTo = usNow();
  await warm(g);
  const before = created.length;
  const was = await answered(g);
  const writes: Array<Promise<void>> = [];
  const timer = setInterval(() => writes.push(create(g, auth).catch(() => {})), 1000 / WRITES);
  const from = usNow();
  const b0 = mark();
  const busy = await load.phase(g.url);
  const busyCpu = cpuLine(b0, mark());
  const to = usNow();
  clearInterval(timer);
  await Promise.all(writes);
  const now = await answered(g);
  const how = { fast: now.fast - was.fast, soft: now.soft - was.soft };
  // The lags are read from the stall meter's file once the gateway has stopped (lagsOf).
  return {
    quiet,
    busy,
    quietLagMs: 0,
    lagMs: 0,
    quietOwnLagMs: 0,
    ownLagMs: 0,
    how,
    creates: created.length - before,
    quietFrom,
    quietTo,
    from,
    to,
    quietCpu,
    busyCpu,
  };
}

/** Each round's loop lag max, without and with writes: the stall meter's longest lateness inside each phase. */
function lagsOf(file: string, rounds: Round[]): void {
  const { late } = JSON.parse(readFileSync(file, 'utf8')) as { late: Late[] };
  const within = (from: number, to: number, of: (l: Late) => number) =>
    late.filter((l) => l.at >= from && l.at <= to).reduce((a, l) => Math.max(a, of(l)), 0);
  const all = (l: Late) => l.lateMs;
  for (const r of rounds) {
    r.quietLagMs = within(r.quietFrom, r.quietTo, all);
    r.lagMs = within(r.from, r.to, all);
    r.quietOwnLagMs = within(r.quietFrom, r.quietTo, ownLateMs);
    r.ownLagMs = within(r.from, r.to, ownLateMs);
  }
}

function report(mode: string, dir: string, rounds: Round[]): void {
  const asked = RATE * SECONDS;
  console.log(`\n${mode}, gateway ${dir}`);
  for (const [i, r] of rounds.entries()) {
    const q = r.quiet.times;
    const b = r.busy.times;
    console.log(
      `  round ${i + 1}: p50 ${pct(q, 50).toFixed(1)} → ${pct(b, 50).toFixed(1)} ms, p99 ${pct(q, 99).toFixed(1)} → ${pct(b, 99).toFixed(1)} ms (${(pct(b, 99) / pct(q, 99)).toFixed(2)}×), max ${max(q).toFixed(0)} → ${max(b).toFixed(0)} ms, over 50 ms ${q.filter((t) => t > 50).length} → ${b.filter((t) => t > 50).length}, held ${q.length} → ${b.length} of ${asked} (in ${(r.quiet.tookMs / 1000).toFixed(1)} → ${(r.busy.tookMs / 1000).toFixed(1)} s), non-2xx ${r.quiet.non2xx + r.busy.non2xx}, creates ${r.creates}, with writes ${r.how.fast} fast-path hits and ${r.how.soft} previous answers, loop lag max ${r.quietLagMs.toFixed(1)} → ${r.lagMs.toFixed(1)} ms (less waits for a core and time off any core ${r.quietOwnLagMs.toFixed(1)} → ${r.ownLagMs.toFixed(1)} ms), the load generator's own loop lag max ${r.quiet.genLagMs.toFixed(1)} → ${r.busy.genLagMs.toFixed(1)} ms`,
    );
    const where = [slowAt(r.quiet), slowAt(r.busy)];
    if (where.some(Boolean))
      console.log(
        `    reads over 50 ms fell due in the 100 ms slices from (without writes / with): ${where[0] || 'none'} / ${where[1] || 'none'}`,
      );
    console.log(`    CPU without writes: ${r.quietCpu}`);
    console.log(`    CPU with writes:    ${r.busyCpu}`);
  }
  const m = (f: (r: Round) => number) => median(rounds.map(f));
  const ratios = rounds.map((r) => pct(r.busy.times, 99) / pct(r.quiet.times, 99));
  const slow = rounds.reduce((a, r) => a + r.busy.times.filter((t) => t > 50).length, 0);
  const over100 = rounds.reduce((a, r) => a + r.busy.times.filter((t) => t > 100).length, 0);
  const busyReads = rounds.reduce((a, r) => a + r.busy.times.length, 0);
  console.log(
    `  medians: p50 ${m((r) => pct(r.quiet.times, 50)).toFixed(2)} → ${m((r) => pct(r.busy.times, 50)).toFixed(2)} ms, p99 ${m((r) => pct(r.quiet.times, 99)).toFixed(2)} → ${m((r) => pct(r.busy.times, 99)).toFixed(2)} ms, ratio ${median(ratios).toFixed(2)}× (rounds ${ratios.map((x) => x.toFixed(2)).join(', ')})`,
  );
  console.log(
    `  with writes: max ${max(rounds.map((r) => max(r.busy.times))).toFixed(0)} ms, over 50 ms ${slow} and over 100 ms ${over100} of ${busyReads}, held ${busyReads} of ${asked * rounds.length} asked, loop lag max ${max(rounds.map((r) => r.lagMs)).toFixed(1)} ms (without writes ${max(rounds.map((r) => r.quietLagMs)).toFixed(1)} ms), less waits for a core and time off any core ${max(rounds.map((r) => r.ownLagMs)).toFixed(1)} ms (without writes ${max(rounds.map((r) => r.quietOwnLagMs)).toFixed(1)} ms)`,
  );
}

function reportTasks(
  profileDir: string,
  windows: Array<{ from: number; to: number }>,
  quietWindows: Array<{ from: number; to: number }>,
): void {
  const file = profileIn(profileDir);
  if (!file) {
    console.log('  (no CPU profile written)');
    return;
  }
  // What the main thread's time went to, without writes and with them: the difference is what the writes cost.
  for (const [name, w] of [
    ['without writes', quietWindows],
    ['with writes', windows],
  ] as const) {
    const s = spentBy(file, w);
    console.log(
      `  main-thread CPU ${name}: ${s.perSecond.toFixed(1)} ms a second; by the project's innermost frame:`,
    );
    for (const line of s.inner) console.log(`    ${line}`);
    console.log('  by its outermost frame:');
    for (const line of s.outer) console.log(`    ${line}`);
  }
  const tasks = windows.flatMap((w) => longTasks(file, w.from, w.to, 5));
  const ms = tasks.map((t) => t.ms);
  console.log(
    `  main-thread tasks over 5 ms during the writes: ${tasks.length}${tasks.length ? `, longest ${max(ms).toFixed(1)} ms, median ${median(ms).toFixed(1)} ms` : ''}`,
  );
  for (const t of [...tasks].sort((a, b) => b.ms - a.ms).slice(0, 8))
    console.log(`    ${t.ms.toFixed(1)} ms under ${t.own}: ${t.self.slice(0, 3).join('; ')}`);
  if (tasks.length) {
    console.log('  their time by function (self):');
    for (const line of topSelf(tasks, 10)) console.log(`    ${line}`);
  }
}

/** The gateway's tasks in main-thread CPU time (bench/busy/tasks.ts) during the write phases, named from the profile. */
function reportCpuTasks(
  file: string,
  profileDir: string,
  windows: Array<{ from: number; to: number }>,
): void {
  if (!existsSync(file)) {
    console.log('  (no task measurement written)');
    return;
  }
  const { histogram, tasks } = JSON.parse(readFileSync(file, 'utf8')) as {
    histogram: number[];
    tasks: MeasuredTask[];
  };
  const prof = profileIn(profileDir);
  const during = tasks.filter((t) => windows.some((w) => t.at >= w.from && t.at <= w.to));
  const over5 = during.filter((t) => t.cpuMs > 5);
  const all = histogram.reduce((a, b) => a + b, 0);
  console.log(
    `  tasks in main-thread CPU, whole run: ${all} (≤1 ms ${histogram[0]}, ≤2 ${histogram[1]}, ≤5 ${histogram[2]}, ≤10 ${histogram[3]}, ≤20 ${histogram[4]}, >20 ${histogram[5]})`,
  );
  console.log(
    `  during the writes: over 1 ms ${during.length}, over 5 ms ${over5.length}${during.length ? `, longest ${max(during.map((t) => t.cpuMs)).toFixed(1)} ms CPU` : ''}`,
  );
  for (const t of [...during].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, 12)) {
    const w = prof ? windowOf(prof, t.at, t.at + t.wallMs * 1000) : { own: '?', self: [] };
    console.log(
      `    ${t.cpuMs.toFixed(1)} ms CPU (${t.wallMs.toFixed(1)} ms wall), from ${t.by}, under ${w.own}: ${w.self.slice(0, 3).join('; ')}`,
    );
  }
}

/** Each loop-lag spike over 10 ms during the write phases: how late, the CPU in its gap, the GC pauses in it. */
function reportStalls(
  dir: string,
  file: string,
  profileDir: string | undefined,
  windows: Array<{ from: number; to: number }>,
  modes: Array<{ from: number; to: number; mode: string }>,
  quiet: Array<{ from: number; to: number; mode: string }>,
): void {
  console.log(`\nloop-lag spikes of gateway ${dir} during the writes (over 10 ms), and without them:`);
  if (!existsSync(file)) {
    console.log('  (none written)');
    return;
  }
  const { late, gc, slow } = JSON.parse(readFileSync(file, 'utf8')) as {
    late: Late[];
    gc: GcPause[];
    slow: SlowRequest[];
  };
  const inside = (at: number) => windows.some((w) => at >= w.from && at <= w.to);
  const gcDuring = gc.filter((g) => inside(g.at));
  const kinds = (gs: GcPause[]) =>
    GC_KINDS.map(([k, name]) => {
      const of = gs.filter((g) => g.kind === k);
      return of.length ? `${name} ${of.length} (longest ${max(of.map((g) => g.ms)).toFixed(1)} ms)` : '';
    })
      .filter(Boolean)
      .join(', ');
  console.log(`  GC pauses over 1 ms during the writes: ${gcDuring.length}; ${kinds(gcDuring) || 'none'}`);
  const prof = profileDir ? profileIn(profileDir) : undefined;
  const modeOf = (at: number) => modes.find((w) => at >= w.from && at <= w.to)?.mode ?? '?';
  // The longest eight of each mode.
  const spikes = late.filter((x) => inside(x.at) && x.lateMs > 10).sort((a, b) => b.lateMs - a.lateMs);
  const names = [...new Set(modes.map((m) => m.mode))];
  // What of the lateness was the gateway's own work: the most CPU its main thread spent in any late gap.
  for (const m of names) {
    const of = late.filter((x) => inside(x.at) && modeOf(x.at) === m && x.lateMs > 5);
    const own = of.reduce((a, x) => Math.max(a, x.cpuMs), 0);
    console.log(
      `  ${m}: late firings over 5 ms ${of.length}, the most main-thread CPU in one late gap ${own.toFixed(1)} ms (its step plus its lateness)`,
    );
  }
  // Reads the gateway itself took over 50 ms (its request's start to its response's finish), against the load
  // generator's count: the difference waited outside the gateway's handling (in the socket or the load generator).
  for (const m of names) {
    const of = slow.filter((x) => inside(x.at) && modeOf(x.at) === m).sort((a, b) => b.ms - a.ms);
    const read = of.filter((x) => x.method === 'GET');
    console.log(
      `  ${m}: requests the gateway took over 50 ms to answer: reads ${read.length}, writes ${of.length - read.length}${of.length ? ` (longest ${of[0]!.ms.toFixed(1)} ms)` : ''}`,
    );
    for (const x of read.slice(0, 6)) console.log(`    ${x.ms.toFixed(1)} ms, ${x.status} ${x.url}`);
  }
  const show = (l: Late, mode: string) => {
    console.log(`  ${mode}: ${lateLine(l, gc)}`);
    // With a profile: where the gap's samples were.
    if (prof) {
      const w = windowOf(prof, l.at, l.at + (l.lateMs + 5) * 1000);
      console.log(`    under ${w.own}: ${w.self.slice(0, 4).join('; ')}`);
    }
  };
  for (const l of names.flatMap((m) => spikes.filter((x) => modeOf(x.at) === m).slice(0, 8)))
    show(l, modeOf(l.at));
  // The phases without writes too: what stalls the loop there is not a write's (a background job, a collection).
  const quietOf = (at: number) => quiet.find((w) => at >= w.from && at <= w.to)?.mode;
  const calm = late.filter((x) => x.lateMs > 10 && quietOf(x.at)).sort((a, b) => b.lateMs - a.lateMs);
  for (const m of names) {
    const of = calm.filter((x) => quietOf(x.at) === m);
    const own = of.reduce((a, x) => Math.max(a, x.cpuMs), 0);
    console.log(
      `  ${m}, without writes: late firings over 10 ms ${of.length}, the most main-thread CPU in one late gap ${own.toFixed(1)} ms`,
    );
    for (const l of of.slice(0, 4)) show(l, `${m}, without writes`);
  }
}

async function main(): Promise<void> {
  // A site that runs keeps its port: wp.sh refuses to start it on another (a run stopped midway leaves it up).
  const running = existsSync(join(WP_STATE, 'php.pid')) && existsSync(join(WP_STATE, 'port'));
  const port = running ? Number(readFileSync(join(WP_STATE, 'port'), 'utf8')) : WP_PORT;
  process.stderr.write(`Starting WordPress on ${port} (state ${WP_STATE})…\n`);
  const site = startSite(here, WP_STATE, port);
  const redis = startRedis(REDIS_PORT);
  const gateways: Array<{ g: Server; dir: string; prof?: string; tasksFile?: string; stallsFile: string }> =
    [];
  try {
    for (const [i, dir] of dirs.entries()) {
      const prof = PROFILE ? mkdtempSync(join(tmpdir(), 'busy-prof-')) : undefined;
      const flags = prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`, '--cpu-prof-interval=500'] : [];
      const tasksFile = TASKS ? join(mkdtempSync(join(tmpdir(), 'busy-tasks-')), 'tasks.json') : undefined;
      if (tasksFile) flags.push('--import', join(here, 'bench/busy/tasks.ts'));
      flags.push(...(process.env.BENCH_BUSY_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? []));
      const stallsFile = join(mkdtempSync(join(tmpdir(), 'busy-stalls-')), 'stalls.json');
      flags.push('--import', join(here, 'bench/busy/stalls.ts'));
      const g = await startChild([...flags, join(dir, 'src/main.ts')], {
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        UPSTREAM_URL: site.url,
        UPSTREAM_AUTH: site.auth,
        REDIS_URL: `redis://127.0.0.1:${REDIS_PORT}`,
        REDIS_PREFIX: `busy${process.pid}g${i}:`,
        METRICS_TOKEN: METRICS,
        ...(tasksFile ? { BUSY_TASKS_FILE: tasksFile } : {}),
        BUSY_STALLS_FILE: stallsFile,
        BUSY_STALLS_STEP_MS: '1',
        BUSY_STALLS_OVER_MS: '2',
      });
      gateways.push({ g, dir, prof, tasksFile, stallsFile });
    }
    procsOf = (g) => ({
      gateway: [g.child.pid!],
      'load generator': [process.pid],
      Redis: [redis.pid!],
      WordPress: site.pids(),
    });
    // The paced reads' own code compiled before any phase is timed: 2 s of reads of a 48 KB answer from a server of
    // this process, which the gateway never sees.
    if (LOAD === 'paced') await warmGenerator(RATE, 2, 48_000);
    const windows = gateways.map(() => [] as Array<{ from: number; to: number }>);
    const quietWindows = gateways.map(() => [] as Array<{ from: number; to: number }>);
    const quietModeWindows = gateways.map(() => [] as Array<{ from: number; to: number; mode: string }>);
    const modeWindows = gateways.map(() => [] as Array<{ from: number; to: number; mode: string }>);
    const byMode: Array<{ mode: string; results: Round[][] }> = [];
    const warmUps: string[] = [];
    for (const mode of MODES) {
      const pinned = mode === 'pinned';
      pin(site.pids(), pinned ? '1' : '0-1');
      pin([process.pid, redis.pid!, ...gateways.map((x) => x.g.child.pid!)], pinned ? '0' : '0-1');
      const results = gateways.map(() => [] as Round[]);
      for (let r = 0; r < WARMUP_ROUNDS; r++)
        for (const x of gateways) {
          const { quiet, busy } = await round(x.g, site.auth);
          const of = (t: number[]) =>
            `max ${max(t).toFixed(0)} ms, over 50 ms ${t.filter((v) => v > 50).length}, over 100 ms ${t.filter((v) => v > 100).length}`;
          warmUps.push(
            `warm-up round ${r + 1} of ${x.dir}, ${mode}, not counted: without writes ${of(quiet.times)}; with writes ${of(busy.times)}`,
          );
        }
      for (let r = 0; r < ROUNDS; r++) {
        // The gateways take turns at going first, so that neither always follows the other's write phase (whose
        // creates every gateway reads from WordPress).
        for (let k = 0; k < gateways.length; k++) {
          const i = (k + r) % gateways.length;
          const x = gateways[i]!;
          process.stderr.write(`  ${mode}: round ${r + 1}/${ROUNDS}, gateway ${i + 1}/${gateways.length}\n`);
          const res = await round(x.g, site.auth);
          results[i]!.push(res);
          windows[i]!.push({ from: res.from, to: res.to });
          quietWindows[i]!.push({ from: res.quietFrom, to: res.quietTo });
          quietModeWindows[i]!.push({ from: res.quietFrom, to: res.quietTo, mode });
          modeWindows[i]!.push({ from: res.from, to: res.to, mode });
        }
      }
      byMode.push({ mode, results });
    }
    await load.close();
    await Promise.all(gateways.map((x) => x.g.stop()));
    for (const line of warmUps) console.log(line);
    for (const { mode, results } of byMode)
      for (const [i, x] of gateways.entries()) {
        lagsOf(x.stallsFile, results[i]!);
        report(mode, x.dir, results[i]!);
      }
    if (STALLS)
      for (const [i, x] of gateways.entries())
        reportStalls(x.dir, x.stallsFile, x.prof, windows[i]!, modeWindows[i]!, quietModeWindows[i]!);
    for (const [i, x] of gateways.entries()) {
      if (!x.prof) continue;
      console.log(`\nprofile of gateway ${x.dir} (every mode's write phases):`);
      reportTasks(x.prof, windows[i]!, quietWindows[i]!);
      if (x.tasksFile) reportCpuTasks(x.tasksFile, x.prof, windows[i]!);
    }
  } finally {
    // Every core again, also when a round failed: the site may be one that other work uses next.
    pin([process.pid, ...site.pids()], '0-1');
    await Promise.all(gateways.map((x) => x.g.stop()));
    redis.kill();
    await deleteEvents(site, 'tribe_events', created).catch(() => {});
    process.stderr.write(`Deleted ${created.length} created events; WordPress left running (wp.sh stop).\n`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
