// `npm run bench:feed`: an iCalendar feed of 2000 events at 100k events. The demo's mock WordPress runs in a child
// process behind node:http (its own event loop), the gateway runs here; the longest event-loop stall of this process
// is measured while feeds are built (cold: the cached answers and held records dropped; a new window whose records are
// held) and served (cached), and the feed's upstream calls counted.
// Env: BENCH_FEED_EVENTS (100000), BENCH_FEED_SIZE (2000), BENCH_FEED_ROUNDS (5), BENCH_FEED_SETTLE_MS (0: the
// first feed right after ready; else that long later, the stalls of the wait printed apart), BENCH_FEED_HEAP_DIR (heap
// snapshots there: `ready` before the first feed, `fed` after the last; `node bench/heap-diff.ts` compares them),
// BENCH_FEED_PIN (`1`: the gateway, this process, on core 0 and the mock WordPress child on core 1, with taskset, so
// that a stall is the gateway's own and not a wait for the core the child serves the feed's events on).
// Loopback only; it stops by itself.
import { writeFileSync } from 'node:fs';
import { createServer, get } from 'node:http';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';
import { loadConfig } from '../src/config.ts';
import { startGateway } from '../src/gateway.ts';
import { pin } from './busy/site.ts';
import { median, missUrl, startChild } from './lib.ts';

const PASSWORD = 'bench-feed-password';
const MOCK = 'http://wordpress.bench';

/** Child mode: the mock WordPress of `events` events, served over loopback HTTP. */
async function upstream(events: number): Promise<void> {
  const { startMockWordPress } = await import('../mocks/wordpress/index.ts');
  const { buildSeed } = await import('../mocks/seed-data.ts');
  const { loadMapping } = await import('../src/gateway.ts');
  const mapping = await loadMapping('mappings/tec.json');
  startMockWordPress({
    mapping,
    baseUrl: `${MOCK}/wp-json`,
    seed: buildSeed(mapping, new Date(), { events }),
    usersPassword: PASSWORD,
  });
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k, v]) => typeof v === 'string' && k !== 'host'),
    ) as Record<string, string>;
    const answer = await fetch(`${MOCK}${req.url}`, {
      method: req.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const out: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (k !== 'content-encoding' && k !== 'content-length') out[k] = v;
    });
    res.writeHead(answer.status, out);
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
  });
}

const VEVENT = Buffer.from('BEGIN:VEVENT');

/**
 * GET `url`, counting its bytes and VEVENTs chunk by chunk as they come: this process is the gateway's, so the client
 * must not hold its event loop (decoding a 1.2 MB body at once is 8–12 ms, which a stall would count as the gateway's).
 */
