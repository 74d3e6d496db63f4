// `npm run bench:invalidation`: what one event create drops, and cached reads under writes, on the demo gateway.
// 1. Fills the cache with a mix of answers (event lists and pages, venue, organizer and term lists with and without
//    their event filters), then creates one event (without, then with a venue) and counts the entries dropped
//    (the gateway's calendar_gateway_cache_entries gauge).
// 2. Probes ~12 cached list URLs from INVALIDATION_CONNECTIONS (8) loops for INVALIDATION_SECONDS (10) without writes,
//    then as long with 2 event creates a second: p50/p99 of the reads side by side.
// BENCH_GATEWAY_DIR runs the gateway of another checkout (e.g. an export of main) for a before/after comparison.
import { join } from 'node:path';
import { type Server, startChild } from './lib.ts';

const NS = '/wp-json/calendar/events/v1';
const PASSWORD = 'bench-invalidation-password';
const METRICS = 'bench-invalidation-metrics-token';
const editor = `Basic ${Buffer.from(`editor:${PASSWORD}`).toString('base64')}`;
const seconds = Number(process.env.INVALIDATION_SECONDS ?? 10);
const workers = Number(process.env.INVALIDATION_CONNECTIONS ?? 8);
const dir = process.env.BENCH_GATEWAY_DIR ?? new URL('../', import.meta.url).pathname;

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
async function addPages(g: Server): Promise<void> {
  const ids = async (path: string, key: string) =>
    ((await (await fetch(`${g.url}${NS}${path}`)).json()) as Record<string, Array<{ id: number }>>)[key]!.map(
      (r) => r.id,
    );
  for (const id of await ids('/events?per_page=10', 'events')) FILL.push(`/events/${id}`);
  for (const id of await ids('/venues?per_page=5', 'venues')) FILL.push(`/venues/${id}`);
}
const PROBE = [
  '/events',
  '/events?per_page=20',
  '/events?page=2',
  '/venues',
  '/venues?has_events=true',
  '/venues?only_with_upcoming=true',
  '/organizers',
  '/organizers?has_events=true',
  '/categories',
  '/categories?hide_empty=false',
  '/tags',
  '/venues?per_page=50',
];

const entries = async (g: Server): Promise<number> => {
  const text = await (
    await fetch(`${g.url}/calendar-gateway/v1/metrics`, { headers: { Authorization: `Bearer ${METRICS}` } })
  ).text();
  return Number(/^calendar_gateway_cache_entries (\S+)$/m.exec(text)?.[1] ?? Number.NaN);
};

async function fill(g: Server): Promise<void> {
  // Twice: a load that raced an invalidation is answered but not stored.
  for (let i = 0; i < 2; i++) for (const p of FILL) await (await fetch(`${g.url}${NS}${p}`)).arrayBuffer();
}

let made = 0;
async function create(g: Server, venue?: number): Promise<void> {
  const day = 1 + (made++ % 27);
  const res = await fetch(`${g.url}${NS}/events`, {
    method: 'POST',
    headers: { Authorization: editor, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      title: `Bench ${made}`,
      start_date: `2031-03-${String(day).padStart(2, '0')} 10:00:00`,
      end_date: `2031-03-${String(day).padStart(2, '0')} 11:00:00`,
      status: 'publish',
      ...(venue ? { venue } : {}),
    }),
  });
  await res.arrayBuffer();
  if (res.status !== 201) throw new Error(`create answered ${res.status}`);
}

/** Share of the filled entries one create drops. */
async function dropShare(g: Server, venue?: number): Promise<{ before: number; dropped: number }> {
  await fill(g);
  await new Promise((r) => setTimeout(r, 300));
  const before = await entries(g);
  await create(g, venue);
  await new Promise((r) => setTimeout(r, 300));
  return { before, dropped: before - (await entries(g)) };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] ?? Number.NaN;
};

async function probe(g: Server, writesPerSecond: number): Promise<{ n: number; p50: number; p99: number }> {
  const times: number[] = [];
  const until = performance.now() + seconds * 1000;
  let writer: NodeJS.Timeout | undefined;
  if (writesPerSecond > 0) writer = setInterval(() => create(g).catch(() => {}), 1000 / writesPerSecond);
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
  return { n: times.length, p50: pct(times, 50), p99: pct(times, 99) };
}

async function main(): Promise<void> {
  const g = await startChild([join(dir, 'src/main.ts')], {
    PORT: '0',
    HOST: '127.0.0.1',
    REDIS_URL: '',
    LOG_LEVEL: 'silent',
    DEMO_PASSWORD: PASSWORD,
    METRICS_TOKEN: METRICS,
  });
  try {
    await addPages(g);
    const plain = await dropShare(g);
    const venues = (await (await fetch(`${g.url}${NS}/venues?per_page=1`)).json()) as {
      venues: Array<{ id: number }>;
    };
    const atVenue = await dropShare(g, venues.venues[0]!.id);
    const share = (d: { before: number; dropped: number }) =>
      `${d.dropped}/${d.before} (${((100 * d.dropped) / d.before).toFixed(0)} %)`;
    console.log(`gateway: ${dir}`);
    console.log(`one event create drops, of the answers cached (${FILL.length} URLs filled):`);
    console.log(`  without a venue: ${share(plain)}`);
    console.log(`  at a venue:      ${share(atVenue)}`);
    await fill(g);
    await probe(g, 0);
    const quiet = await probe(g, 0);
    const busy = await probe(g, 2);
    const row = (name: string, r: { n: number; p50: number; p99: number }) =>
      `  ${name.padEnd(16)} ${String(r.n).padStart(7)} reads  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms`;
    console.log(`cached reads of ${PROBE.length} list URLs, ${workers} loops, ${seconds} s each:`);
    console.log(row('no writes', quiet));
    console.log(row('2 creates/s', busy));
    console.log(`  p99 ratio ${(busy.p99 / quiet.p99).toFixed(2)}×`);
  } finally {
    await g.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
