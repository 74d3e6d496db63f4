// The event index compacting replaced rows in the background, and the registry of one index per language.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { syntheticPosts } from '../../bench/synthetic.ts';
import { guard } from '../../test/slack.ts';
import { EventIndex } from './event-index.ts';
import { FakeWp, post, quiet, silentLogger, tec } from './event-index-kit.ts';
import { type EventFacets, facetsOf } from './facets.ts';
import { byStart, type IndexQuery, queryIndex } from './query.ts';
import { IndexRegistry } from './registry.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('EventIndex compaction', () => {
  it('drops replaced rows in the background and answers as before throughout', {
    timeout: guard(60_000),
  }, async () => {
    const index = new EventIndex({
      client: new FakeWp([]),
      mapping: tec,
      language: 'en',
      logger: silentLogger(),
    });
    const held = new Map<number, EventFacets>();
    const restoring = index.restoring();
    const first = [...syntheticPosts(10_000)].map((p) => facetsOf(p, tec));
    first.sort(byStart);
    restoring.add(first);
    restoring.finish(null, new Date().toISOString());
    for (const f of first) held.set(f.id, f);
    const queries: IndexQuery[] = [
      { statuses: ['publish'], page: 3, perPage: 10, dates: { startGte: '2025-06-01 00:00:00' } },
      { statuses: ['publish', 'draft'], page: 1, perPage: 20, search: 'music -night' },
      { statuses: ['publish'], page: 2, perPage: 5, categories: [3], search: 'live' },
    ];
    const agree = () => {
      for (const q of queries) expect(index.query(q)).toEqual(queryIndex(held.values(), q));
    };
    // 8000 events change (a new title and start), 20 at a time with a tick between, as polls apply them: the
    // replaced rows pass 4096 (the threshold at this size), and a compaction starts by itself in the background.
    const changes = [...syntheticPosts(8000, 5)];
    for (let i = 0; i < changes.length; i++) {
      const p = { ...changes[i], id: 1 + ((i * 7) % 10_000), slug: `changed-${i}` };
      held.set(p.id, facetsOf(p, tec));
      index.upsert(p);
      if (i % 1000 === 999) agree();
      if (i % 20 === 19) await new Promise((r) => setImmediate(r));
    }
    for (let i = 0; i < 200 && index.deadRows >= 8000; i++) await new Promise((r) => setImmediate(r));
    agree();
    expect(index.size).toBe(10_000);
    // 8000 without a compaction; after one, only the events changed again after their copy was made.
    expect(index.deadRows).toBeLessThan(4000);
  });
  it('posts the words of rows changed during a compaction once, in the columns it builds', {
    timeout: guard(60_000),
  }, async () => {
    const index = new EventIndex({
      client: new FakeWp([]),
      mapping: tec,
      language: 'en',
      logger: silentLogger(),
      // 10 rows copied a tick: the compaction outlasts the changes below.
      tuning: { compactRows: 10, compactMs: 0 },
    });
    const held = new Map<number, EventFacets>();
    const restoring = index.restoring();
    const first = [...syntheticPosts(2000)].map((p) => facetsOf(p, tec));
    first.sort(byStart);
    restoring.add(first);
    restoring.finish(null, new Date().toISOString());
    for (const f of first) held.set(f.id, f);
    for (let i = 0; i < 10_000 && index.pendingWords > 0; i++) await new Promise((r) => setImmediate(r));
    // Searches never made before (answered from the postings, and the text of rows not posted).
    const agree = (search: string) => {
      const q: IndexQuery = { statuses: ['publish', 'draft'], page: 1, perPage: 20, search };
      expect(index.query(q)).toEqual(queryIndex(held.values(), q));
    };
    const compacting = index.compact();
    const changes = [...syntheticPosts(300, 5)];
    for (let i = 0; i < changes.length; i++) {
      const p = { ...changes[i], id: 1 + ((i * 7) % 2000), slug: `changed-${i}` };
      held.set(p.id, facetsOf(p, tec));
      index.upsert(p);
      if (i % 20 === 19) await new Promise((r) => setImmediate(r));
    }
    // The replaced columns post none of the rows added since the compaction began: they are posted where copied.
    expect(index.pendingWords).toBe(300);
    agree('music');
    agree('kalo -night');
    await compacting;
    expect(index.size).toBe(2000);
    for (let i = 0; i < 10_000 && index.pendingWords > 0; i++) await new Promise((r) => setImmediate(r));
    expect(index.pendingWords).toBe(0);
    agree('live');
    agree('"music night"');
  });
});

describe('IndexRegistry', () => {
  it('builds each language once, even for concurrent first uses', async () => {
    const wp = new FakeWp([post(1)]);
    const registry = new IndexRegistry({ client: wp, mapping: tec, pollMs: false, progress: () => quiet });
    const [a, b] = await Promise.all([registry.forLanguage('en'), registry.forLanguage('en')]);
    expect(a).toBe(b);
    const es = await registry.forLanguage('es');
    expect(es.language).toBe('es');
    expect(wp.calls.map((c) => c.language)).toEqual(['en', 'es']);
    expect(registry.all()).toHaveLength(2);
    registry.stop();
  });

  it('tries again after a failed build', async () => {
    const wp = new FakeWp([post(1)]);
    wp.fail = new Error('down');
    const registry = new IndexRegistry({ client: wp, mapping: tec, pollMs: false, progress: () => quiet });
    await expect(registry.forLanguage('en')).rejects.toThrow('down');
    wp.fail = null;
    expect((await registry.forLanguage('en')).size).toBe(1);
  });
});
