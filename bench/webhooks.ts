// `npm run bench:webhooks`: webhook delivery on a real Redis to real receivers (node:http on loopback).
// 1. Latency (targets: p50 1 s, p99 3 s): BENCH_WEBHOOK_WRITES (100) events created one at a time through a demo
//    gateway on Redis, from each write's answer to the receiver having its event.created; then BENCH_WEBHOOK_SINGLE
//    (200) changes appended to the log here, from the append's acknowledgement (the fan-out and delivery alone).
// 2. Throughput: BENCH_WEBHOOK_CHANGES (1000) changes appended at once, fanned out to 10 endpoints (10 000
//    deliveries), by one instance and by two on the same Redis: deliveries per second, and the latency of each.
// Needs Redis at REDIS_URL (redis://127.0.0.1:6379); keys under a prefix of its own, removed at the end.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import type { Change, ChangeLog, LoggedChange } from '../src/changes/types.ts';
import { createLogger } from '../src/log.ts';
import { WebhookAdmin } from '../src/webhooks/manage.ts';
import { Webhooks } from '../src/webhooks/service.ts';
import { pct, startChild } from './lib.ts';

const REDIS = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const SINGLE = Number(process.env.BENCH_WEBHOOK_SINGLE ?? 200);
const WRITES = Number(process.env.BENCH_WEBHOOK_WRITES ?? 100);
const CHANGES = Number(process.env.BENCH_WEBHOOK_CHANGES ?? 1000);
const ENDPOINTS = 10;
/** Deliveries in flight per instance (WEBHOOK_CONCURRENCY's default). */
const CONCURRENCY = Number(process.env.WEBHOOK_CONCURRENCY ?? 32);

const ms = (x: number) => `${x.toFixed(1)} ms`;

/** The stream `<prefix>changes` as the Redis change log writes it; `follow` wakes the fan-out on each append. */
class StreamLog implements ChangeLog {
  readonly #listeners = new Set<(c: LoggedChange) => void>();
  readonly redis: Redis;
  readonly prefix: string;
  constructor(redis: Redis, prefix: string) {
    this.redis = redis;
    this.prefix = prefix;
  }
  async append(c: Change): Promise<LoggedChange> {
    const fields = ['kind', c.kind, 'id', String(c.id), 'action', c.action, 'modified_utc', c.modified_utc];
    fields.push('rest_url', c.rest_url, 'tags', c.tags.join(','), 'public', '1', 'was_public', '1');
    const cursor = (await this.redis.xadd(`${this.prefix}changes`, '*', ...fields)) as string;
    const logged = { ...c, cursor };
    for (const l of this.#listeners) l(logged);
    return logged;
  }
  async read(): Promise<LoggedChange[]> {
    return [];
  }
  follow(listener: (c: LoggedChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

const change = (id: number): Change => ({
  kind: 'event',
  id,
  action: 'updated',
  modified_utc: '2026-01-01 10:00:00',
  rest_url: `http://gateway.bench/wp-json/calendar/events/v1/events/${id}`,
  tags: [`event:${id}`, 'list:event'],
  public: true,
});

/** Receivers that note when each change id arrived (the payload's data.id), then answer 204. */
async function receivers(
  n: number,
  arrived: (id: number) => void,
): Promise<{ urls: string[]; servers: Server[] }> {
  const servers: Server[] = [];
  for (let i = 0; i < n; i++) {
    const s = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        arrived((JSON.parse(Buffer.concat(chunks).toString()) as { data: { id: number } }).data.id);
        res.writeHead(204).end();
      });
    });
    s.keepAliveTimeout = 60_000;
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    servers.push(s);
  }
  return { urls: servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`), servers };
}

async function run(
  instances: number,
  endpoints: number,
  plan: (log: StreamLog, sent: Map<number, number>) => Promise<void>,
) {
  const prefix = `cgbench:${process.pid}:${Math.random().toString(36).slice(2, 8)}:`;
  const redis = new Redis(REDIS);
  const log = new StreamLog(redis, prefix);
  const sent = new Map<number, number>();
  const latencies: number[] = [];
  let got = 0;
  const { urls, servers } = await receivers(endpoints, (id) => {
    got++;
    latencies.push(performance.now() - sent.get(id)!);
  });
  const conns: Redis[] = [];
  const hooks = Array.from({ length: instances }, () => {
    const cmd = new Redis(REDIS);
    conns.push(cmd);
    const w = new Webhooks({
      redis: { cmd, up: () => cmd.status === 'ready', prefix },
      changes: log,
      log: createLogger('silent'),
      allowPrivate: true,
      concurrency: CONCURRENCY,
    });
    w.start();
    return w;
  });
  for (const url of urls) await new WebhookAdmin(hooks[0]!).create({ url, types: ['*'] });
  const started = performance.now();
  await plan(log, sent);
  const want = sent.size * endpoints;
  while (got < want) await new Promise((r) => setTimeout(r, 5));
  const seconds = (performance.now() - started) / 1000;
  for (const w of hooks) await w.stop();
  for (const s of servers) s.close();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
  for (const c of [redis, ...conns]) c.disconnect();
  return { latencies, seconds, deliveries: got };
}

/**
 * After a write through a gateway (`npm start`'s demo on Redis, a child process): from the 201 of each POST /events
 * to the receiver having its `event.created`. The write's own time is not counted: the clock starts at its answer.
 */
async function afterWrites(n: number): Promise<number[]> {
  const prefix = `cgbench:${process.pid}:w:`;
  const password = 'bench-webhooks-password';
  const auth = (user: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const arrived = new Map<number, number>();
  const { urls, servers } = await receivers(1, (id) => arrived.set(id, performance.now()));
  const gw = await startChild(['src/main.ts'], {
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    REDIS_URL: REDIS,
    REDIS_PREFIX: prefix,
    DEMO_PASSWORD: password,
    DEMO_EVENTS: '200',
  });
  const made = await fetch(`${gw.url}/calendar-gateway/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: auth('admin'), 'content-type': 'application/json' },
    body: JSON.stringify({ url: urls[0], types: ['event.created'] }),
  });
  if (made.status !== 201) throw new Error(`subscription refused: ${made.status}`);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${gw.url}/wp-json/calendar/events/v1/events`, {
      method: 'POST',
      headers: { authorization: auth('editor'), 'content-type': 'application/json' },
      body: JSON.stringify({
        title: `Bench ${i}`,
        status: 'publish',
        start_date: '2031-01-01 10:00:00',
        end_date: '2031-01-01 11:00:00',
      }),
    });
    const acked = performance.now();
    const { id } = (await res.json()) as { id: number };
    while (!arrived.has(id)) await new Promise((r) => setTimeout(r, 1));
    out.push(arrived.get(id)! - acked);
  }
  await gw.stop();
  for (const s of servers) s.close();
  const redis = new Redis(REDIS);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `*${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
  return out;
}

