// Two cache instances on one real Redis: shared L2 entries, pub/sub invalidation, survival of a Redis outage.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEntry } from '../../src/cache/entry.ts';
import { hashedKey } from '../../src/cache/key.ts';
import { connectRedis, type RedisLink } from '../../src/cache/redis.ts';
import { type Loaded, ResponseCache } from '../../src/cache/response-cache.ts';
import { encodeEntry } from '../../src/cache/store.ts';
import { gzipOf } from '../../src/http/answer.ts';
import { guard } from '../slack.ts';
import {
  ensureSharedRedis,
  filledInRedis,
  privateRedis,
  readersStarted,
  SHARED_REDIS,
  testPrefix,
} from './redis-helper.ts';

const policy = { ttlSeconds: 30, staleWhileRevalidateSeconds: 10, staleIfErrorSeconds: 300 };
const quiet = { warn() {}, info() {} };
const load = (body: string, tags: string[], counter?: { n: number }) => async (): Promise<Loaded> => {
  if (counter) counter.n++;
  return { entry: makeEntry(body, { tags }), store: true };
};
const waitFor = async (cond: () => boolean | Promise<boolean>, ms = 2000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
};
const ready = (link: RedisLink) => waitFor(() => link.up(), 5000);
/** A stored answer's gzip is made off the event loop on its first demand: its size once it is ready. */
async function gzipped(e: Parameters<typeof gzipOf>[0]): Promise<number> {
  for (;;) {
    const gz = gzipOf(e, true);
    if (gz) return gz.body.length;
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('two instances on one Redis', () => {
  const { prefix, cleanup } = testPrefix();
  const links: RedisLink[] = [];
  let a: ResponseCache;
  let b: ResponseCache;
  let raw: Redis;

  beforeAll(async () => {
    await ensureSharedRedis();
    for (let i = 0; i < 2; i++) links.push(connectRedis(SHARED_REDIS, quiet));
    await Promise.all(links.map(ready));
    a = new ResponseCache({ policy, redis: links[0], prefix });
    b = new ResponseCache({ policy, redis: links[1], prefix });
    await readersStarted(a, b);
    raw = new Redis(SHARED_REDIS);
    // Let both subscriptions register.
    await new Promise((r) => setTimeout(r, 100));
  });
  afterAll(async () => {
    await Promise.all(links.map((l) => l.close()));
    raw.disconnect();
    await cleanup();
  });

  it('fills Redis once so the other instance answers without loading', async () => {
    const counter = { n: 0 };
    await a.get('list?page=1', load('page one', ['list:event', 'event:1'], counter));
    await filledInRedis(raw, prefix, 'list?page=1', 2000);
    const r = await b.get('list?page=1', load('other', ['list:event'], counter));
    expect(r.source).toBe('l2');
    expect(r.entry.body.toString()).toBe('page one');
    expect(counter.n).toBe(1);
  });

  it('keeps answers read from Redis in memory of their own, not in views of the socket read other replies share', async () => {
    const keys = Array.from({ length: 20 }, (_, i) => `own-${i}`);
    for (const k of keys) await a.get(k, load(`{"id":"${k}"}`, ['event:3']));
    await waitFor(
      async () => (await raw.exists(...keys.map((k) => `${prefix}e:${hashedKey(k)}`))) === keys.length,
    );
    // Asked at once, the replies arrive in one read of the socket: ioredis hands each out as a view into it.
    const got = await Promise.all(keys.map((k) => b.get(k, load('other', ['event:3']))));
    for (const [i, r] of got.entries()) {
      expect(r.source).toBe('l2');
      expect(r.entry.body.toString()).toBe(`{"id":"${keys[i]}"}`);
      expect([r.entry.body.byteOffset, r.entry.body.buffer.byteLength]).toEqual([0, r.entry.body.length]);
    }
  });

  it("holds one copy in Redis, the plain bytes, and counts a Redis entry's gzip in the reading instance's budget", async () => {
    const body = JSON.stringify({
      events: Array.from({ length: 60 }, (_, i) => ({ id: i, title: `Concert ${i}` })),
    });
    await a.get('gz-budget', load(body, ['event:4']));
    await filledInRedis(raw, prefix, 'gz-budget', 2000);
    const mine = a.peek('gz-budget')!;
    const gzA = await gzipped(mine);
    const got = await b.get('gz-budget', load('other', ['event:4']));
    expect(got.source).toBe('l2');
    const before = b.size.bytes;
    const gzB = await gzipped(got.entry);
    expect(gzB).toBe(gzA);
    expect(b.size.bytes).toBe(before + gzB);
    // Redis keeps the entry as stored (meta and plain body): each instance makes and counts its own gzip.
    const stored = await raw.getBuffer(`${prefix}e:${hashedKey('gz-budget')}`);
    expect(stored?.length).toBe(encodeEntry(mine).length);
  });

  it('stores an entry named in each of its tag sets, which live as long as it or longer, never for ever', async () => {
    const life = (policy.ttlSeconds + policy.staleIfErrorSeconds) * 1000;
    // A tag set another entry made longer-lived keeps its life (GT); a new one gets the entry's (NX).
    await raw.sadd(`${prefix}t:venue:9`, 'another entry');
    await raw.pexpire(`${prefix}t:venue:9`, life * 3);
    await a.get('named', load('named bytes', ['event:31', 'list:event', 'venue:9']));
    expect(await filledInRedis(raw, prefix, 'named')).toBe(true);
    const ek = `${prefix}e:${hashedKey('named')}`;
    const entryTtl = await raw.pttl(ek);
    expect(entryTtl).toBeGreaterThan(life - 5000);
    expect(entryTtl).toBeLessThanOrEqual(life);
    for (const t of ['event:31', 'list:event', 'venue:9']) {
      expect(await raw.smembers(`${prefix}t:${t}`)).toContain(ek);
      expect(await raw.pttl(`${prefix}t:${t}`)).toBeGreaterThanOrEqual(entryTtl - 1000);
    }
    expect(await raw.pttl(`${prefix}t:event:31`)).toBeLessThanOrEqual(life);
    expect(await raw.pttl(`${prefix}t:venue:9`)).toBeGreaterThan(life * 2);
  });

  it('keeps the ETag computed by the filling instance', async () => {
    await a.get('etag', load('same bytes', ['event:2']));
    // The fill reaches Redis after the answer: wait for it there (a fixed 50 ms raced it on a loaded machine).
    expect(await filledInRedis(raw, prefix, 'etag')).toBe(true);
    const fromA = a.peek('etag')!;
    const fromB = (await b.get('etag', load('different', ['event:2']))).entry;
    expect(fromB.etag).toBe(fromA.etag);
  });

  it('drops both instances’ in-process copies and the Redis entry within a second of an invalidation', async () => {
    await a.get('e3', load('three', ['event:3']));
    expect(await filledInRedis(raw, prefix, 'e3')).toBe(true);
    await b.get('e3', load('three', ['event:3']));
    expect(b.peek('e3')).toBeDefined();
    await a.invalidate(['event:3']);
    expect(a.peek('e3')).toBeUndefined();
    expect(await waitFor(() => b.peek('e3') === undefined, guard(1000))).toBe(true);
    expect(await raw.exists(`${prefix}e:${hashedKey('e3')}`)).toBe(0);
    expect(await raw.exists(`${prefix}t:event:3`)).toBe(0);
  });

  it('purges everything everywhere', async () => {
    await a.get('p1', load('x', ['event:4']));
    await b.get('p2', load('y', ['event:5']));
    expect(await filledInRedis(raw, prefix, 'p1')).toBe(true);
    expect(await filledInRedis(raw, prefix, 'p2')).toBe(true);
    await a.purgeAll();
    expect(await waitFor(() => b.peek('p2') === undefined, guard(1000))).toBe(true);
    expect(await raw.keys(`${prefix}e:*`)).toEqual([]);
  });
});

describe('Redis outage', () => {
  it('keeps answering from memory and the upstream, logs once, and replays invalidations when Redis is back', async () => {
    const redis = await privateRedis();
    const warnings: string[] = [];
    const infos: string[] = [];
    const link = connectRedis(redis.url, {
      warn: (_o, m) => warnings.push(m),
      info: (_o, m) => infos.push(m),
    });
    try {
      await ready(link);
      const cache = new ResponseCache({ policy, redis: link, prefix: 'out:' });
      await readersStarted(cache);
      await cache.get('kept', load('kept', ['event:1']));
      await new Promise((r) => setTimeout(r, 50));
      expect(cache.redis).toBe('up');
      await redis.kill();
      let failures = 0;
      for (let i = 0; i < 200; i++) {
        try {
          const r = await cache.get(i % 2 ? 'kept' : `new${i}`, load(`v${i}`, ['event:1']));
          if (!r.entry) failures++;
        } catch {
          failures++;
        }
      }
      expect(failures).toBe(0);
      await cache.invalidate(['event:1']);
      expect(await waitFor(() => warnings.length > 0, 5000)).toBe(true);
      // More requests during the outage (and reconnection attempts) add no log line.
      for (let i = 0; i < 50; i++) await cache.get(`more${i}`, load('m', ['event:2']));
      await new Promise((r) => setTimeout(r, 500));
      expect(warnings).toHaveLength(1);
      expect(cache.redis).toBe('down');
      // Redis comes back empty here; the replayed invalidation must go through without error.
      await redis.start();
      expect(await ready(link)).toBe(true);
      expect(await waitFor(() => infos.includes('Redis is back'), 5000)).toBe(true);
      await cache.get('after', load('after', ['event:7']));
      const r = new Redis(redis.url);
      expect(await waitFor(async () => (await r.exists(`out:e:${hashedKey('after')}`)) === 1)).toBe(true);
      r.disconnect();
    } finally {
      await link.close();
      await redis.dispose();
    }
  });
});
