// `node bench/uncached.ts [other checkout…]`: response-cache misses of the events list (every URL a new window: the
// index query, and a read of the page's records the gateway does not hold), in demo mode and, with
// BENCH_WP_URL/BENCH_WP_AUTH, over a local WordPress; plus WordPress's own list. Other checkouts named on the command
// line (`git worktree add ../before <commit>`) get a gateway of their own over the same WordPress, loaded in the same
// alternating rounds: what a miss costs on top of its upstream read, side by side. BENCH_WP_CACHE=1 puts a caching
// proxy (bench/caching-upstream.ts) in front of WordPress, so the read itself costs a fraction of a millisecond and the
// gateway's own work is what is measured.
// Bounded and loopback only. Env: BENCH_ROUNDS (3), BENCH_SECONDS (5), BENCH_CONNECTIONS (10), BENCH_ONLY.
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import {
  hasWrk,
  type Load,
  median,
  missUrl,
  pct,
  type Result,
  runLoad,
  type Server,
  startChild,
} from './lib.ts';

/** CPU time (ms) a process's main thread has used so far, from /proc (Linux); undefined elsewhere. */
function mainThreadCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime (fields 14 and 15 of stat), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

interface MissResult extends Result {
  /** The gateway's main-thread CPU time per request (ms), when it could be read. */
  cpuMs?: number;
}

/**
 * Closed-loop load with a unique URL per request (every one a cache miss), measured with fetch: autocannon's
 * id replacement stalled against the gateway over php -S here, so misses are driven directly.
 */
async function misses(
  url: string,
  conns: number,
  secs: number,
  pid?: number,
  unique = true,
): Promise<MissResult> {
  const latencies: number[] = [];
  let non2xx = 0;
  const cpu0 = mainThreadCpuMs(pid);
  const end = performance.now() + secs * 1000;
  await Promise.all(
    Array.from({ length: conns }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        const res = await fetch(unique ? missUrl(url) : url);
        await res.arrayBuffer();
        if (res.status !== 200) non2xx++;
        latencies.push(performance.now() - t);
      }
    }),
  );
  const cpu1 = mainThreadCpuMs(pid);
  const cpuMs = cpu0 === undefined || cpu1 === undefined ? undefined : (cpu1 - cpu0) / latencies.length;
  return {
    rps: latencies.length / secs,
    p50ms: pct(latencies, 50),
    p99ms: pct(latencies, 99),
    non2xx,
    cpuMs,
  };
}

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const LIST = '/wp-json/calendar/events/v1/events?per_page=10';
const env = {
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  POLL_INTERVAL_MS: '0',
};

/** This tree, then the checkouts named on the command line, each measured side by side with the first. */
const trees = [resolve('.'), ...process.argv.slice(2).map((p) => resolve(p))];

/** Starts a gateway of a tree and reads its "Indexed N events [en] in X ms" log line. */
async function gateway(
  extra: Record<string, string>,
  tree = trees[0]!,
): Promise<{ server: Server; indexed: string }> {
  const server = await startChild([`${tree}/src/main.ts`], { ...env, ...extra });
  await fetch(`${server.url}${LIST}`);
  const m = /Indexed (\d+) events \[en\] in (\d+) ms/.exec(server.output());
  return { server, indexed: m ? `${m[1]} events in ${m[2]} ms` : 'see log' };
}