const writes = await afterWrites(WRITES);
console.log(
  `webhook latency after a write through a gateway is acknowledged (demo on Redis), ${WRITES} writes one at a time:`,
);
console.log(`  p50 ${ms(pct(writes, 50))}   p99 ${ms(pct(writes, 99))}   max ${ms(Math.max(...writes))}`);

const single = await run(1, 1, async (log, sent) => {
  for (let i = 1; i <= SINGLE; i++) {
    const before = sent.size;
    await log.append(change(i));
    sent.set(i, performance.now());
    // One at a time: the next change once this one has arrived (a quiet site's pace).
    while (sent.size === before) await new Promise((r) => setTimeout(r, 1));
    await new Promise((r) => setTimeout(r, 10));
  }
});
console.log(
  `webhook latency after the log append is acknowledged, ${SINGLE} changes one at a time, 1 endpoint:`,
);
console.log(
  `  p50 ${ms(pct(single.latencies, 50))}   p99 ${ms(pct(single.latencies, 99))}   max ${ms(Math.max(...single.latencies))}`,
);

for (const instances of [1, 2]) {
  const r = await run(instances, ENDPOINTS, async (log, sent) => {
    await Promise.all(
      Array.from({ length: CHANGES }, async (_, i) => {
        await log.append(change(i + 1));
        sent.set(i + 1, performance.now());
      }),
    );
  });
  console.log(
    `${CHANGES} changes to ${ENDPOINTS} endpoints (${r.deliveries} deliveries), ${instances} instance${instances > 1 ? 's' : ''}: ` +
      `${(r.deliveries / r.seconds).toFixed(0)} deliveries/s, all in ${r.seconds.toFixed(2)} s; ` +
      `latency p50 ${ms(pct(r.latencies, 50))}, p99 ${ms(pct(r.latencies, 99))}`,
  );
}
process.exit(0);
