// The change log on a real Redis, beside the in-memory one: the same rules, one entry per change across instances and
// restarts, trimming by age, and what a reader past the retention is told.
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { Observation } from '../../src/changes/ledger.ts';
import { MemoryChangeLog } from '../../src/changes/memory-log.ts';
import { RedisChangeLog } from '../../src/changes/redis-log.ts';
import type { ChangeStore } from '../../src/changes/store.ts';
import type { LoggedChange } from '../../src/changes/types.ts';
import { SHARED_REDIS, testPrefix } from './redis-helper.ts';

const { prefix, cleanup } = testPrefix();
const redis = new Redis(SHARED_REDIS);
const opened: ChangeStore[] = [];
afterAll(async () => {
  for (const l of opened) await l.close();
  await cleanup();
  redis.disconnect();
});

const ctx = (now?: () => Date, retentionMs = 30 * 86_400_000) => ({
  apiRoot: 'https://gw.example/wp-json/calendar/events/v1',
  taxonomy: { category: 'tribe_events_cat', tag: 'post_tag' },
  retentionMs,
  now,
});

let n = 0;
/** A Redis log under a prefix of its own (a fresh deployment), or another instance on the same one. */
const redisLog = (p = `${prefix}${++n}:`, now?: () => Date, retentionMs?: number) => {
  const l = new RedisChangeLog(redis, () => redis.duplicate(), p, ctx(now, retentionMs));
  opened.push(l);
  return l;
};

const ev = (id: number, version: string | null, order = '', pub = true): Observation => ({
  kind: 'event',
  id,
  version,
  order,
  public: pub,
});

const actions = (xs: LoggedChange[]) => xs.map((c) => `${c.kind}:${c.id}:${c.action}`);

