// The cache on a real Redis Cluster (3 masters, 3 replicas): entries spread over the masters, no cross-slot command,
// a purge of every master; and the invalidation stream: an instance cut off from Redis misses nothing once back, and
// drops its whole in-process cache when what it missed was trimmed away.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEntry } from '../../src/cache/entry.ts';
import { hashedKey } from '../../src/cache/key.ts';
import { connectRedis, type RedisLink } from '../../src/cache/redis.ts';
import { type Loaded, ResponseCache } from '../../src/cache/response-cache.ts';
import { guard } from '../slack.ts';
import { type LocalCluster, localCluster, tcpProxy } from './redis-ha-helper.ts';
import { privateRedis, readersStarted } from './redis-helper.ts';

const policy = { ttlSeconds: 30, staleWhileRevalidateSeconds: 10, staleIfErrorSeconds: 300 };
const quiet = { warn() {}, info() {} };
const load = (body: string, tags: string[]) => async (): Promise<Loaded> => ({
  entry: makeEntry(body, { tags }),
  store: true,
});
const waitFor = async (cond: () => boolean | Promise<boolean>, ms = 3000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
};

describe('on a Redis Cluster', () => {
  let cluster: LocalCluster;
  const links: RedisLink[] = [];
  let a: ResponseCache;
  let b: ResponseCache;
  const prefix = 'ha:';

  beforeAll(async () => {
    cluster = await localCluster();
    for (let i = 0; i < 2; i++) links.push(connectRedis({ mode: 'cluster', url: cluster.url }, quiet));
    expect(await Promise.all(links.map((l) => l.waitUp(10_000)))).toEqual([true, true]);
    a = new ResponseCache({ policy, redis: links[0], prefix });
    b = new ResponseCache({ policy, redis: links[1], prefix });
    // What the tests below drop goes through each one's invalidation reader, which must know where it reads from.
    await readersStarted(a, b);
  }, guard(60_000));
  afterAll(async () => {
    await Promise.all(links.map((l) => l.close()));
    await cluster?.dispose();
  });

  it('spreads entries over the masters, shares them, and drops them everywhere on an invalidation', async () => {
    const keys = Array.from({ length: 30 }, (_, i) => `list?page=${i}`);
    for (const k of keys) await a.get(k, load(k, ['list:event', `event:${k.length}`]));
    const owners = new Set<number>();
    for (const k of keys) owners.add((await cluster.masterOf(`${prefix}e:${hashedKey(k)}`)).port);
    expect(owners.size).toBe(3);
    expect(await waitFor(async () => (await b.get(keys[0]!, load('other', []))).source === 'l2')).toBe(true);
    await a.invalidate(['list:event']);
    expect(await waitFor(() => b.peek(keys[0]!) === undefined)).toBe(true);
    const r = await b.get(keys[1]!, load('fresh', ['list:event']));
    expect([r.source, r.entry.body.toString()]).toEqual(['upstream', 'fresh']);
  });

  it('purges every master', async () => {
    for (let i = 0; i < 20; i++) await a.get(`p${i}`, load(`p${i}`, [`event:${i}`]));
    await new Promise((r) => setTimeout(r, 100));
    await b.purgeAll();
    expect(await waitFor(() => a.size.entries === 0)).toBe(true);
    let left = 0;
    for (const n of links[0]!.masters()) left += (await n.keys(`${prefix}[et]:*`)).length;
    expect(left).toBe(0);
  });
});

describe('the invalidation stream', () => {
  it('replays what an instance missed while its connection was cut, and drops its whole cache after a gap', {
    timeout: guard(30_000),
  }, async () => {
    const redis = await privateRedis();
    const proxy = await tcpProxy(redis.port);
    const warnings: string[] = [];
    const la = connectRedis(redis.url, quiet);
    const log = { warn: (_o: object, m: string) => warnings.push(m), info() {} };
    const lb = connectRedis(proxy.url, log);
    const raw = new Redis(redis.url);
    try {
      expect([await la.waitUp(5000), await lb.waitUp(5000)]).toEqual([true, true]);
      const a = new ResponseCache({ policy, redis: la, prefix: 's:' });
      const b = new ResponseCache({ policy, redis: lb, prefix: 's:', log });
      // What b holds from here on is what its reader will keep current (before that, it would drop it when it starts).
      await readersStarted(b);
      const seen: string[] = [];
      b.onRemoteInvalidate((tags) => seen.push(...(tags ?? ['*'])));
      const missed = Array.from({ length: 25 }, (_, i) => `event:${i}`);
      for (const t of missed) await b.get(t, load(t, [t]));
      await new Promise((r) => setTimeout(r, 300));
      const before = await raw.xlen('s:invalidations');
      await proxy.cut();
      for (const t of missed) await a.invalidate([t]);
      // a does each invalidation once more 250 ms later (ResponseCache's AGAIN_MS): all 50 reach the stream while b is
      // cut off. Restoring b before they all had made what it replays depend on the machine's speed: at load 16 the
      // loop took over 250 ms, and the first six came twice (npm test, 2026-12-02).
      expect(await waitFor(async () => (await raw.xlen('s:invalidations')) >= before + 50, 10_000)).toBe(
        true,
      );
      // Cut off, b still holds them all.
      expect(missed.every((t) => b.peek(t) !== undefined)).toBe(true);
      await proxy.restore();
      expect(await waitFor(() => seen.length >= 50, 10_000)).toBe(true);
      expect(missed.every((t) => b.peek(t) === undefined)).toBe(true);
      // Each once, in the order a made them, then once more (the again may interleave with the first ones).
      expect([...new Set(seen)]).toEqual(missed);
      expect([...seen].sort()).toEqual([...missed, ...missed].sort());
      expect(b.stream).toMatchObject({ replayed: 50, gaps: 0 });

      // Cut off again while the stream is trimmed past what b read: b cannot know what it missed.
      await b.get('kept', load('kept', ['event:99']));
      await proxy.cut();
      await a.invalidate(['event:1000']);
      await raw.xtrim('s:invalidations', 'MAXLEN', 0);
      await a.invalidate(['event:1001']);
      await proxy.restore();
      expect(await waitFor(() => b.peek('kept') === undefined, 10_000)).toBe(true);
      expect(b.stream?.gaps).toBe(1);
      expect(warnings).toContain('Invalidations were missed: dropping the whole in-process cache');
    } finally {
      raw.disconnect();
      await Promise.all([la.close(), lb.close()]);
      await proxy.close();
      await redis.dispose();
    }
  });
});
