// `npm run bench:start [-- other checkout…]`: how long /live (…/health) and /ready take to answer while a gateway
// starts. A mock WordPress of BENCH_START_EVENTS (100000) events runs in a child process (bench/feed.ts's, over
// loopback HTTP: in demo mode the mock's own work in the gateway's process would be measured too); each checkout's
// gateway is started on it and probed over one keep-alive connection, one request after another, from the
// moment its port answers until BENCH_START_AFTER_MS (5000) after it is ready; the slowest answers before and after
// ready are printed. A start holds its port's answers for as long as its longest task (issue 33: within 20 ms).
// Env: BENCH_START_RUNS (3, alternating the checkouts); BENCH_START_STALLS (a directory: each gateway runs with the
// stall meter, bench/busy/stalls.ts, writing `<run>-<checkout>.json` there for `node bench/stalls-report.ts`);
// BENCH_START_NODE_OPTIONS (given to the gateways only: `--cpu-prof --cpu-prof-dir=…`, or the task meter's
// `--import ./bench/busy/tasks.ts` with BUSY_TASKS_FILE, for `node bench/start-tasks.ts`); BENCH_START_NODE_FLAGS (node's
// own arguments for the gateways, for the V8 flags NODE_OPTIONS refuses: `--initial-old-space-size=128`).
// Loopback only.
import { Agent, get } from 'node:http';
import { basename, join, resolve } from 'node:path';
import { freePort, gatewayEnv, median, startChild } from './lib.ts';

const EVENTS = process.env.BENCH_START_EVENTS ?? '100000';
const AFTER_MS = Number(process.env.BENCH_START_AFTER_MS ?? 5000);
const RUNS = Number(process.env.BENCH_START_RUNS ?? 3);
const OPS = '/calendar-gateway/v1';

interface Probe {
  /** The slowest answers of /health and /ready before the gateway was ready (ms). */
  before: number[];
  after: number[];
  readyMs: number;
}

/** One request's status and time (ms), over `agent`. */
function timed(agent: Agent, url: string): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((done) => {
    get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => done({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
    }).on('error', () => done({ status: 0, ms: performance.now() - t0 }));
  });
}

async function probe(tree: string, upstream: string, stalls?: string): Promise<Probe> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const t0 = performance.now();
  // Not awaited: startChild resolves once the gateway is ready, and the probing starts as soon as its port answers.
  const nodeFlags = process.env.BENCH_START_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? [];
  const started = startChild([...nodeFlags, `${tree}/src/main.ts`], {
    ...gatewayEnv({ UPSTREAM_URL: upstream, UPSTREAM_AUTH: 'admin:bench-feed-password' }),
    NODE_OPTIONS: [
      stalls && `--import ${resolve('bench/busy/stalls.ts')}`,
      process.env.BENCH_START_NODE_OPTIONS,
    ]
      .filter(Boolean)
      .join(' '),
    ...(stalls ? { BUSY_STALLS_FILE: stalls } : {}),
    PORT: String(port),
  });
  const before: number[] = [];
  const after: number[] = [];
  let readyAt = 0;
  for (;;) {
    const live = await timed(agent, `${base}${OPS}/health`);
    if (live.status === 0) {
      await new Promise((r) => setTimeout(r, 5));
      if (performance.now() - t0 > 120_000) throw new Error(`${tree}: no answer in 2 minutes`);
      continue;
    }
    const ready = await timed(agent, `${base}${OPS}/ready`);
    (readyAt ? after : before).push(live.ms, ready.ms);
    if (!readyAt && ready.status === 200) readyAt = performance.now();
    if (readyAt && performance.now() - readyAt > AFTER_MS) break;
  }
  (await started).child.kill('SIGINT');
  agent.destroy();
  const top = (xs: number[]) => [...xs].sort((a, b) => b - a).slice(0, 3);
  return { before: top(before), after: top(after), readyMs: readyAt - t0 };
}

const trees = [resolve('.'), ...process.argv.slice(2).map((p) => resolve(p))];
const wp = await startChild(['bench/feed.ts', '--upstream', EVENTS]);
const results = new Map<string, Probe[]>(trees.map((t) => [t, []]));
const dir = process.env.BENCH_START_STALLS;
for (let r = 0; r < RUNS; r++)
  for (const tree of r % 2 ? [...trees].reverse() : trees) {
    const p = await probe(tree, `${wp.url}/wp-json`, dir && join(dir, `${r + 1}-${basename(tree)}.json`));
    results.get(tree)!.push(p);
    const f = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');
    console.log(
      `run ${r + 1} ${tree}: ready after ${(p.readyMs / 1000).toFixed(1)} s; slowest /live or /ready answers before ready ${f(p.before)} ms, in the ${AFTER_MS / 1000} s after ${f(p.after)} ms`,
    );
  }
for (const [tree, ps] of results)
  console.log(
    `${tree}: slowest answer before ready, median of ${ps.length} runs ${median(ps.map((p) => p.before[0] ?? 0)).toFixed(1)} ms; after ready ${median(ps.map((p) => p.after[0] ?? 0)).toFixed(1)} ms (${EVENTS} events upstream)`,
  );
wp.child.kill();
