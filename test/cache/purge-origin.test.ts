// Who purges the CDN: with two instances on one Redis, the one that invalidated (a write, a notification, its own
// poll), never the peer that hears of it through pub/sub, so a write is purged once, not once per instance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEntry } from '../../src/cache/entry.ts';
import { connectRedis, type RedisLink } from '../../src/cache/redis.ts';
import { type Loaded, ResponseCache } from '../../src/cache/response-cache.ts';
import { ensureSharedRedis, readersStarted, SHARED_REDIS, testPrefix } from './redis-helper.ts';

const policy = { ttlSeconds: 30, staleWhileRevalidateSeconds: 10, staleIfErrorSeconds: 300 };
const quiet = { warn() {}, info() {} };
const load = (body: string, tags: string[]) => async (): Promise<Loaded> => ({
  entry: makeEntry(body, { tags }),
  store: true,
});

/** A purger that writes down what it was told. */
const recorder = () => {
  const told: Array<readonly string[] | null> = [];
  return { told, purge: (tags: readonly string[] | null) => void told.push(tags) };
};

describe('CDN purges with two instances on one Redis', () => {
  const { prefix, cleanup } = testPrefix();
  const links: RedisLink[] = [];
  const pa = recorder();
  const pb = recorder();
  let a: ResponseCache;
  let b: ResponseCache;

  beforeAll(async () => {
    await ensureSharedRedis();
    for (let i = 0; i < 2; i++) links.push(connectRedis(SHARED_REDIS, quiet));
    await Promise.all(links.map((l) => l.waitUp(5_000)));
    a = new ResponseCache({ policy, redis: links[0], prefix, purger: pa });
    b = new ResponseCache({ policy, redis: links[1], prefix, purger: pb });
    await readersStarted(a, b);
    await new Promise((r) => setTimeout(r, 100));
  });
  afterAll(async () => {
    await Promise.all(links.map((l) => l.close()));
    await cleanup();
  });

  it('are sent by the instance that invalidated, while the peer only drops its copies', async () => {
    await b.get('event-7', load('seven', ['event:7']));
    const dropped = new Promise<readonly string[] | null>((r) => b.onRemoteInvalidate(r));
    await a.invalidate(['event:7', 'list:event']);
    expect(await dropped).toEqual(['event:7', 'list:event']);
    expect(pa.told).toEqual([['event:7', 'list:event']]);
    expect(pb.told).toEqual([]);
    // The peer's copy is gone all the same.
    const r = await b.get('event-7', load('seven, renamed', ['event:7']));
    expect(r.entry.body.toString()).toBe('seven, renamed');
  });

  it("purge everything from the operators' instance alone", async () => {
    const dropped = new Promise((r) => a.onRemoteInvalidate(r));
    await b.purgeAll();
    await dropped;
    expect(pb.told).toEqual([null]);
    expect(pa.told).toEqual([['event:7', 'list:event']]);
  });
});
