// `npm run bench:soak`: two gateways sharing Redis over a real WordPress under mixed load for SOAK_SECONDS (600):
// 90 % cached reads, 7 % cache misses, 3 % writes, and an edit in WordPress every 3 s. Every SOAK_SAMPLE_SECONDS
// (30) it prints each instance's full `process.memoryUsage()` (RSS, heap total and used, external, array buffers;
// written by bench/soak-probe.ts, preloaded into each instance), its in-process cache bytes (its Prometheus
// metrics), p50/p99 of the reads of cached URLs in that window (refills after a write's invalidation included), the
// 5xx count and the machine's load; at the end, a table per SOAK_TABLE_SECONDS (300) window and the RSS slope
// (least squares, MB/min) over the last 40 minutes (or everything after the first window, if shorter).
// Heap snapshots of both instances at SOAK_SNAPSHOT_SECONDS (600; 0: none) and at the end (SOAK_END_SNAPSHOT=0: not),
// written with node's `--heapsnapshot-signal`; they, the probe files and samples.json go to .soak/<run>/ (git-ignored).
// WordPress: BENCH_WP_URL/BENCH_WP_AUTH, else the local one of SOAK_WP_DIR (.wordpress/soak; started here unless it
// runs, left running; `npm run wordpress -- stop` with WP_STATE_DIR stops it). Redis: REDIS_URL (default the local server) under a prefix of its own.
// SOAK_ROOT_A / SOAK_ROOT_B: the checkout each instance runs from (default this one), to run two builds side by
// side in one soak; SOAK_ROOT_C (or SOAK_ENV_C) adds a third instance. SOAK_ENV_A / _B / _C: extra environment of
// one instance (`KEY=value,KEY=value`), e.g. MALLOC_ARENA_MAX=2 or LD_PRELOAD=libjemalloc.so.2.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { localWordPress, median, pct, type Server, startChild } from './lib.ts';

const seconds = Number(process.env.SOAK_SECONDS ?? 600);
const sampleSeconds = Number(process.env.SOAK_SAMPLE_SECONDS ?? 30);
const workers = Number(process.env.SOAK_CONNECTIONS ?? 8);
const NS = '/wp-json/calendar/events/v1';
const TOKEN = `soak${process.pid}`;
const root = new URL('../', import.meta.url).pathname;
const snapshotAt = Number(process.env.SOAK_SNAPSHOT_SECONDS ?? 600);
const tableSeconds = Number(process.env.SOAK_TABLE_SECONDS ?? 300);
const endSnapshot = process.env.SOAK_END_SNAPSHOT !== '0';
// Instances a and b, and c when SOAK_ROOT_C or SOAK_ENV_C is set.
const names = process.env.SOAK_ROOT_C || process.env.SOAK_ENV_C ? 'abc' : 'ab';
const roots = [...names].map((n) => resolve(process.env[`SOAK_ROOT_${n.toUpperCase()}`] ?? root));
const runDir = join(root, '.soak', `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`);
const probe = new URL('./soak-probe.ts', import.meta.url).pathname;
const MB = 2 ** 20;
/** A load request that takes longer than this counts as failed, so no worker waits forever. */
const limit = () => AbortSignal.timeout(60_000);

interface Window {
  cached: number[];
  misses: number;
  writes: number;
  edits: number;
  errors5xx: number;
  failed: number;
}
const fresh = (): Window => ({ cached: [], misses: 0, writes: 0, edits: 0, errors5xx: 0, failed: 0 });

async function upstream(): Promise<{ url: string; auth: string }> {
  if (process.env.BENCH_WP_URL && process.env.BENCH_WP_AUTH) {
    return { url: process.env.BENCH_WP_URL, auth: process.env.BENCH_WP_AUTH };
  }
  return localWordPress(resolve(process.env.SOAK_WP_DIR ?? join(root, '.wordpress/soak')));
}

interface Memory {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  cache: number;
}

