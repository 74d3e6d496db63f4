// `npm run bench`: cached anonymous lists through the gateway vs raw node:http (and WordPress) in one run.
// Bounded and loopback only. Env: BENCH_ROUNDS (5), BENCH_SECONDS (3), BENCH_CONNECTIONS (100), REDIS_URL
// (adds the with-Redis row; default redis://127.0.0.1:6379 when it answers), BENCH_WP_URL + BENCH_WP_PATH (a local
// WordPress REST root, e.g. from `npm run wordpress -- start`).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  gatewayEnv,
  hasWrk,
  type Load,
  median,
  type Result,
  runLoad,
  type Server,
  startChild,
} from './lib.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);
const tool = hasWrk() ? 'wrk' : 'autocannon';
const LIST = '/wp-json/calendar/events/v1/events?per_page=10';
/** A subscription: every event of the default window as iCalendar (~200 events in demo mode). */
const FEED = '/wp-json/calendar/events/v1/events.ics';

const redisUrl =
  process.env.REDIS_URL ??
  (() => {
    try {
      return execFileSync('redis-cli', ['ping'], { encoding: 'utf8', timeout: 2000 }).trim() === 'PONG'
        ? 'redis://127.0.0.1:6379'
        : undefined;
    } catch {
      return undefined;
    }
  })();

interface Row {
  name: string;
  load: Omit<Load, 'tool' | 'seconds' | 'connections'> & { connections?: number; tool?: Load['tool'] };
  results: Result[];
}