async function main(): Promise<void> {
  const started: Server[] = [];
  const rows: Array<{
    name: string;
    load: Omit<Load, 'seconds'>;
    results: MissResult[];
    note?: string;
    /** The gateway's process, whose main-thread CPU is read around its misses. */
    pid?: number;
    /** The tree of a side-by-side row (a miss at 1 connection over WordPress). */
    tree?: string;
    /** Driven like misses, but the same URL each time (the upstream read, which a caching proxy may answer). */
    repeat?: boolean;
  }> = [];
  try {
    // BENCH_ONLY=wordpress leaves the demo gateway out (it shares the two cores with php -S and MariaDB).
    if (process.env.BENCH_ONLY !== 'wordpress') {
      const demo = await gateway({});
      started.push(demo.server);
      rows.push({
        name: 'gateway, demo mode (mock WordPress)',
        load: { url: `${demo.server.url}${LIST}`, connections, tool: 'autocannon', unique: true },
        results: [],
        note: demo.indexed,
      });
    }
    let wpUrl = process.env.BENCH_WP_URL;
    if (wpUrl && process.env.BENCH_WP_CACHE === '1') {
      const rest = new URL(wpUrl);
      const proxy = await startChild(['bench/caching-upstream.ts', rest.origin]);
      started.push(proxy);
      wpUrl = `${proxy.url}${rest.pathname.replace(/\/+$/, '')}`;
    }
    if (wpUrl) {
      const wp = await gateway({ UPSTREAM_URL: wpUrl, UPSTREAM_AUTH: process.env.BENCH_WP_AUTH ?? '' });
      started.push(wp.server);
      rows.push({
        name: 'gateway over local WordPress',
        load: { url: `${wp.server.url}${LIST}`, connections, tool: 'autocannon', unique: true },
        results: [],
        note: wp.indexed,
      });
      // What a miss costs on top of its one upstream request: both one at a time, side by side.
      rows.push({
        name: 'gateway over local WordPress, 1 conn.',
        load: { url: `${wp.server.url}${LIST}`, connections: 1, tool: 'autocannon', unique: true },
        results: [],
        pid: wp.server.child.pid,
        tree: trees[0],
      });
      for (const tree of trees.slice(1)) {
        const other = await gateway(
          { UPSTREAM_URL: wpUrl, UPSTREAM_AUTH: process.env.BENCH_WP_AUTH ?? '' },
          tree,
        );
        started.push(other.server);
        rows.push({
          name: `  same, ${basename(tree)}`,
          load: { url: `${other.server.url}${LIST}`, connections: 1, tool: 'autocannon', unique: true },
          results: [],
          note: other.indexed,
          pid: other.server.child.pid,
          tree,
        });
      }
      const page = (await (await fetch(`${wp.server.url}${LIST}`)).json()) as { events: { id: number }[] };
      const include = page.events.map((e) => e.id).join(',');
      rows.push({
        name: '  its include= request alone, 1 conn.',
        load: {
          url: `${wpUrl}/wp/v2/tribe_events?include=${include}&per_page=10&orderby=include`,
          connections: 1,
          tool: 'autocannon',
          unique: true,
        },
        results: [],
        repeat: true,
      });
      // php -S closes every connection, which autocannon miscounts (wordpress-upstream.md §4): wrk.
      if (hasWrk()) {
        for (const conns of [connections, 1]) {
          rows.push({
            name: `WordPress wp/v2 list (wrk, ${conns} conn.)`,
            load: { url: `${wpUrl}/wp/v2/tribe_events?per_page=10`, connections: conns, tool: 'wrk' },
            results: [],
          });
        }
      }
    }
    // The demo gateway keeps a core busy for a while after its own load: measure the WordPress rows first.
    if (rows[0]?.name.includes('demo')) rows.push(rows.shift()!);
    for (let r = 0; r < rounds; r++) {
      for (const row of rows) {
        row.results.push(
          row.load.unique
            ? await misses(row.load.url, row.load.connections, seconds, row.pid, !row.repeat)
            : await runLoad({ seconds, ...row.load }),
        );
      }
      process.stderr.write(
        `  round ${r + 1}/${rounds} done: ${rows.map((x) => x.results.at(-1)?.rps.toFixed(1)).join(' / ')} req/s\n`,
      );
    }
    console.log(
      `\n${'cache miss: GET /events?per_page=10'.padEnd(40)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}  index build`,
    );
    for (const row of rows) {
      const med = (f: (x: Result) => number) => median(row.results.map(f));
      console.log(
        `${row.name.padEnd(40)} ${med((x) => x.rps)
          .toFixed(1)
          .padStart(8)} ${med((x) => x.p50ms)
          .toFixed(1)
          .padStart(8)} ${med((x) => x.p99ms)
          .toFixed(1)
          .padStart(8)}  ${row.note ?? ''}`,
      );
    }
    // Side by side: each round's miss p50 less the same round's include= p50, then the median over rounds.
    const alone = rows.find((r) => r.name.includes('include= request alone'));
    if (alone) {
      console.log(`\nwhat a miss adds to its upstream read (1 conn., per-round p50 differences, median)`);
      for (const row of rows.filter((r) => r.tree)) {
        const diffs = row.results.map((x, i) => x.p50ms - alone.results[i]!.p50ms);
        const cpu = row.results.map((x) => x.cpuMs).filter((x): x is number => x !== undefined);
        console.log(
          `${basename(row.tree!).padEnd(24)} ${median(diffs).toFixed(2).padStart(7)} ms  (rounds: ${diffs.map((d) => d.toFixed(2)).join(' ')})` +
            (cpu.length ? `  main-thread CPU per miss ${median(cpu).toFixed(2)} ms` : ''),
        );
      }
      console.log(
        `upstream read alone p50: ${median(alone.results.map((x) => x.p50ms)).toFixed(2)} ms (target: miss less it ≤ 2 ms)`,
      );
    }
    console.log(
      `medians of ${rounds} rounds of ${seconds} s; ${connections} connections unless noted; Node ${process.version}`,
    );
  } finally {
    for (const s of started.reverse()) await s.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
