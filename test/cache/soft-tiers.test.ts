// Soft invalidation across two instances on one real Redis: soft on the other instance too, hard when the write hid
// something, and never a Redis copy older than the drop brought back as fresh.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEntry } from '../../src/cache/entry.ts';
import { connectRedis, type RedisLink } from '../../src/cache/redis.ts';
import { type Loaded, ResponseCache } from '../../src/cache/response-cache.ts';
import {
  ensureSharedRedis,
  filledInRedis,
  readersStarted,
  SHARED_REDIS,
  testPrefix,
} from './redis-helper.ts';

const policy = { ttlSeconds: 30, staleWhileRevalidateSeconds: 10, staleIfErrorSeconds: 300 };
const quiet = { warn() {}, info() {} };
const load = (body: string, tags: string[], counter?: { n: number }) => async (): Promise<Loaded> => {
  if (counter) counter.n++;
  await new Promise((r) => setTimeout(r, 5));
  return { entry: makeEntry(body, { tags }), store: true };
};
const waitFor = async (cond: () => boolean | Promise<boolean>, ms = 2000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
};
const text = (e: { body: Buffer }) => e.body.toString();

describe('soft invalidation on two instances sharing Redis', () => {
  const { prefix, cleanup } = testPrefix();
  const links: RedisLink[] = [];
  let a: ResponseCache;
  let b: ResponseCache;
  let raw: Redis;

  beforeAll(async () => {
    await ensureSharedRedis();
    raw = new Redis(SHARED_REDIS);
    for (let i = 0; i < 2; i++) links.push(connectRedis(SHARED_REDIS, quiet));
    await Promise.all(links.map((l) => waitFor(() => l.up(), 5000)));
    a = new ResponseCache({ policy, redis: links[0], prefix, softStaleMs: 1000 });
    b = new ResponseCache({ policy, redis: links[1], prefix, softStaleMs: 1000 });
    await readersStarted(a, b);
    await new Promise((r) => setTimeout(r, 100));
  });
  afterAll(async () => {
    raw.disconnect();
    await Promise.all(links.map((l) => l.close()));
    await cleanup();
  });

  /** Both instances hold `key` in L1, filled once. */
  async function both(key: string, tags: string[]): Promise<void> {
    await a.get(key, load('old', tags));
    // The fill reaches Redis after the answer: wait for it there (a fixed 30 ms raced it on a loaded machine).
    expect(await filledInRedis(raw, prefix, key)).toBe(true);
    expect((await b.get(key, load('not loaded', tags))).source).toBe('l2');
    expect(text(b.peek(key)!)).toBe('old');
  }

  it("serves the previous answer on the other instance while its refill runs, then the write's", async () => {
    await both('s1', ['list:event', 'event:11']);
    await a.invalidate(['event:11'], { soft: true });
    expect(await waitFor(() => b.peek('s1') === undefined, 1000)).toBe(true);
    // Redis dropped hard: B's refill loads (once, for every concurrent reader).
    const counter = { n: 0 };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => b.get('s1', load('new', ['list:event'], counter))),
    );
    expect(answers.map((r) => text(r.entry))).toEqual(Array(10).fill('old'));
    expect(answers.every((r) => !r.shared)).toBe(true);
    expect(await waitFor(() => b.peek('s1') !== undefined)).toBe(true);
    expect(text(b.peek('s1')!)).toBe('new');
    expect(counter.n).toBe(1);
  });

  it('drops hard on the other instance when the write hid something', async () => {
    await both('h1', ['list:event', 'event:12']);
    await a.invalidate(['event:12']);
    expect(await waitFor(() => b.peek('h1') === undefined, 1000)).toBe(true);
    expect(text((await b.get('h1', load('new', ['list:event']))).entry)).toBe('new');
  });

  it('never takes a Redis copy filled before its own drop for fresh', async () => {
    await both('r1', ['list:event', 'event:13']);
    // The refill starts while this instance's invalidation is still on its way to Redis, which holds the old copy.
    const dropping = b.invalidate(['event:13'], { soft: true });
    const counter = { n: 0 };
    const r = await b.get('r1', load('reloaded', ['list:event', 'event:13'], counter));
    expect(text(r.entry)).toBe('old');
    await dropping;
    expect(await waitFor(() => b.peek('r1') !== undefined)).toBe(true);
    expect(text(b.peek('r1')!)).toBe('reloaded');
    expect(counter.n).toBe(1);
  });
});