/** Instance `i`'s memory in MB: its probe's latest `process.memoryUsage()` and its in-process cache's bytes. */
async function memoryOf(g: Server, i: number): Promise<Memory> {
  // Bounded: an instance that does not answer its metrics in time leaves the cache figure out, not the soak stuck.
  const text = await fetch(`${g.url}/calendar-gateway/v1/metrics`, {
    headers: { Authorization: `Bearer ${TOKEN}-metrics-token` },
    signal: AbortSignal.timeout(10_000),
  })
    .then((res) => res.text())
    .catch((e: Error) => {
      console.error(`metrics of instance ${names[i]}: ${e.message}`);
      return '';
    });
  const cache = Number(/^calendar_gateway_cache_bytes(?:\{[^}]*\})? (\S+)$/m.exec(text)?.[1] ?? NaN);
  const m = JSON.parse(readFileSync(join(runDir, `memory-${names[i]}.json`), 'utf8')) as NodeJS.MemoryUsage;
  return {
    rss: m.rss / MB,
    heapTotal: m.heapTotal / MB,
    heapUsed: m.heapUsed / MB,
    external: m.external / MB,
    arrayBuffers: m.arrayBuffers / MB,
    cache: cache / MB,
  };
}

/** Asks both instances for a heap snapshot and waits until each has written one more file. */
async function snapshot(gateways: Server[], label: string): Promise<void> {
  const dirs = gateways.map((_, i) => join(runDir, names[i]!));
  const before = dirs.map((d) => readdirSync(d).length);
  const t = performance.now();
  for (const g of gateways) g.child.kill('SIGUSR2');
  for (const [i, d] of dirs.entries()) {
    // Node writes the file in place: wait until it stops growing.
    for (let k = 0; k < 600; k++) {
      const files = readdirSync(d).filter((f) => f.endsWith('.heapsnapshot'));
      if (files.length > before[i]!) {
        const f = join(d, files.sort().at(-1)!);
        const size = statSync(f).size;
        await new Promise((r) => setTimeout(r, 1000));
        if (size > 0 && statSync(f).size === size) break;
      } else await new Promise((r) => setTimeout(r, 500));
    }
  }
  console.log(
    `heap snapshots (${label}) in ${dirs.join(', ')} (${((performance.now() - t) / 1000).toFixed(1)} s)`,
  );
}

/** Least-squares slope of y over x. */
const slope = (pts: Array<[number, number]>): number => {
  const n = pts.length;
  const mx = pts.reduce((s, p) => s + p[0], 0) / n;
  const my = pts.reduce((s, p) => s + p[1], 0) / n;
  const sxy = pts.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0);
  const sxx = pts.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
  return sxy / sxx;
};

