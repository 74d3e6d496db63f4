// Index snapshots in Redis: a new instance warms from one, and only one instance crawls at a time.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexSnapshot } from '../../src/index/event-index.ts';
import { RedisSnapshotStore } from '../../src/index/snapshot.ts';
import { ensureSharedRedis, SHARED_REDIS, testPrefix } from './redis-helper.ts';

const { prefix, cleanup } = testPrefix();
let r1: Redis;
let r2: Redis;

beforeAll(async () => {
  await ensureSharedRedis();
  r1 = new Redis(SHARED_REDIS);
  r2 = new Redis(SHARED_REDIS);
});
afterAll(async () => {
  r1.disconnect();
  r2.disconnect();
  await cleanup();
});

const snap = (language: string, n: number): IndexSnapshot => ({
  language,
  facets: Array.from({ length: n }, (_, i) => ({ id: i + 1, title: `Event ${i + 1}` }) as never),
  since: 1_700_000_000_000,
  builtAt: new Date(0).toISOString(),
});

describe('RedisSnapshotStore', () => {
  it('returns what was saved, per language', async () => {
    const store = new RedisSnapshotStore(r1, { prefix, up: () => true });
    await store.save(snap('en', 2000));
    expect(await store.load('en')).toEqual(snap('en', 2000));
    expect(await store.load('es')).toBeNull();
  });

  it('lets one of two starting instances crawl while the other waits for its snapshot', async () => {
    const a = new RedisSnapshotStore(r1, { prefix: `${prefix}race:`, up: () => true, waitStepMs: 20 });
    const b = new RedisSnapshotStore(r2, { prefix: `${prefix}race:`, up: () => true, waitStepMs: 20 });
    let crawls = 0;
    const crawl = (store: RedisSnapshotStore) => async () => {
      crawls++;
      await new Promise((r) => setTimeout(r, 200));
      await store.save(snap('en', 3));
    };
    const results = await Promise.all([a.crawlOnce('en', crawl(a)), b.crawlOnce('en', crawl(b))]);
    expect(crawls).toBe(1);
    expect(results.sort()).toEqual(['crawled', 'snapshot']);
    expect(await r1.exists(`${prefix}race:index-lock:en`)).toBe(0);
  });

  it('crawls for itself when Redis is away', async () => {
    const store = new RedisSnapshotStore(r1, { prefix, up: () => false });
    let crawled = false;
    expect(
      await store.crawlOnce('en', async () => {
        crawled = true;
      }),
    ).toBe('crawled');
    expect(crawled).toBe(true);
  });
});
