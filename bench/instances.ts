// `npm run bench:instances`: N = 1, 2, 4 gateways sharing Redis behind the shipped deploy/nginx.conf, against one
// WordPress. For each N:
// - cached-read throughput through nginx: wrk (1 thread, INSTANCES_CONNECTIONS 64) on a cached event list for
//   INSTANCES_SECONDS (8), INSTANCES_ROUNDS (3) times, medians of req/s, p50 and p99;
// - a write's invalidation reaching every instance: INSTANCES_WRITES (8) event creates through nginx; after each,
//   every instance is read directly (anonymously, every 5 ms) until its cached list shows the new event. The time
//   from the create's answer to the last instance's first fresh answer: p50 and max over the writes, and the same
//   for the first instance to answer fresh (the added latency of reaching every instance is the difference).
// WordPress: BENCH_WP_URL/BENCH_WP_AUTH, else the local one of .wordpress/instances (started here). Redis: REDIS_URL
// (default the local server) under a prefix of its own. nginx (Debian's nginx-light) and wrk are installed like the
// tests install what they need.
// Extra gateway settings: INSTANCES_ENV (`KEY=value,KEY=value`). Loopback only; every process is stopped at the end.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  aptInstall,
  freePort,
  localWordPress,
  median,
  pct,
  runLoad,
  type Server,
  spawnNginx,
  startChild,
} from './lib.ts';

const NS = '/wp-json/calendar/events/v1';
const root = new URL('../', import.meta.url).pathname;
const TOKEN = `instances${process.pid}`;
const seconds = Number(process.env.INSTANCES_SECONDS ?? 8);
const rounds = Number(process.env.INSTANCES_ROUNDS ?? 3);
const writes = Number(process.env.INSTANCES_WRITES ?? 8);
const connections = Number(process.env.INSTANCES_CONNECTIONS ?? 64);
const counts = (process.env.INSTANCES_N ?? '1,2,4').split(',').map(Number);

/** Each create lands a day before the last, so it heads this list (ascending by start), on its first page. */
const WATCH = `${NS}/events?start_date=${encodeURIComponent('2030-01-01 00:00:00')}&end_date=${encodeURIComponent('2045-12-31 23:59:59')}&per_page=10`;
const READ = `${NS}/events?per_page=10`;

const setup = (script: string, ...args: string[]) =>
  execFileSync('bash', [join(root, 'test/setup', script), ...args], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });

async function upstream(): Promise<{ url: string; auth: string }> {
  if (process.env.BENCH_WP_URL && process.env.BENCH_WP_AUTH) {
    return { url: process.env.BENCH_WP_URL, auth: process.env.BENCH_WP_AUTH };
  }
  return localWordPress(join(root, '.wordpress/instances'));
}