async function main(): Promise<void> {
  const wp = await upstream();
  const basic = { Authorization: `Basic ${Buffer.from(wp.auth).toString('base64')}` };
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    UPSTREAM_URL: wp.url,
    UPSTREAM_AUTH: wp.auth,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `${TOKEN}:`,
    METRICS_TOKEN: `${TOKEN}-metrics-token`,
    LOG_LEVEL: 'warn',
    POLL_INTERVAL_MS: '2000',
  };
  // SOAK_ENV_A / SOAK_ENV_B: extra `KEY=value,KEY=value` for one instance, to compare two settings side by side.
  const extra = (v?: string) =>
    Object.fromEntries(
      (v ?? '')
        .split(',')
        .filter(Boolean)
        .map((kv) => [kv.split('=')[0]!, kv.slice(kv.indexOf('=') + 1)]),
    );
  const start = (i: number, extraEnv?: string) => {
    const dir = join(runDir, names[i]!);
    mkdirSync(dir, { recursive: true });
    const args = [
      '--import',
      probe,
      '--heapsnapshot-signal=SIGUSR2',
      `--diagnostic-dir=${dir}`,
      'src/main.ts',
    ];
    const probeEnv = { SOAK_PROBE_FILE: join(runDir, `memory-${names[i]}.json`) };
    return startChild(args, { ...env, ...probeEnv, ...extra(extraEnv) }, process.execPath, roots[i]);
  };
  const gateways: Server[] = [];
  for (const [i, n] of [...names].entries()) {
    gateways.push(await start(i, process.env[`SOAK_ENV_${n.toUpperCase()}`]));
    console.log(`instance ${n}: ${roots[i]} ${process.env[`SOAK_ENV_${n.toUpperCase()}`] ?? ''}`);
  }
  const created: number[] = [];
  try {
    const first = (await (
      await fetch(`${gateways[0]!.url}${NS}/events?per_page=20&start_date=2000-01-01`)
    ).json()) as {
      events: Array<{ id: number }>;
    };
    const ids = first.events.map((e) => e.id);
    const cachedUrls = [
      `${NS}/events`,
      `${NS}/events?per_page=20&start_date=2000-01-01`,
      `${NS}/venues`,
      `${NS}/organizers`,
      `${NS}/categories`,
      ...ids.slice(0, 10).map((id) => `${NS}/events/${id}`),
    ];
    // Events of the soak's own, edited in WordPress as an editor would.
    const write = (g: Server, body: Record<string, unknown>) =>
      fetch(`${g.url}${NS}/events`, {
        method: 'POST',
        headers: { ...basic, 'Content-Type': 'application/json' },
        body: JSON.stringify({ start_date: '2035-06-06 10:00:00', end_date: '2035-06-06 11:00:00', ...body }),
        signal: limit(),
      });
    for (let i = 0; i < 3; i++) {
      const res = await write(gateways[0]!, { title: `Soak ${TOKEN} edited ${i}` });
      created.push(((await res.json()) as { id: number }).id);
    }

    let window = fresh();
    const t0 = performance.now();
    const end = t0 + seconds * 1000;
    let n = 0;
    const worker = async (w: number) => {
      while (performance.now() < end) {
        const g = gateways[(n++ + w) % gateways.length]!;
        const r = Math.random();
        const t = performance.now();
        try {
          if (r < 0.9) {
            const res = await fetch(`${g.url}${cachedUrls[n % cachedUrls.length]}`, { signal: limit() });
            await res.arrayBuffer();
            window.cached.push(performance.now() - t);
            if (res.status >= 500) window.errors5xx++;
          } else if (r < 0.97) {
            const res = await fetch(`${g.url}${NS}/events?per_page=5&search=${TOKEN}${n}`, {
              signal: limit(),
            });
            await res.arrayBuffer();
            window.misses++;
            if (res.status >= 500) window.errors5xx++;
          } else {
            const res = await write(g, { title: `Soak ${TOKEN} write ${n}` });
            const body = (await res.json()) as { id?: number };
            if (body.id) created.push(body.id);
            window.writes++;
            if (res.status >= 500) window.errors5xx++;
          }
        } catch {
          window.failed++;
        }
      }
    };
    const editor = (async () => {
      let i = 0;
      while (performance.now() < end) {
        await new Promise((r) => setTimeout(r, 3_000));
        const id = created[i++ % 3]!;
        const res = await fetch(`${wp.url}/wp/v2/tribe_events/${id}`, {
          method: 'POST',
          headers: { ...basic, 'Content-Type': 'application/json' },
          body: JSON.stringify({ title: `Soak ${TOKEN} edited ${id} #${i}` }),
        }).catch(() => undefined);
        if (res?.ok) window.edits++;
      }
    })();
    const samples: Array<{
      t: number;
      mem: Memory[];
      p50: number;
      p99: number;
      reads: number;
      misses: number;
      writes: number;
      errors5xx: number;
      failed: number;
      load: number;
    }> = [];
    let snapshotted = snapshotAt <= 0;
    console.log(
      `soak: ${seconds} s, ${workers} connections over ${names.length} instances; per ${sampleSeconds} s window:\n` +
        ` t(s) | RSS ${[...names].join('/')} (MB) | heap total | heap used | external | array buffers | cache (MB) | cached reads | p50 / p99 (ms) | misses | writes | WP edits | 5xx | failed | load 1m`,
    );
    // A sample at every SOAK_SAMPLE_SECONDS mark from t0 and one at the end, never a sliver of a window after the last
    // mark (a timer may fire a fraction of a millisecond early).
    const sampler = (async () => {
      for (let k = 1, last = false; !last; k++) {
        const at = Math.min(t0 + k * sampleSeconds * 1000, end);
        last = at >= end;
        await new Promise((r) => setTimeout(r, Math.max(0, at - performance.now())));
        const w = window;
        window = fresh();
        const mem = await Promise.all(gateways.map(memoryOf)).catch((e: Error) => {
          console.error(`memory sample failed: ${e.message}`);
          return undefined;
        });
        if (!mem) continue;
        const s = {
          t: Math.round((performance.now() - t0) / 1000),
          mem,
          p50: pct(w.cached, 50),
          p99: pct(w.cached, 99),
          reads: w.cached.length,
          misses: w.misses,
          writes: w.writes,
          errors5xx: w.errors5xx,
          failed: w.failed,
          load: loadavg()[0]!,
        };
        samples.push(s);
        const both = (f: (m: Memory) => number, d = 1) => mem.map((m) => f(m).toFixed(d)).join(' / ');
        console.log(
          `${String(s.t).padStart(5)} | ${both((m) => m.rss, 0)} | ${both((m) => m.heapTotal)} | ${both((m) => m.heapUsed)} | ` +
            `${both((m) => m.external)} | ${both((m) => m.arrayBuffers)} | ${both((m) => m.cache)} | ${w.cached.length} | ` +
            `${w.cached.length ? `${s.p50.toFixed(2)} / ${s.p99.toFixed(2)}` : '- / -'} | ${w.misses} | ${w.writes} | ${w.edits} | ${w.errors5xx} | ${w.failed} | ${s.load.toFixed(2)}`,
        );
        writeFileSync(join(runDir, 'samples.json'), JSON.stringify(samples));
        if (!snapshotted && s.t >= snapshotAt) {
          snapshotted = true;
          await snapshot(gateways, `${s.t} s`);
        }
      }
    })();
    await Promise.all([...Array.from({ length: workers }, (_, w) => worker(w)), editor, sampler]);
    if (endSnapshot) await snapshot(gateways, 'end');
    report(samples);
  } finally {
    for (const id of created) {
      await fetch(`${wp.url}/wp/v2/tribe_events/${id}?force=true`, {
        method: 'DELETE',
        headers: basic,
      }).catch(() => undefined);
    }
    await Promise.all(gateways.map((g) => g.stop()));
  }
}

