// Tests for the event index against a tiny in-memory stand-in for the WordPress client (event-index-kit.ts).
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { syntheticPosts } from '../../bench/synthetic.ts';
import { guard } from '../../test/slack.ts';
import type { WpRequest } from '../wp/client.ts';
import { EventIndex, type IndexClient } from './event-index.ts';
import { built, FakeWp, listAll, post, quiet, silentLogger, tec } from './event-index-kit.ts';
import { facetsOf } from './facets.ts';
import { byStart, type IndexQuery, queryIndex } from './query.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('EventIndex', () => {
  it('builds from every status in edit context with the service credential and lists only what may be listed', async () => {
    const { wp, index } = await built([
      post(3),
      post(1),
      post(2, { status: 'draft' }),
      post(4, { status: 'trash' }),
    ]);
    expect(index.size).toBe(4);
    expect(index.builtAt).toBeInstanceOf(Date);
    expect(index.query(listAll).ids).toEqual([1, 3]);
    expect(index.query({ ...listAll, statuses: ['publish', 'draft', 'trash'] }).ids).toEqual([1, 2, 3]);
    expect(index.get(4)?.status).toBe('trash');
    expect(index.bySlug('event-2')?.id).toBe(2);
    expect(wp.calls[0]).toMatchObject({
      path: '/wp/v2/tribe_events',
      as: 'service',
      language: 'es',
      query: { context: 'edit', status: 'publish,future,draft,pending,private,trash' },
    });
    expect(String(wp.calls[0].query?._fields)).toContain('meta._EventStartDate');
  });

  it('crawls collections larger than one page', async () => {
    const { index } = await built(Array.from({ length: 250 }, (_, i) => post(i + 1)));
    expect(index.size).toBe(250);
    expect(index.query({ ...listAll, perPage: 10, page: 25 })).toMatchObject({ total: 250, totalPages: 25 });
  });

  it('reads a bounded number of pages at once and resumes a failed crawl where it stopped', async () => {
    const wp = new FakeWp(Array.from({ length: 950 }, (_, i) => post(i + 1)));
    let inFlight = 0;
    let most = 0;
    const request = wp.request.bind(wp);
    let failAt: number | null = 7;
    wp.request = async <T>(req: WpRequest) => {
      inFlight++;
      most = Math.max(most, inFlight);
      try {
        await new Promise((r) => setTimeout(r, 2));
        if (Number(req.query?.page) === failAt) throw new Error('upstream down');
        return await request<T>(req);
      } finally {
        inFlight--;
      }
    };
    const index = new EventIndex({
      client: wp,
      mapping: tec,
      language: 'en',
      logger: silentLogger(),
      crawlConcurrency: 3,
    });
    await expect(index.build(quiet)).rejects.toThrow('upstream down');
    expect(index.builtAt).toBeNull();
    const pagesBefore = wp.calls.map((c) => Number(c.query?.page));
    expect(pagesBefore).not.toContain(8 + 3);
    failAt = null;
    wp.calls = [];
    await index.build(quiet);
    // Pages read in full before the failure are not read again.
    const pagesAfter = wp.calls.map((c) => Number(c.query?.page));
    expect(Math.min(...pagesAfter)).toBeGreaterThanOrEqual(5);
    expect(pagesAfter).toContain(10);
    expect(index.size).toBe(950);
    expect(index.query({ ...listAll, perPage: 1000 }).total).toBe(950);
    expect(most).toBe(3);
  });

  it('picks up a changed post on refresh, asking only for what changed since the last one seen', async () => {
    const { wp, index } = await built([post(1), post(2)], 5_000);
    wp.edit(1, { meta: { _EventStartDate: '2026-06-30 10:00:00' } }, '2026-01-01T00:10:00');
    expect(await index.refresh()).toBe(1);
    // The newest modification seen, less the overlap and the (tiny) duration of the crawl, to the second.
    expect(wp.calls.at(-1)?.query?.modified_after).toMatch(/^2025-12-31T23:59:5[45]Z$/);
    expect(index.query(listAll).ids).toEqual([2, 1]);
    expect(index.lastRefreshAt).toBeInstanceOf(Date);
    await index.refresh();
    expect(wp.calls.at(-1)?.query?.modified_after).toMatch(/^2026-01-01T00:09:5[45]Z$/);
  });

  it('stops listing a post trashed upstream but still knows it', async () => {
    const { wp, index } = await built([post(1), post(2)]);
    wp.edit(2, { status: 'trash', slug: 'event-2__trashed' }, '2026-01-02T00:00:00');
    await index.refresh();
    expect(index.query(listAll).ids).toEqual([1]);
    expect(index.get(2)?.status).toBe('trash');
    expect(index.bySlug('event-2')).toBeUndefined();
    expect(index.bySlug('event-2__trashed')?.id).toBe(2);
  });

  it('drops hard deletes on reconcile and fetches what it missed or what changed status in place', async () => {
    const { wp, index } = await built([post(1), post(2), post(3, { status: 'future' })]);
    wp.posts = wp.posts.filter((p) => p.id !== 2);
    wp.posts.push(post(4));
    wp.edit(3, { status: 'publish' }, '2026-01-01T00:00:00');
    expect(await index.reconcile()).toEqual({ removed: 1, refetched: 2 });
    expect(index.get(2)).toBeUndefined();
    expect(index.query(listAll).ids).toEqual([1, 3, 4]);
  });

  it('reports a change upstream as soft unless it took an event out of public view', async () => {
    const wp = new FakeWp([post(1), post(2)]);
    const reports: Array<[number[], boolean]> = [];
    const index = new EventIndex({
      client: wp,
      mapping: tec,
      language: 'es',
      logger: silentLogger(),
      overlapMs: 0,
      onChange: (ids, _links, soft) => reports.push([ids, soft]),
    });
    await index.build(quiet);
    wp.edit(1, { title: { raw: 'Renamed', rendered: '' } }, '2026-01-02T00:00:00');
    await index.refresh();
    wp.edit(2, { status: 'private' }, '2026-01-03T00:00:00');
    await index.refresh();
    wp.posts = wp.posts.filter((p) => p.id !== 1);
    await index.reconcile();
    expect(reports).toEqual([
      [[1], true],
      [[2], false],
      [[1], false],
    ]);
  });

  it('reports a poll of many changes, every id once, and resolves to how many changed', async () => {
    // How a poll's ids are cut into reports of at most 4096 is src/index/upstream-changes.test.ts's.
    const wp = new FakeWp(Array.from({ length: 300 }, (_, i) => post(i + 1)));
    const reports: number[][] = [];
    const index = new EventIndex({
      client: wp,
      mapping: tec,
      language: 'en',
      logger: silentLogger(),
      overlapMs: 0,
      onChange: (ids) => reports.push(ids),
    });
    await index.build(quiet);
    for (let id = 1; id <= 300; id++)
      wp.edit(id, { title: { raw: `Renamed ${id}`, rendered: '' } }, '2026-01-02T00:00:00');
    expect(await index.refresh()).toBe(300);
    expect(reports.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    const made = reports.length;
    expect(await index.refresh()).toBe(0);
    expect(reports.length).toBe(made);
  });

  it('coalesces concurrent refreshes into one upstream crawl', async () => {
    const { wp, index } = await built([post(1)]);
    const before = wp.calls.length;
    const [a, b] = [index.refresh(), index.refresh()];
    expect(a).toBe(b);
    await Promise.all([a, b]);
    expect(wp.calls.length).toBe(before + 1);
    await index.refresh();
    expect(wp.calls.length).toBe(before + 2);
  });

  it('shares one crawl between concurrent builds', async () => {
    const wp = new FakeWp([post(1)]);
    const index = new EventIndex({ client: wp, mapping: tec, language: 'en', logger: silentLogger() });
    await Promise.all([index.build(quiet), index.build(quiet), index.refresh()]);
    expect(wp.calls.length).toBe(1);
  });

  it('applies writes through the gateway at once', async () => {
    const { index } = await built([post(1)]);
    index.upsert(post(9, { modified_gmt: '2026-02-01T00:00:00' }));
    expect(index.query(listAll).ids).toEqual([1, 9]);
    index.upsert(post(1, { modified_gmt: '2026-02-01T00:00:00' }, { _tribe_featured: '1' }));
    expect(index.query({ ...listAll, featured: true }).ids).toEqual([1]);
    index.remove(9);
    expect(index.query(listAll).ids).toEqual([1]);
    expect(index.size).toBe(1);
  });

  it('keeps a gateway write when a crawl brings back an older copy', async () => {
    // A day of overlap makes every refresh read both posts again.
    const { wp, index } = await built([post(1), post(2)], 86_400_000);
    index.upsert(post(1, { modified_gmt: '2026-03-01T00:00:00', title: { raw: 'Renamed', rendered: '' } }));
    index.remove(2);
    await index.refresh();
    await index.reconcile();
    expect(index.query({ ...listAll, search: 'renamed' }).ids).toEqual([1]);
    expect(index.get(2)).toBeUndefined();
    // A later edit upstream wins again.
    wp.edit(2, { title: { raw: 'Restored', rendered: '' } }, '2999-01-01T00:00:00');
    await index.refresh();
    expect(index.query({ ...listAll, search: 'restored' }).ids).toEqual([2]);
  });

  describe('a save read half done', () => {
    // WordPress saves a post's row (its new stamp) before its meta: a read between them has the old start date. The
    // stamp is now's, taken as each test starts: the index remembers reads of posts saved in the last seconds only.
    const saveNow = () => {
      const now = new Date().toISOString().slice(0, 19);
      return { now, whole: post(1, { modified_gmt: now }, { _EventStartDate: '2026-06-01 10:00:00' }) };
    };
    /** Starts `read` with its WordPress calls held until the returned function is called. */
    const held = async <T>(wp: FakeWp, read: () => Promise<T>) => {
      let open!: () => void;
      wp.gate = new Promise((resolve) => {
        open = resolve;
      });
      const calls = wp.calls.length;
      const done = read();
      await vi.waitFor(() => expect(wp.calls.length).toBeGreaterThan(calls));
      wp.gate = null;
      return { done, open };
    };

    it('does not come back over a write that landed while its poll was out', async () => {
      const { wp, index } = await built([post(1)], 86_400_000);
      const { now, whole } = saveNow();
      wp.edit(1, {}, now);
      const poll = await held(wp, () => index.refresh());
      // The save ends and the write's answer reaches the index while the poll is out.
      index.upsert(whole);
      poll.open();
      expect(await poll.done).toBe(0);
      expect(index.get(1)?.start).toBe('2026-06-01 10:00:00');
      // A poll begun after the write reads what WordPress has then, and applies it (here: the half save still).
      expect(await index.refresh()).toBe(1);
      expect(index.get(1)?.start).toBe('2026-05-01 10:00:00');
    });

    it('is mended by a re-read begun after it, whichever answer comes first', async () => {
      const { wp, index } = await built([post(1)], 86_400_000);
      const { now, whole } = saveNow();
      wp.edit(1, {}, now);
      for (const pollFirst of [true, false]) {
        const poll = await held(wp, () => index.refresh());
        const reread = await held(wp, () => index.refetch([1]));
        // The poll read the half save; the re-read, begun later, reads the whole one.
        if (pollFirst) {
          poll.open();
          await poll.done;
          wp.posts[0] = whole;
          reread.open();
          await reread.done;
        } else {
          wp.posts[0] = whole;
          reread.open();
          await reread.done;
          wp.posts[0] = { ...whole, meta: { _EventStartDate: '2026-05-01 10:00:00' } };
          poll.open();
          await poll.done;
        }
        expect(index.get(1)?.start, `poll answered first: ${pollFirst}`).toBe('2026-06-01 10:00:00');
        wp.posts[0] = { ...whole, meta: { _EventStartDate: '2026-05-01 10:00:00' } };
        index.upsert(wp.posts[0]);
      }
    });
  });

  it('does not drop an event created through the gateway while a reconcile is listing ids', async () => {
    const { wp, index } = await built([post(1)]);
    let open!: () => void;
    wp.gate = new Promise((resolve) => {
      open = resolve;
    });
    const running = index.reconcile();
    index.upsert(post(5));
    wp.gate = null;
    open();
    await running;
    expect(index.get(5)).toBeDefined();
  });

  it('logs a failing poll once per failure streak and never throws from its timer', async () => {
    vi.useFakeTimers();
    const logger = silentLogger();
    const wp = new FakeWp([post(1)]);
    const index = new EventIndex({ client: wp, mapping: tec, language: 'en', logger });
    await index.build(quiet);
    index.start(1_000, 60_000);
    wp.fail = new Error('upstream down');
    await vi.advanceTimersByTimeAsync(3_500);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0][0]).toMatchObject({ err: 'upstream down', language: 'en' });
    wp.fail = null;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(logger.info).toHaveBeenCalledWith(expect.anything(), 'Event index refresh recovered');
    wp.fail = new Error('down again');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(logger.warn).toHaveBeenCalledTimes(2);
    index.stop();
    const calls = wp.calls.length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(wp.calls.length).toBe(calls);
  });
});