for (const [name, make] of [
  ['memory', () => new MemoryChangeLog(ctx())],
  ['redis', () => redisLog()],
] as const) {
  describe(`the ${name} change log`, () => {
    it('appends each change once, in order, and reads on from any cursor', async () => {
      const log = make();
      await log.observe(ev(1, 'a', '2026-01-01 10:00:00'));
      await log.observe(ev(2, 'a', '2026-01-01 10:00:00'));
      await log.observe(ev(1, 'a', '2026-01-01 10:00:00'));
      await log.observe(ev(1, 'b', '2026-01-01 10:00:01', false));
      await log.observe(ev(2, null));
      await log.observe(ev(2, null));
      const all = await log.read('0', 100);
      expect(actions(all)).toEqual([
        'event:1:created',
        'event:2:created',
        'event:1:updated',
        'event:2:deleted',
      ]);
      expect(all[2]).toMatchObject({ public: false, was_public: true, modified_utc: '2026-01-01 10:00:01' });
      expect(all[3]).toMatchObject({
        public: false,
        was_public: true,
        rest_url: 'https://gw.example/wp-json/calendar/events/v1/events/2',
        tags: ['event:2', 'list:event'],
      });
      expect(actions(await log.read(all[1]!.cursor, 1))).toEqual(['event:1:updated']);
      expect(await log.head()).toBe(all[3]!.cursor);
      expect(await log.expired(all[0]!.cursor)).toBe(false);
    });

    it("logs a write's own save once when another source logged it first, and a second write in the same second", async () => {
      const log = make();
      const write = (id: number, version: string) => ({
        ...ev(id, version, '2026-01-01 10:00:00'),
        force: true,
      });
      await log.observe(write(20, 'a'));
      // Another instance refetched it on the write's invalidation and logged it before the write's own observation.
      await log.observe(ev(20, 'b', '2026-01-01 10:00:00'));
      await log.observe(write(20, 'b'));
      // A second write through the gateway within the same second, its version unchanged (a field it does not hold).
      await log.observe(write(20, 'b'));
      // Polls reading it again: nothing.
      await log.observe(ev(20, 'b', '2026-01-01 10:00:00'));
      expect(actions(await log.read('0', 100))).toEqual([
        'event:20:created',
        'event:20:updated',
        'event:20:updated',
      ]);
      expect((await log.states('event', [20]))[0]).toBe('b|2026-01-01 10:00:00|1|w');
    });

    it('tells followers of every change appended', async () => {
      const log = make();
      const got: LoggedChange[] = [];
      const stop = log.follow((c) => got.push(c));
      // The Redis follower starts reading from the end it first sees: give it that moment.
      await new Promise((r) => setTimeout(r, 100));
      await log.observe(ev(10, 'a', '2026-01-01 10:00:00'));
      await log.observe(ev(11, 'a', '2026-01-01 10:00:00'));
      for (let i = 0; i < 100 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      stop();
      expect(actions(got)).toEqual(['event:10:created', 'event:11:created']);
    });

    it('seeds the ledger silently, then logs only what differs from it', async () => {
      const log = make();
      expect(await log.seeded('venue')).toBe(false);
      const v = (id: number, version: string | null): Observation => ({
        kind: 'venue',
        id,
        version,
        order: '2026-01-01 10:00:00',
        public: true,
      });
      await log.seed('venue', [v(1, 'a')]);
      expect(await log.seeded('venue')).toBe(false);
      // A second chunk, and the first again (a start stopped half way seeds again): an entry held is kept.
      await log.seed('venue', [v(2, 'a'), v(1, 'b')]);
      await log.markSeeded('venue');
      expect(await log.seeded('venue')).toBe(true);
      expect(await log.read('0', 10)).toEqual([]);
      expect(await log.states('venue', [1, 3])).toEqual(['a|2026-01-01 10:00:00|1', undefined]);
      expect(await log.observe(v(1, 'a'))).toBeNull();
      expect((await log.observe(v(2, null)))?.action).toBe('deleted');
      const ids: number[] = [];
      let cursor = '0';
      do {
        const page = await log.scan('venue', cursor, 1);
        ids.push(...page.entries.map(([id]) => id));
        cursor = page.next;
      } while (cursor !== '0');
      expect([...new Set(ids)].sort()).toEqual([1, 2]);
    });
  });
}

describe('the Redis change log across instances and restarts', () => {
  it('logs a change seen by two instances at once once', async () => {
    const p = `${prefix}shared:`;
    const [a, b] = [redisLog(p), redisLog(p)];
    const seenBy = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).observe(ev(5, 'v1', '2026-01-01 10:00:00'))),
    );
    expect(seenBy.filter(Boolean)).toHaveLength(1);
    // A third instance started later reads the same log and the same epoch, and sees the change already logged.
    const c = redisLog(p);
    expect(await c.epoch()).toBe(await a.epoch());
    expect(actions(await c.read('0', 10))).toEqual(['event:5:created']);
    expect(await c.observe(ev(5, 'v1', '2026-01-01 10:00:00'))).toBeNull();
    expect(await redis.xlen(`${p}changes`)).toBe(1);
    const [entry] = (await redis.xrange(`${p}changes`, '-', '+')) as Array<[string, string[]]>;
    expect(entry![1]).toEqual([
      'kind',
      'event',
      'id',
      '5',
      'action',
      'created',
      'modified_utc',
      '2026-01-01 10:00:00',
      'rest_url',
      'https://gw.example/wp-json/calendar/events/v1/events/5',
      'tags',
      'event:5,list:event',
      'public',
      '1',
      'was_public',
      '0',
    ]);
  });

  it('trims entries older than the retention and says a cursor before them expired', async () => {
    // Stream ids are Redis's own clock; the log's clock says where the retention ends. It runs true while the first
    // batch is written, then stops at a cut between the two batches plus the retention, so that however slow the
    // machine, the first batch is past the retention and the second inside it.
    const p = `${prefix}trim:`;
    const retention = 60_000;
    let stopped: number | undefined;
    const log = redisLog(p, () => new Date(stopped ?? Date.now()), retention);
    // More than two radix-tree nodes (100 entries each), so that a trim removes whole nodes and more.
    for (let i = 1; i <= 250; i++) await log.observe(ev(i, 'a', '2025-12-31 10:00:00'));
    const first = (await log.read('0', 1))[0]!;
    expect(await log.expired(first.cursor)).toBe(false);
    const last = (await log.read(first.cursor, 300)).at(-1)!;
    await new Promise((r) => setTimeout(r, 600));
    stopped = Date.now() - 300 + retention;
    for (let i = 1; i <= 150; i++) await log.observe(ev(1000 + i, 'a', '2025-12-31 10:00:00'));
    expect(await log.expired(first.cursor)).toBe(true);
    // A reader who had read the whole first batch lost nothing: the log goes on where it stopped.
    expect(await log.expired(last.cursor)).toBe(false);
    expect((await log.read(last.cursor, 1))[0]!.id).toBe(1001);
    expect(await log.expired('0')).toBe(true);
    expect(await log.expired(await log.head())).toBe(false);
    expect(await redis.xlen(`${p}changes`)).toBe(150);
  });

  it('agrees with the in-memory log on every sequence of observations', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            id: fc.integer({ min: 1, max: 3 }),
            version: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: null }),
            order: fc.constantFrom('', '2026-01-01 10:00:00', '2026-01-01 10:00:01', '2026-01-01 10:00:02'),
            public: fc.boolean(),
          }),
          { maxLength: 12 },
        ),
        async (seq) => {
          const mem = new MemoryChangeLog(ctx());
          const red = redisLog();
          for (const s of seq) {
            const o = ev(s.id, s.version, s.order, s.public);
            const [x, y] = [await mem.observe(o), await red.observe(o)];
            const strip = (c: LoggedChange | null) => c && { ...c, cursor: '', modified_utc: '' };
            expect(strip(y)).toEqual(strip(x));
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