/** The table per SOAK_TABLE_SECONDS window (markdown) and the RSS slope over the last 40 minutes. */
function report(
  samples: Array<{ t: number; mem: Memory[]; p99: number; load: number; reads: number; errors5xx: number }>,
): void {
  // The first window, the first sample at or after each SOAK_TABLE_SECONDS mark, and the last.
  const rows = samples.filter(
    (s, i) =>
      i === 0 ||
      i === samples.length - 1 ||
      Math.floor(s.t / tableSeconds) > Math.floor(samples[i - 1]!.t / tableSeconds),
  );
  const both = (m: Memory[], f: (m: Memory) => number) => m.map((x) => f(x).toFixed(0)).join(' / ');
  console.log(
    `\n| t (min) | RSS ${[...names].join(' / ')} (MB) | heap used | external | array buffers | load 1m |\n|---|---|---|---|---|---|`,
  );
  for (const s of rows) {
    console.log(
      `| ${(s.t / 60).toFixed(1)} | ${both(s.mem, (m) => m.rss)} | ${both(s.mem, (m) => m.heapUsed)} | ` +
        `${both(s.mem, (m) => m.external)} | ${both(s.mem, (m) => m.arrayBuffers)} | ${s.load.toFixed(1)} |`,
    );
  }
  const last = samples.at(-1)?.t ?? 0;
  const from = Math.max(samples[0]?.t ?? 0, last - 40 * 60);
  const tail = samples.filter((s) => s.t > from);
  // A window without a cached read (every connection held by slow writes or misses) has no p99: left out, and counted.
  const timed = tail.filter((s) => s.reads > 0);
  if (tail.length >= 2) {
    for (const i of [...names].keys()) {
      const rss = slope(tail.map((s) => [s.t / 60, s.mem[i]!.rss]));
      const heap = slope(tail.map((s) => [s.t / 60, s.mem[i]!.heapUsed]));
      console.log(
        `instance ${names[i]}: from ${(from / 60).toFixed(1)} to ${(last / 60).toFixed(1)} min RSS slope ` +
          `${rss.toFixed(2)} MB/min, heap used ${heap.toFixed(2)} MB/min; RSS ${tail[0]!.mem[i]!.rss.toFixed(0)} → ` +
          `${tail.at(-1)!.mem[i]!.rss.toFixed(0)} MB (max ${Math.max(...tail.map((s) => s.mem[i]!.rss)).toFixed(0)})`,
      );
    }
    console.log(
      `cached reads p99 per window after warm-up: median ${timed.length ? median(timed.map((s) => s.p99)).toFixed(2) : '-'} ms` +
        `${timed.length < tail.length ? ` (${tail.length - timed.length} windows without a cached read)` : ''}; ` +
        `${samples.reduce((n, s) => n + s.reads, 0)} reads, ${samples.reduce((n, s) => n + s.errors5xx, 0)} 5xx; ` +
        `load 1m median ${median(samples.map((s) => s.load)).toFixed(1)}`,
    );
  }
}

await main();