/** nginx with deploy/nginx.conf's site, its upstream block listing `ports`, listening on `front`. */
function startNginx(ports: number[], front: number): { stop(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'cg-instances-'));
  const child = spawnNginx(dir, ports, front);
  return {
    stop: () => {
      child.kill('SIGQUIT');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function until(ok: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await ok().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out');
}

/** Reads `url` until its events include `id`: ms after `t0`. */
async function seen(url: string, id: number, t0: number): Promise<number> {
  for (;;) {
    const body = (await (await fetch(url)).json()) as { events?: Array<{ id: number }> };
    if (body.events?.some((e) => e.id === id)) return performance.now() - t0;
    if (performance.now() - t0 > 30_000) return Number.POSITIVE_INFINITY;
    await new Promise((r) => setTimeout(r, 5));
  }
}

let made = 0;

interface Row {
  n: number;
  rps: number;
  p50: number;
  p99: number;
  /** Per write: ms to the last instance's first fresh answer, and to the first instance's. */
  all: number[];
  first: number[];
}

async function measure(n: number, wp: { url: string; auth: string }, basic: string): Promise<Row> {
  const extra = Object.fromEntries(
    (process.env.INSTANCES_ENV ?? '')
      .split(',')
      .filter(Boolean)
      .map((kv) => [kv.split('=')[0]!, kv.slice(kv.indexOf('=') + 1)]),
  );
  const prefix = `${TOKEN}n${n}:`;
  const gateways: Server[] = [];
  let nginx: { stop(): void } | undefined;
  try {
    for (let i = 0; i < n; i++) {
      gateways.push(
        await startChild([join(root, 'src/main.ts')], {
          PORT: '0',
          HOST: '127.0.0.1',
          UPSTREAM_URL: wp.url,
          UPSTREAM_AUTH: wp.auth,
          REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
          REDIS_PREFIX: prefix,
          LOG_LEVEL: 'silent',
          POLL_INTERVAL_MS: '60000',
          ...extra,
        }),
      );
    }
    const front = await freePort();
    nginx = startNginx(
      gateways.map((g) => Number(new URL(g.url).port)),
      front,
    );
    const base = `http://127.0.0.1:${front}`;
    await until(async () => (await fetch(`${base}/calendar-gateway/v1/health`)).ok, 10_000);
    // Every instance holds both lists in its L1.
    for (const g of gateways)
      for (const u of [READ, WATCH, READ, WATCH]) await (await fetch(`${g.url}${u}`)).arrayBuffer();
    const loads = [];
    for (let r = 0; r < rounds; r++)
      loads.push(await runLoad({ url: `${base}${READ}`, connections, seconds, tool: 'wrk' }));
    const all: number[] = [];
    const first: number[] = [];
    for (let w = 0; w < writes; w++) {
      for (const g of gateways) await (await fetch(`${g.url}${WATCH}`)).arrayBuffer();
      await new Promise((r) => setTimeout(r, 200));
      const d = new Date(Date.UTC(2045, 11, 31) - made++ * 86_400_000).toISOString().slice(0, 10);
      const res = await fetch(`${base}${NS}/events`, {
        method: 'POST',
        headers: { Authorization: basic, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          title: `Instances ${TOKEN} ${made}`,
          start_date: `${d} 10:00:00`,
          end_date: `${d} 11:00:00`,
          status: 'publish',
        }),
      });
      const t0 = performance.now();
      const ev = (await res.json()) as { id: number };
      if (res.status !== 201) throw new Error(`create answered ${res.status}`);
      const times = await Promise.all(gateways.map((g) => seen(`${g.url}${WATCH}`, ev.id, t0)));
      all.push(Math.max(...times));
      first.push(Math.min(...times));
      // Leave WordPress as it was: the bench's events go again (through nginx, so every instance hears of it).
      await (
        await fetch(`${base}${NS}/events/${ev.id}`, { method: 'DELETE', headers: { Authorization: basic } })
      ).arrayBuffer();
    }
    return {
      n,
      rps: median(loads.map((l) => l.rps)),
      p50: median(loads.map((l) => l.p50ms)),
      p99: median(loads.map((l) => l.p99ms)),
      all,
      first,
    };
  } finally {
    nginx?.stop();
    await Promise.all(gateways.map((g) => g.stop()));
  }
}

async function main(): Promise<void> {
  aptInstall('nginx', 'nginx-light');
  aptInstall('wrk', 'wrk');
  if (!process.env.REDIS_URL) setup('ensure-redis.sh');
  const wp = await upstream();
  const basic = `Basic ${Buffer.from(wp.auth).toString('base64')}`;
  const rows: Row[] = [];
  for (const n of counts) {
    rows.push(await measure(n, wp, basic));
    console.error(`N=${n} done`);
  }
  console.log(
    `cached reads through nginx (wrk -t1 -c${connections}, ${rounds} × ${seconds} s, medians) and a create's invalidation reaching every instance (${writes} creates):`,
  );
  console.log(
    '| N | req/s | p50 | p99 | every instance fresh: p50 / max | the first instance fresh: p50 / max |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.n} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} ms | ${r.p99.toFixed(2)} ms | ${pct(r.all, 50).toFixed(0)} / ${Math.max(...r.all).toFixed(0)} ms | ${pct(r.first, 50).toFixed(0)} / ${Math.max(...r.first).toFixed(0)} ms |`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
