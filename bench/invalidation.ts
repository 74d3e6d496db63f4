// `npm run bench:invalidation`: what one event create drops, cached reads under writes, and how soon readers see a
// write, on the demo gateway.
// 1. Fills the cache with a mix of answers (event lists and pages, venue, organizer and term lists with and without
//    their event filters), then creates one event (without, then with a venue) and counts the entries dropped
//    (the gateway's calendar_gateway_cache_entries gauge).
// 2. Probes ~13 cached list URLs from INVALIDATION_CONNECTIONS (8) loops in INVALIDATION_ROUNDS (5) alternating pairs
//    of rounds of INVALIDATION_SECONDS (6) each: one without writes, one with 2 event creates a second. Prints the
//    median over rounds of p50, p99 and the share of reads over 50 ms, and the median of the per-pair p99 ratios.
// 3. Visibility: after each create of the busy rounds, a watcher reads (anonymously, every 5 ms) a cached list the new
//    event heads, and notes how long after the create's answer the list first shows it.
// BENCH_GATEWAY_DIR runs the gateway of another checkout; BENCH_COMPARE_DIR adds a second gateway (e.g. a worktree
// of main), started beside the first and probed in alternating rounds, so before and after share one run.
import { join } from 'node:path';
import { CACHED_LISTS, pct, type Server, startChild } from './lib.ts';

const NS = '/wp-json/calendar/events/v1';
const PASSWORD = 'bench-invalidation-password';
const METRICS = 'bench-invalidation-metrics-token';
const editor = `Basic ${Buffer.from(`editor:${PASSWORD}`).toString('base64')}`;
const seconds = Number(process.env.INVALIDATION_SECONDS ?? 6);
const rounds = Number(process.env.INVALIDATION_ROUNDS ?? 5);
const workers = Number(process.env.INVALIDATION_CONNECTIONS ?? 8);
const here = new URL('../', import.meta.url).pathname;
const dirs = [
  process.env.BENCH_GATEWAY_DIR ?? here,
  ...(process.env.BENCH_COMPARE_DIR ? [process.env.BENCH_COMPARE_DIR] : []),
];

/** Every create lands a day before the last one, so it heads this list (ascending by start) and is on its page 1. */
const WATCH = `/events?start_date=${encodeURIComponent('2030-01-01 00:00:00')}&end_date=${encodeURIComponent('2041-12-31 23:59:59')}&per_page=10`;

const FILL = [
  '/events',
  '/events?per_page=20',
  '/events?featured=true',
  '/events?page=2',
  '/venues',
  '/venues?per_page=50',
  '/venues?has_events=true',
  '/venues?only_with_upcoming=true',
  '/organizers',
  '/organizers?per_page=50',
  '/organizers?has_events=true',
  '/organizers?only_with_upcoming=true',
  '/categories',
  '/categories?hide_empty=false',
  '/tags',
  '/tags?hide_empty=false',
];

/** Pages of existing records: ten events and five venues. */
async function pagesOf(g: Server): Promise<string[]> {
  const ids = async (path: string, key: string) =>
    ((await (await fetch(`${g.url}${NS}${path}`)).json()) as Record<string, Array<{ id: number }>>)[key]!.map(
      (r) => r.id,
    );
  return [
    ...(await ids('/events?per_page=10', 'events')).map((id) => `/events/${id}`),
    ...(await ids('/venues?per_page=5', 'venues')).map((id) => `/venues/${id}`),
  ];
}
const PROBE = [...CACHED_LISTS, '/venues?per_page=50', WATCH];

/** Answers held fresh: the entries, less those a write softly invalidated (a gateway without soft invalidation has none). */
const entries = async (g: Server): Promise<number> => {
  const text = await (
    await fetch(`${g.url}/calendar-gateway/v1/metrics`, { headers: { Authorization: `Bearer ${METRICS}` } })
  ).text();
  const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return gauge('calendar_gateway_cache_entries') - gauge('calendar_gateway_cache_soft_stale_entries');
};

async function fill(g: Server, urls: string[]): Promise<void> {
  // Twice: a load that raced an invalidation is answered but not stored.
  for (let i = 0; i < 2; i++) for (const p of urls) await (await fetch(`${g.url}${NS}${p}`)).arrayBuffer();
}

let made = 0;
/** Creates an event a day before the previous one (from 2040-12-31 down), answering its id. */
async function create(g: Server, venue?: number): Promise<number> {
  const d = new Date(Date.UTC(2040, 11, 31) - made++ * 86_400_000).toISOString().slice(0, 10);
  const res = await fetch(`${g.url}${NS}/events`, {
    method: 'POST',
    headers: { Authorization: editor, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      title: `Bench ${made}`,
      start_date: `${d} 10:00:00`,
      end_date: `${d} 11:00:00`,
      status: 'publish',
      ...(venue ? { venue } : {}),
    }),
  });
  const body = (await res.json()) as { id: number };
  if (res.status !== 201) throw new Error(`create answered ${res.status}`);
  return body.id;
}

/** Share of the filled entries one create drops. */
async function dropShare(
  g: Server,
  urls: string[],
  venue?: number,
): Promise<{ before: number; dropped: number }> {
  await fill(g, urls);
  await new Promise((r) => setTimeout(r, 300));
  const before = await entries(g);
  await create(g, venue);
  await new Promise((r) => setTimeout(r, 300));
  return { before, dropped: before - (await entries(g)) };
}