async function main(): Promise<void> {
  const started: Server[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'cg-bench-'));
  try {
    process.stderr.write(
      `Starting servers (load tool: ${tool}, ${rounds} rounds × ${seconds} s, ${connections} connections)\n`,
    );
    const gw = await startChild(['src/main.ts'], gatewayEnv());
    started.push(gw);
    const first = await fetch(`${gw.url}${LIST}`);
    const bytes = Buffer.from(await first.arrayBuffer());
    const etag = first.headers.get('etag') ?? '';
    if (first.status !== 200 || !etag) throw new Error(`gateway answered ${first.status} without an ETag`);
    writeFileSync(join(dir, 'body.json'), bytes);
    const raw = await startChild(['bench/raw-server.ts', join(dir, 'body.json'), etag]);
    started.push(raw);
    const feed = await fetch(`${gw.url}${FEED}`);
    const feedBytes = Buffer.from(await feed.arrayBuffer());
    if (feed.status !== 200) throw new Error(`gateway answered the feed ${feed.status}`);
    writeFileSync(join(dir, 'feed.ics'), feedBytes);
    const rawFeed = await startChild([
      'bench/raw-server.ts',
      join(dir, 'feed.ics'),
      feed.headers.get('etag') ?? '"x"',
      'text/calendar; charset=utf-8',
    ]);
    started.push(rawFeed);

    const rows: Row[] = [
      { name: 'raw node:http, same bytes', load: { url: `${raw.url}/` }, results: [] },
      { name: 'gateway cached (L1 hit)', load: { url: `${gw.url}${LIST}` }, results: [] },
      {
        name: 'gateway cached, 1 connection',
        load: { url: `${gw.url}${LIST}`, connections: 1 },
        results: [],
      },
      {
        // Compressed once per stored answer, so a gzip hit costs no compression.
        name: 'gateway cached, gzip (Accept-Encoding)',
        load: { url: `${gw.url}${LIST}`, headers: { 'Accept-Encoding': 'gzip' } },
        results: [],
      },
      {
        name: 'gateway 304 (If-None-Match)',
        load: { url: `${gw.url}${LIST}`, headers: { 'If-None-Match': etag } },
        results: [],
      },
      {
        name: `raw node:http, feed bytes (${Math.round(feedBytes.length / 1024)} KB)`,
        load: { url: `${rawFeed.url}/` },
        results: [],
      },
      { name: 'gateway cached feed (events.ics)', load: { url: `${gw.url}${FEED}` }, results: [] },
      {
        name: 'gateway cache miss (unique URLs)',
        load: { url: `${gw.url}${LIST}`, unique: true, connections: 10, tool: 'autocannon' },
        results: [],
      },
    ];
    if (redisUrl) {
      const gwr = await startChild(
        ['src/main.ts'],
        gatewayEnv({ REDIS_URL: redisUrl, REDIS_PREFIX: `cgbench${process.pid}:` }),
      );
      started.push(gwr);
      await fetch(`${gwr.url}${LIST}`);
      rows.push({
        name: 'gateway cached, with Redis (L1 hit)',
        load: { url: `${gwr.url}${LIST}` },
        results: [],
      });
      rows.push({
        name: 'gateway cache miss, with Redis',
        load: { url: `${gwr.url}${LIST}`, unique: true, connections: 10, tool: 'autocannon' },
        results: [],
      });
    }
    if (process.env.BENCH_WP_URL) {
      const path = process.env.BENCH_WP_PATH ?? '/wp/v2/tribe_events?per_page=10';
      // php -S serves one request at a time and closes connections: one connection, as WordPress's own row.
      rows.push({
        name: 'WordPress wp/v2 list',
        load: { url: `${process.env.BENCH_WP_URL}${path}`, connections: 1 },
        results: [],
      });
    }

    // Warm-up, then rounds interleaved so that drift in machine load hits every row alike.
    for (const row of rows) await runLoad({ tool, seconds: 1, connections, ...row.load });
    for (let r = 0; r < rounds; r++) {
      for (const row of rows) row.results.push(await runLoad({ tool, seconds, connections, ...row.load }));
      process.stderr.write(`  round ${r + 1}/${rounds} done\n`);
    }

    const rawRps = median(rows[0]!.results.map((x) => x.rps));
    const cachedRps = median(rows[1]!.results.map((x) => x.rps));
    console.log(
      `\n${'scenario'.padEnd(40)} ${'req/s (median)'.padStart(15)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'vs raw'.padStart(8)}`,
    );
    for (const row of rows) {
      const rps = median(row.results.map((x) => x.rps));
      const p50 = median(row.results.map((x) => x.p50ms));
      const p99 = median(row.results.map((x) => x.p99ms));
      const bad = row.results.reduce((n, x) => n + x.non2xx, 0);
      console.log(
        `${row.name.padEnd(40)} ${rps.toFixed(0).padStart(15)} ${p50.toFixed(2).padStart(8)} ${p99.toFixed(2).padStart(8)} ${(rps / rawRps).toFixed(2).padStart(7)}×` +
          (bad && !row.name.includes('304') ? `  (${bad} non-2xx)` : ''),
      );
    }
    console.log(`\ncached / raw node:http = ${(cachedRps / rawRps).toFixed(2)} (target ≥ 0.90)`);
    const rawFeedRps = median(
      rows.find((r) => r.name.startsWith('raw node:http, feed'))!.results.map((x) => x.rps),
    );
    const feedRps = median(
      rows.find((r) => r.name.startsWith('gateway cached feed'))!.results.map((x) => x.rps),
    );
    console.log(`cached feed / raw node:http = ${(feedRps / rawFeedRps).toFixed(2)} (target ≥ 0.80)`);
    const wp = rows.find((r) => r.name.startsWith('WordPress'));
    if (wp) {
      const wpRps = median(wp.results.map((x) => x.rps));
      const oneConn = median(rows.find((r) => r.name.includes('1 connection'))!.results.map((x) => x.rps));
      console.log(`cached / WordPress wp/v2 = ${(cachedRps / wpRps).toFixed(0)}× (target ≥ 100×)`);
      console.log(`same at 1 connection each = ${(oneConn / wpRps).toFixed(0)}×`);
    } else {
      console.log(
        'WordPress row skipped: set BENCH_WP_URL to a local WordPress REST root (npm run wordpress -- start).',
      );
    }
    console.log(
      `load tool: ${tool}; ${connections} connections; medians of ${rounds} rounds of ${seconds} s; Node ${process.version}`,
    );
  } finally {
    for (const s of started.reverse()) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
