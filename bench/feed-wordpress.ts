// `npm run bench:feed-wordpress`: what a cold feed of 1000 events costs a real WordPress, beside the reads those events
// need. BENCH_WP_SITE (a local site's folder, e.g. `.wordpress/tec/site`), BENCH_WP_URL and BENCH_WP_AUTH (what
// `npm run wordpress -- start` prints) name the site; without them the local WordPress of .wordpress/feed-bench is
// started (and left running for the next run). 1000 events are inserted for the run and deleted after it.
// The gateway runs here; every upstream call it makes is timed, and so are the same events read straight from wp/v2
// (`include=` pages of 100, as anonymous) with the venues, organizers and terms they link to.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { startGateway } from '../src/gateway.ts';
import { localWordPress, median } from './lib.ts';

const run = promisify(execFile);
const COUNT = Number(process.env.BENCH_FEED_COUNT ?? 1000);
const ROUNDS = Number(process.env.BENCH_FEED_ROUNDS ?? 3);
const TAG = `feedbench${process.pid}`;
const root = new URL('../', import.meta.url).pathname;

/** The site named by the environment, else the local one of .wordpress/feed-bench (started here, left running). */
async function upstream(): Promise<{ site: string; url: string; auth: string }> {
  const { BENCH_WP_SITE: site, BENCH_WP_URL: url, BENCH_WP_AUTH: auth } = process.env;
  if (site && url && auth) return { site, url, auth };
  if (site || url || auth)
    throw new Error('set all of BENCH_WP_SITE, BENCH_WP_URL and BENCH_WP_AUTH, or none');
  const stateDir = join(root, '.wordpress/feed-bench');
  return { site: join(stateDir, 'site'), ...(await localWordPress(stateDir)) };
}

async function main(): Promise<void> {
  const { site, url, auth } = await upstream();
  const php = (...args: string[]) =>
    run('php', ['wordpress/php/bulk-events.php', site, ...args], { maxBuffer: 64 << 20, timeout: 600_000 });
  const ids = JSON.parse((await php('insert', String(COUNT), TAG)).stdout) as number[];
  process.stderr.write(`Inserted ${ids.length} events\n`);
  const config = loadConfig([], {
    PORT: '0',
    HOST: '127.0.0.1',
    UPSTREAM_URL: url,
    UPSTREAM_AUTH: auth,
    LOG_LEVEL: 'silent',
    POLL_INTERVAL_MS: '0',
    FEED_MAX_EVENTS: String(COUNT),
    REDIS_URL: '',
  });
  const gw = await startGateway({ ...config, upstreamUrl: url }, { quiet: true });
  let calls: number[] = [];
  const observe = gw.deps.wp.observer;
  gw.deps.wp.observer = (c) => {
    calls.push(c.ms);
    observe?.(c);
  };
  // The bulk events start an hour apart from 2031-01-01 10:00: this window holds them and nothing else of the site's.
  const last = new Date(Date.UTC(2031, 0, 1, 10) + (COUNT - 1) * 3_600_000 + 5_400_000);
  const window = `start_date=2031-01-01&end_date=${last.toISOString().slice(0, 10)}&search=${TAG}`;
  const restBase = gw.deps.mapping.event.restBase;
  const rows: Array<{
    gateway: number;
    upstream: number;
    calls: number;
    direct: number;
    directCalls: number;
  }> = [];
  try {
    for (let r = 0; r < ROUNDS; r++) {
      // Caches dropped: every round is a cold feed, its records read anew.
      await gw.deps.cache?.purgeAll().catch(() => undefined);
      gw.deps.records?.drop(null);
      calls = [];
      const t0 = performance.now();
      const res = await fetch(`${gw.url}/wp-json/calendar/events/v1/events.ics?${window}&r=${r}`);
      const text = await res.text();
      const gateway = performance.now() - t0;
      const events = text.split('BEGIN:VEVENT').length - 1;
      if (res.status !== 200 || events !== COUNT) throw new Error(`feed: ${res.status}, ${events} events`);
      const upstream = calls.reduce((a, b) => a + b, 0);
      const gatewayCalls = calls.length;
      // The reads those events need, straight from WordPress: their pages, then what they link to.
      const d0 = performance.now();
      let directCalls = 0;
      const linked = { venue: new Set<number>(), organizer: new Set<number>() };
      for (let i = 0; i < ids.length; i += 100) {
        const page = await fetch(
          `${url}/wp/v2/${restBase}?include=${ids.slice(i, i + 100).join(',')}&per_page=100&orderby=include`,
        );
        directCalls++;
        for (const p of (await page.json()) as Array<{ meta?: Record<string, unknown> }>) {
          const v = Number(p.meta?._EventVenueID);
          if (v) linked.venue.add(v);
          for (const o of [p.meta?._EventOrganizerID].flat()) if (Number(o)) linked.organizer.add(Number(o));
        }
      }
      for (const [kind, set] of Object.entries(linked)) {
        if (!set.size) continue;
        await (await fetch(`${url}/wp/v2/tribe_${kind}?include=${[...set].join(',')}&per_page=100`)).text();
        directCalls++;
      }
      const direct = performance.now() - d0;
      rows.push({ gateway, upstream, calls: gatewayCalls, direct, directCalls });
      process.stderr.write(`  round ${r + 1}/${ROUNDS} done\n`);
    }
    const m = (k: keyof (typeof rows)[number]) => median(rows.map((x) => x[k]));
    console.log(`\ncold feed of ${COUNT} events over ${url}, medians of ${ROUNDS} rounds`);
    console.log(
      `gateway: answered in ${m('gateway').toFixed(0)} ms; ${m('calls')} upstream calls, ${m('upstream').toFixed(0)} ms of upstream time in all`,
    );
    console.log(
      `the events' own reads (wp/v2 include= pages of 100, then their venues and organizers, one at a time): ${m('directCalls')} calls, ${m('direct').toFixed(0)} ms`,
    );
    console.log(`upstream time / the reads' time = ${(m('upstream') / m('direct')).toFixed(2)}`);
  } finally {
    await gw.close();
    await php('delete', TAG).catch(() => undefined);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
