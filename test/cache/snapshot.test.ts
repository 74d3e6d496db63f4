// Index snapshots in Redis: a new instance warms from one, one instance crawls at a time, one writes.
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticPosts } from '../../bench/synthetic.ts';
import { EventIndex, type IndexClient } from '../../src/index/event-index.ts';
import { facetsOf } from '../../src/index/facets.ts';
import { RedisSnapshotStore } from '../../src/index/snapshot.ts';
import { ROWS_PER_CHUNK } from '../../src/index/snapshot-codec.ts';
import { type Mapping, mappingSchema } from '../../src/mapping/schema.ts';
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

const mapping: Mapping = mappingSchema.parse(
  JSON.parse(readFileSync(new URL('../../mappings/tec.json', import.meta.url), 'utf8')),
);
const noClient: IndexClient = {
  all: async () => [],
  list: async () => ({ items: [], total: 0, totalPages: 0 }),
  request: async () => {
    throw new Error('no upstream');
  },
};
const empty = (language = 'en') =>
  new EventIndex({ client: noClient, mapping, language, logger: { info() {}, warn() {} } });

/** An index of `n` synthetic events, as if built. */
function indexOf(n: number, language = 'en'): EventIndex {
  const index = empty(language);
  const r = index.restoring();
  r.add([...syntheticPosts(n)].map((p) => facetsOf(p, mapping)));
  r.finish(1_700_000_000_000, new Date(0).toISOString());
  return index;
}

const everything = {
  statuses: ['publish', 'future', 'draft', 'pending', 'private'],
  page: 1,
  perPage: 100_000,
};

describe('RedisSnapshotStore', () => {
  it('loads what was saved into a new index, per language, in chunks', async () => {
    const store = new RedisSnapshotStore(r1, { prefix, up: () => true });
    const index = indexOf(5000);
    expect(await store.save(index)).toBe(true);
    const copy = empty();
    expect(await store.load('en', copy)).toBe(true);
    expect(copy.size).toBe(5000);
    expect(copy.query(everything)).toEqual(index.query(everything));
    expect(copy.query({ ...everything, search: 'music -night' })).toEqual(
      index.query({ ...everything, search: 'music -night' }),
    );
    expect(copy.get(4321)).toEqual(index.get(4321));
    expect(copy.snapshot()?.since).toBe(1_700_000_000_000);
    // 5000 events are 10 chunks after the header.
    expect(JSON.parse((await r1.get(`${prefix}index:en`)) ?? '{}').chunks).toBe(1 + 5000 / ROWS_PER_CHUNK);
    expect(await store.load('es', empty('es'))).toBe(false);
  });

  it('replaces the previous generation and deletes its chunks', async () => {
    const p = `${prefix}gen:`;
    const store = new RedisSnapshotStore(r1, { prefix: p, up: () => true });
    await store.save(indexOf(10));
    await store.save(indexOf(30));
    const copy = empty();
    expect(await store.load('en', copy)).toBe(true);
    expect(copy.size).toBe(30);
    expect((await r1.keys(`${p}index:en:*`)).length).toBe(2);
  });

  it('leaves the index empty when a chunk is missing or the value is not a snapshot', async () => {
    const p = `${prefix}broken:`;
    const store = new RedisSnapshotStore(r1, { prefix: p, up: () => true });
    await store.save(indexOf(3000));
    const { gen } = JSON.parse((await r1.get(`${p}index:en`)) ?? '{}');
    await r1.del(`${p}index:en:${gen}:2`);
    const copy = empty();
    expect(await store.load('en', copy)).toBe(false);
    expect(copy.size).toBe(0);
    expect(copy.builtAt).toBeNull();
    // An older gateway's single gzip value under the key.
    await r1.set(`${p}index:en`, Buffer.from([0x1f, 0x8b, 0x08, 0x00]));
    expect(await store.load('en', empty())).toBe(false);
  });

  it('lets one instance write the snapshot; another saves only when it takes over', async () => {
    const p = `${prefix}writer:`;
    const a = new RedisSnapshotStore(r1, { prefix: p, up: () => true });
    // A second of role: a busy two-core machine (the suite's lanes side by side) stalled the 200 ms it was past expiry.
    const b = new RedisSnapshotStore(r2, { prefix: p, up: () => true, writerMs: 1_000 });
    expect(await a.save(indexOf(1))).toBe(true);
    expect(await b.save(indexOf(2))).toBe(false);
    // The instance that just crawled takes the role.
    expect(await b.save(indexOf(3), { force: true })).toBe(true);
    expect(await a.save(indexOf(4))).toBe(false);
    // A writer that stops saving loses the role when it expires.
    await new Promise((r) => setTimeout(r, 1_100));
    expect(await a.save(indexOf(5))).toBe(true);
    const copy = empty();
    await a.load('en', copy);
    expect(copy.size).toBe(5);
  });

  it('lets one of two starting instances crawl while the other waits for its snapshot', async () => {
    const p = `${prefix}race:`;
    const a = new RedisSnapshotStore(r1, { prefix: p, up: () => true, waitStepMs: 20 });
    const b = new RedisSnapshotStore(r2, { prefix: p, up: () => true, waitStepMs: 20 });
    let crawls = 0;
    const crawl = (store: RedisSnapshotStore) => async () => {
      crawls++;
      await new Promise((r) => setTimeout(r, 200));
      await store.save(indexOf(3), { force: true });
    };
    const results = await Promise.all([a.crawlOnce('en', crawl(a)), b.crawlOnce('en', crawl(b))]);
    expect(crawls).toBe(1);
    expect(results.sort()).toEqual(['crawled', 'snapshot']);
    expect(await r1.exists(`${p}index-lock:en`)).toBe(0);
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
    expect(await store.save(indexOf(1))).toBe(false);
  });
});