const median = (xs: number[]) => pct(xs, 50);

interface Round {
  n: number;
  p50: number;
  p99: number;
  /** Share of reads over 50 ms (%). */
  slow: number;
  /** Busy rounds: ms from each create's answer until an anonymous read of WATCH first showed it. */
  seen: number[];
}

/** Reads until the list shows `id`: ms after `t0`. */
async function watch(g: Server, id: number, t0: number): Promise<number> {
  for (;;) {
    const body = (await (await fetch(`${g.url}${NS}${WATCH}`)).json()) as { events?: Array<{ id: number }> };
    if (body.events?.some((e) => e.id === id)) return performance.now() - t0;
    if (performance.now() - t0 > 30_000) return Number.POSITIVE_INFINITY;
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function probe(g: Server, writesPerSecond: number): Promise<Round> {
  const times: number[] = [];
  const seen: Array<Promise<number>> = [];
  const until = performance.now() + seconds * 1000;
  let writer: NodeJS.Timeout | undefined;
  if (writesPerSecond > 0)
    writer = setInterval(() => {
      seen.push(
        create(g).then(
          (id) => watch(g, id, performance.now()),
          () => Number.NaN,
        ),
      );
    }, 1000 / writesPerSecond);
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      for (let i = w; performance.now() < until; i++) {
        const t0 = performance.now();
        await (await fetch(`${g.url}${NS}${PROBE[i % PROBE.length]}`)).arrayBuffer();
        times.push(performance.now() - t0);
      }
    }),
  );
  clearInterval(writer);
  return {
    n: times.length,
    p50: pct(times, 50),
    p99: pct(times, 99),
    slow: (100 * times.filter((t) => t > 50).length) / times.length,
    seen: (await Promise.all(seen)).filter((x) => !Number.isNaN(x)),
  };
}

async function main(): Promise<void> {
  const gateways: Server[] = [];
  try {
    for (const dir of dirs) {
      gateways.push(
        await startChild([join(dir, 'src/main.ts')], {
          PORT: '0',
          HOST: '127.0.0.1',
          REDIS_URL: '',
          LOG_LEVEL: 'silent',
          DEMO_PASSWORD: PASSWORD,
          METRICS_TOKEN: METRICS,
        }),
      );
    }
    const share = (d: { before: number; dropped: number }) =>
      `${d.dropped}/${d.before} (${((100 * d.dropped) / d.before).toFixed(0)} %)`;
    for (const [i, g] of gateways.entries()) {
      const urls = [...FILL, ...(await pagesOf(g))];
      const plain = await dropShare(g, urls);
      const venues = (await (await fetch(`${g.url}${NS}/venues?per_page=1`)).json()) as {
        venues: Array<{ id: number }>;
      };
      const atVenue = await dropShare(g, urls, venues.venues[0]!.id);
      console.log(`gateway: ${dirs[i]}`);
      console.log(`  one event create drops, of the answers cached (${urls.length} URLs filled):`);
      console.log(`    without a venue: ${share(plain)}`);
      console.log(`    at a venue:      ${share(atVenue)}`);
      await fill(g, PROBE);
      await probe(g, 0);
    }
    const results = gateways.map(() => ({ quiet: [] as Round[], busy: [] as Round[] }));
    for (let r = 0; r < rounds; r++) {
      for (const [i, g] of gateways.entries()) {
        // Alternate which comes first, so a drift of the machine's load does not favour one side.
        const order = r % 2 === 0 ? [0, 2] : [2, 0];
        for (const w of order) (w === 0 ? results[i]!.quiet : results[i]!.busy).push(await probe(g, w));
      }
    }
    console.log(
      `cached anonymous reads of ${PROBE.length} list URLs, ${workers} loops, ${rounds} alternating pairs of ${seconds} s rounds (medians over rounds):`,
    );
    const row = (name: string, rs: Round[]) =>
      `    ${name.padEnd(12)} ${String(median(rs.map((x) => x.n))).padStart(7)} reads  p50 ${median(rs.map((x) => x.p50)).toFixed(2)} ms  p99 ${median(rs.map((x) => x.p99)).toFixed(2)} ms  >50 ms ${median(rs.map((x) => x.slow)).toFixed(2)} %`;
    for (const [i, res] of results.entries()) {
      console.log(`  gateway: ${dirs[i]}`);
      console.log(row('no writes', res.quiet));
      console.log(row('2 creates/s', res.busy));
      const ratios = res.quiet.map((q, k) => res.busy[k]!.p99 / q.p99);
      console.log(
        `    p99 ratio per pair: ${ratios.map((x) => x.toFixed(2)).join(', ')}; median ${median(ratios).toFixed(2)}×`,
      );
      const seen = res.busy.flatMap((x) => x.seen);
      console.log(
        `    a create seen by anonymous readers after its answer: ${seen.length} creates, p50 ${median(seen).toFixed(1)} ms, max ${Math.max(...seen).toFixed(1)} ms`,
      );
    }
  } finally {
    await Promise.all(gateways.map((g) => g.stop()));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