describe('EventIndex slices', () => {
  it('crawls and polls to the same events whatever the slice (a yield after every post, or none)', {
    timeout: guard(60_000),
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 260 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 260 }), { maxLength: 30 }),
        async (n, seed, edited) => {
          const posts = [...syntheticPosts(n, seed)];
          const stored = async (sliceMs: number) => {
            const wp = new FakeWp(structuredClone(posts));
            const index = new EventIndex({
              client: wp,
              mapping: tec,
              language: 'en',
              logger: silentLogger(),
              tuning: { sliceMs, compactMs: sliceMs },
            });
            await index.build(quiet);
            for (const id of edited.filter((id) => id <= n))
              wp.edit(id, { title: { raw: `edited ${id}`, rendered: '' } }, '2030-01-01T00:00:00');
            const changed = await index.refresh();
            await index.compact();
            return { changed, events: [...(index.snapshot()?.batches(50) ?? [])].flat() };
          };
          const every = await stored(0);
          expect(every).toEqual(await stored(Number.POSITIVE_INFINITY));
          expect(every.events.length).toBe(n);
          expect(every.changed).toBe(edited.filter((id) => id <= n).length);
        },
      ),
      { numRuns: 15 },
    );
  });
});

describe('EventIndex warm-up', () => {
  /** Ticks until the words are posted and the warm-up is over; how many warm-ups began. */
  const settle = async (index: EventIndex) => {
    for (let i = 0; i < 10_000 && (index.pendingWords > 0 || index.warming); i++)
      await new Promise((r) => setImmediate(r));
    return index.warmUps;
  };
  const searched: IndexQuery = { statuses: ['publish'], page: 2, perPage: 10, search: 'music' };

  it('makes the common searches ahead once a load is over and its words are posted, none before', async () => {
    const index = new EventIndex({
      client: new FakeWp([]),
      mapping: tec,
      language: 'en',
      logger: silentLogger(),
    });
    const first = [...syntheticPosts(3000)].map((p) => facetsOf(p, tec)).sort(byStart);
    const restoring = index.restoring();
    restoring.add(first.slice(0, 1500));
    await new Promise((r) => setImmediate(r));
    expect(index.warmUps).toBe(0);
    restoring.add(first.slice(1500));
    restoring.finish(null, new Date().toISOString());
    expect(await settle(index)).toBe(1);
    expect(index.query(searched)).toEqual(queryIndex(first, searched));
  });

  it('makes them once a crawl is over, not as the words of each page are posted', async () => {
    const posts = [...syntheticPosts(450)];
    const wp = new FakeWp(posts);
    // Pages after the first wait until the words of the first are posted.
    let open = () => {};
    const gate = new Promise<void>((r) => {
      open = r;
    });
    const client: IndexClient = {
      all: (req, onPage) => wp.all(req, onPage),
      request: (req) => wp.request(req),
      list: async (req) => {
        if (Number(req.query?.page) > 1) await gate;
        return wp.list(req);
      },
    };
    const index = new EventIndex({ client, mapping: tec, language: 'en', logger: silentLogger() });
    const building = index.build(quiet);
    for (let i = 0; i < 1000 && (index.size < 100 || index.pendingWords > 0); i++)
      await new Promise((r) => setImmediate(r));
    expect([index.size, index.pendingWords, index.warmUps]).toEqual([100, 0, 0]);
    open();
    await building;
    expect(await settle(index)).toBe(1);
    const want = posts.map((p) => facetsOf(p, tec));
    expect(index.query(searched)).toEqual(queryIndex(want, searched));
  });
});