function streamed(url: string): Promise<{ status: number; bytes: number; events: number; head: string }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      let bytes = 0;
      let events = 0;
      let tail = Buffer.alloc(0);
      let head = '';
      res.on('data', (chunk: Buffer) => {
        if (bytes === 0) head = chunk.subarray(0, 200).toString();
        bytes += chunk.length;
        const b = Buffer.concat([tail, chunk]);
        for (let at = b.indexOf(VEVENT); at >= 0; at = b.indexOf(VEVENT, at + VEVENT.length)) events++;
        // Keep what could begin a match split across chunks (too short to hold a whole one, counted already).
        tail = b.subarray(Math.max(0, b.length - (VEVENT.length - 1)));
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, events, head }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

async function main(): Promise<void> {
  const events = Number(process.env.BENCH_FEED_EVENTS ?? 100_000);
  const size = Number(process.env.BENCH_FEED_SIZE ?? 2000);
  const rounds = Number(process.env.BENCH_FEED_ROUNDS ?? 5);
  process.stderr.write(`Starting a mock WordPress of ${events} events in a child process…\n`);
  const wp = await startChild(['bench/feed.ts', '--upstream', String(events)]);
  if (process.env.BENCH_FEED_PIN === '1') {
    pin([process.pid], '0');
    pin([wp.child.pid!], '1');
  }
  const config = loadConfig([], {
    PORT: '0',
    HOST: '127.0.0.1',
    UPSTREAM_URL: `${wp.url}/wp-json`,
    UPSTREAM_AUTH: `admin:${PASSWORD}`,
    LOG_LEVEL: 'silent',
    POLL_INTERVAL_MS: '0',
    CACHE_TTL_SECONDS: '3600',
    FEED_MAX_EVENTS: String(size),
    REDIS_URL: '',
  });
  const t0 = performance.now();
  const gw = await startGateway({ ...config, upstreamUrl: `${wp.url}/wp-json` }, { quiet: true });
  process.stderr.write(`Gateway ready after ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  let calls = 0;
  const observe = gw.deps.wp.observer;
  gw.deps.wp.observer = (c) => {
    calls++;
    observe?.(c);
  };
  const feed = `${gw.url}/wp-json/calendar/events/v1/events.ics`;
  // The start-up's background jobs (the change log's seed, the search postings) run on after ready: with a settle time
  // the first cold feed is measured after them, and the stalls of the wait itself are printed apart.
  const settle = Number(process.env.BENCH_FEED_SETTLE_MS ?? 0);
  let idleStall: number | undefined;
  if (settle > 0) {
    const h = monitorEventLoopDelay({ resolution: 1 });
    h.enable();
    await new Promise((r) => setTimeout(r, settle));
    h.disable();
    idleStall = h.max / 1e6;
  }
  const heapDir = process.env.BENCH_FEED_HEAP_DIR;
  if (heapDir)
    process.stderr.write(`heap at ready: ${writeHeapSnapshot(join(heapDir, 'ready.heapsnapshot'))}\n`);
  // Each measured request's window (µs of the monotonic clock), for the tasks measured by bench/busy/tasks.ts.
  const windows: Array<{ url: string; from: number; to: number }> = [];
  const measure = async (url: string) => {
    const h = monitorEventLoopDelay({ resolution: 1 });
    calls = 0;
    h.enable();
    const start = performance.now();
    const from = process.hrtime.bigint() / 1000n;
    const res = await streamed(url);
    const ms = performance.now() - start;
    h.disable();
    windows.push({ url, from: Number(from), to: Number(process.hrtime.bigint() / 1000n) });
    if (res.status !== 200) throw new Error(`feed answered ${res.status}: ${res.head}`);
    return {
      ms,
      stall: h.max / 1e6,
      events: res.events,
      bytes: res.bytes,
      calls,
    };
  };
  try {
    type Run = Awaited<ReturnType<typeof measure>>;
    const cold: Run[] = [];
    const held: Run[] = [];
    const cached: Run[] = [];
    const list: Run[] = [];
    for (let r = 0; r < rounds; r++) {
      // A cold feed: the cached answers and the held records dropped (the first round's is the process's first feed),
      // and a window of its own (a parameter the route does not take no longer makes a new answer).
      if (r > 0) {
        await gw.deps.cache?.purgeAll();
        gw.deps.records?.drop(null);
      }
      const url = missUrl(feed);
      cold.push(await measure(url));
      for (let i = 0; i < 5; i++) cached.push(await measure(url));
      // A new window whose records are held: the answer built without reading WordPress.
      held.push(await measure(missUrl(feed)));
      // For scale: a new window of the JSON list, the largest page a client can ask for.
      list.push(await measure(missUrl(`${gw.url}/wp-json/calendar/events/v1/events?per_page=50`)));
      process.stderr.write(`  round ${r + 1}/${rounds} done\n`);
    }
    const row = (name: string, xs: Run[]) =>
      console.log(
        `${name.padEnd(22)} ${median(xs.map((x) => x.ms))
          .toFixed(0)
          .padStart(8)} ms ${Math.max(...xs.map((x) => x.stall))
          .toFixed(1)
          .padStart(8)} ms ${median(xs.map((x) => x.stall))
          .toFixed(1)
          .padStart(
            8,
          )} ms ${String(xs[0]!.events).padStart(7)} ${String(Math.round(xs[0]!.bytes / 1024)).padStart(6)} KB ${String(xs[0]!.calls).padStart(6)}`,
      );
    console.log(
      `\n${'feed'.padEnd(22)} ${'median'.padStart(11)} ${'max stall'.padStart(11)} ${'med stall'.padStart(11)} ${'events'.padStart(7)} ${'size'.padStart(9)} ${'calls'.padStart(6)}`,
    );
    row('first cold feed', cold.slice(0, 1));
    if (cold.length > 1) row('cold, caches dropped', cold.slice(1));
    row('new window, held', held);
    row('cached', cached);
    row('JSON list of 50, new', list);
    if (idleStall !== undefined)
      console.log(`no request, the ${settle} ms after ready: longest stall ${idleStall.toFixed(1)} ms`);
    console.log(
      `\n${events} events upstream, FEED_MAX_EVENTS=${size}, ${rounds} rounds; stalls of the gateway's event loop (monitorEventLoopDelay, 1 ms resolution); ${process.env.BENCH_FEED_PIN === '1' ? 'pinned (gateway core 0, upstream core 1)' : 'unpinned'}; Node ${process.version}`,
    );
    if (heapDir)
      process.stderr.write(`heap when fed: ${writeHeapSnapshot(join(heapDir, 'fed.heapsnapshot'))}\n`);
    if (process.env.BUSY_TASKS_FILE)
      writeFileSync(`${process.env.BUSY_TASKS_FILE}.windows.json`, JSON.stringify(windows));
  } finally {
    await gw.close();
    await wp.stop();
  }
}

if (process.argv[2] === '--upstream') void upstream(Number(process.argv[3]));
else
  main().catch((err: unknown) => {
    process.stderr.write(`bench failed: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  });
