// `npm run bench:soak`: two gateways sharing Redis over a real WordPress under mixed load for SOAK_SECONDS (600):
// 90 % cached reads, 7 % cache misses, 3 % writes, and an edit in WordPress every 3 s. Every SOAK_SAMPLE_SECONDS
// (30) it prints each instance's RSS, heap, external memory and in-process cache bytes (its Prometheus metrics), p50/p99 of the reads of cached URLs in
// that window (refills after a write's invalidation included) and the 5xx count; at the end, the drift of RSS and
// heap after warm-up. Loopback only, bounded.
// WordPress: BENCH_WP_URL/BENCH_WP_AUTH, else the local one of .wordpress/soak (started here). Redis: REDIS_URL
// (default the local server) under a prefix of its own. SOAK_ENV_A / SOAK_ENV_B: extra environment of one instance.
import { join } from 'node:path';
import { ensureWordPress } from '../wordpress/upstream.ts';
import { freePort, median, type Server, startChild } from './lib.ts';

const seconds = Number(process.env.SOAK_SECONDS ?? 600);
const sampleSeconds = Number(process.env.SOAK_SAMPLE_SECONDS ?? 30);
const workers = Number(process.env.SOAK_CONNECTIONS ?? 8);
const NS = '/wp-json/calendar/events/v1';
const TOKEN = `soak${process.pid}`;
const root = new URL('../', import.meta.url).pathname;

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
  console.error('starting the local WordPress of .wordpress/soak …');
  const port = await freePort();
  return ensureWordPress({
    mapping: join(root, 'mappings/tec.json'),
    stateDir: join(root, '.wordpress/soak'),
    port,
  });
}

/** RSS, heap, external memory and the in-process cache's bytes in MB, from an instance's metrics. */
async function memoryOf(g: Server): Promise<{ rss: number; heap: number; external: number; cache: number }> {
  const text = await (
    await fetch(`${g.url}/calendar-gateway/v1/metrics`, {
      headers: { Authorization: `Bearer ${TOKEN}-metrics-token` },
    })
  ).text();
  const value = (name: string) =>
    Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  const mb = (name: string) => value(name) / 2 ** 20;
  return {
    rss: mb('process_resident_memory_bytes'),
    heap: mb('nodejs_heap_size_used_bytes'),
    external: mb('nodejs_external_memory_bytes'),
    cache: mb('calendar_gateway_cache_bytes'),
  };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] ?? Number.NaN;
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
  const gateways = [
    await startChild(['src/main.ts'], { ...env, ...extra(process.env.SOAK_ENV_A) }),
    await startChild(['src/main.ts'], { ...env, ...extra(process.env.SOAK_ENV_B) }),
  ];
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
      });
    for (let i = 0; i < 3; i++) {
      const res = await write(gateways[0]!, { title: `Soak ${TOKEN} edited ${i}` });
      created.push(((await res.json()) as { id: number }).id);
    }

    let window = fresh();
    const end = performance.now() + seconds * 1000;
    let n = 0;
    const worker = async (w: number) => {
      while (performance.now() < end) {
        const g = gateways[(n++ + w) % 2]!;
        const r = Math.random();
        const t = performance.now();
        try {
          if (r < 0.9) {
            const res = await fetch(`${g.url}${cachedUrls[n % cachedUrls.length]}`);
            await res.arrayBuffer();
            window.cached.push(performance.now() - t);
            if (res.status >= 500) window.errors5xx++;
          } else if (r < 0.97) {
            const res = await fetch(`${g.url}${NS}/events?per_page=5&search=${TOKEN}${n}`);
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
    const samples: Array<{ t: number; mem: Array<{ rss: number; heap: number }>; p50: number; p99: number }> =
      [];
    const t0 = performance.now();
    console.log(
      `soak: ${seconds} s, ${workers} connections over 2 instances; per ${sampleSeconds} s window:\n` +
        ' t(s) | RSS a/b (MB) | heap a/b (MB) | external a/b (MB) | cache a/b (MB) | cached reads | p50 / p99 (ms) | misses | writes | WP edits | 5xx | failed',
    );
    const sampler = (async () => {
      while (performance.now() < end) {
        await new Promise((r) => setTimeout(r, Math.min(sampleSeconds * 1000, end - performance.now())));
        const w = window;
        window = fresh();
        const mem = await Promise.all(gateways.map(memoryOf));
        const s = {
          t: Math.round((performance.now() - t0) / 1000),
          mem,
          p50: pct(w.cached, 50),
          p99: pct(w.cached, 99),
        };
        samples.push(s);
        console.log(
          `${String(s.t).padStart(5)} | ${mem.map((m) => m.rss.toFixed(0)).join(' / ')} | ` +
            `${mem.map((m) => m.heap.toFixed(1)).join(' / ')} | ${mem.map((m) => m.external.toFixed(1)).join(' / ')} | ${mem.map((m) => m.cache.toFixed(1)).join(' / ')} | ${w.cached.length} | ` +
            `${s.p50.toFixed(2)} / ${s.p99.toFixed(2)} | ${w.misses} | ${w.writes} | ${w.edits} | ${w.errors5xx} | ${w.failed}`,
        );
      }
    })();
    await Promise.all([...Array.from({ length: workers }, (_, w) => worker(w)), editor, sampler]);
    // Drift after warm-up: the first window is the warm-up.
    const steady = samples.slice(1);
    if (steady.length >= 2) {
      const [a, z] = [steady[0]!, steady.at(-1)!];
      for (const i of [0, 1]) {
        console.log(
          `instance ${'ab'[i]}: RSS ${a.mem[i]!.rss.toFixed(0)} → ${z.mem[i]!.rss.toFixed(0)} MB, heap ` +
            `${a.mem[i]!.heap.toFixed(1)} → ${z.mem[i]!.heap.toFixed(1)} MB (median ${median(steady.map((s) => s.mem[i]!.heap)).toFixed(1)})`,
        );
      }
      console.log(
        `cached reads p99 per window after warm-up: median ${median(steady.map((s) => s.p99)).toFixed(2)} ms, ` +
          `max ${Math.max(...steady.map((s) => s.p99)).toFixed(2)} ms`,
      );
    }
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

await main();
