// The columnar index against the reference query (`queryIndex`, a filter over every event and a sort): the same
// answers for random events, random changes and random queries. Plus the date keys it orders by.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventColumns, NO_DATE, type StoredEvent, wallKey, wallText } from './columns.ts';
import type { EventFacets } from './facets.ts';
import { type IndexQuery, queryIndex } from './query.ts';

const STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'];
const WORDS = ['jazz', 'night', 'rock', 'roll', 'jazzy', 'café', 'naïve', 'the', 'music', 'a1', 'x_y', 'tap'];

const wall = fc
  .tuple(
    fc.integer({ min: 2025, max: 2026 }),
    fc.integer({ min: 1, max: 3 }),
    fc.integer({ min: 1, max: 3 }),
    fc.constantFrom(0, 9, 23),
    fc.constantFrom(0, 30, 59),
  )
  .map(
    ([y, m, d, h, i]) => `${y}-0${m}-0${d} ${String(h).padStart(2, '0')}:${String(i).padStart(2, '0')}:00`,
  );

const maybeWall = fc.oneof({ weight: 8, arbitrary: wall }, { weight: 1, arbitrary: fc.constant('') });

const text = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(' ', ' ', '\n', "'", ', ', '-')), {
    maxLength: 8,
  })
  .map((parts) => parts.map(([w, sep]) => w + sep).join(''));

const ids = (max: number) => fc.uniqueArray(fc.integer({ min: 1, max }), { maxLength: 3 });

const event = (id: number): fc.Arbitrary<EventFacets> =>
  fc
    .record({
      status: fc.constantFrom(...STATUSES),
      start: maybeWall,
      end: maybeWall,
      date: wall,
      categories: ids(4),
      tags: ids(4),
      venue: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
      organizers: ids(4),
      featured: fc.boolean(),
      hidden: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
      parent: fc.constantFrom(0, 0, 1, 2),
      protected: fc.boolean(),
      author: fc.integer({ min: 1, max: 3 }),
      hasExcerpt: fc.boolean(),
      searchText: text,
    })
    .map((r) => ({
      ...r,
      id,
      slug: `e${id}`,
      title: '',
      startUtc: null,
      endUtc: null,
      sticky: false,
      allDay: false,
      modifiedGmt: r.date,
    }));

/** Events with ids 1..n. */
const events = fc
  .integer({ min: 0, max: 40 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => event(i + 1))));

const search = fc.oneof(
  fc.constantFrom(...WORDS),
  fc.constantFrom(
    'jaz',
    'ro',
    'é',
    'ght',
    '"jazz night"',
    'rock roll',
    '-rock',
    'jazz -night',
    "'",
    ', ',
    'z n',
  ),
  fc
    .array(fc.constantFrom(...WORDS, '-jazz', '"rock\'roll"', 'usic', 'a'), { minLength: 1, maxLength: 4 })
    .map((w) => w.join(' ')),
);

/** Mostly absent, so that queries combining a few filters still find events. */
const rarely = <T>(arb: fc.Arbitrary<T>, weight = 1): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight, arbitrary: arb });

const query: fc.Arbitrary<IndexQuery> = fc.record({
  statuses: fc.oneof(fc.constant(['publish']), fc.subarray(STATUSES)).map((s) => [...s]),
  ownStatuses: rarely(fc.subarray(STATUSES)),
  author: rarely(fc.integer({ min: 0, max: 3 })),
  searchesProtected: fc.boolean(),
  dates: rarely(
    fc.record({
      startGte: rarely(wall),
      startGt: rarely(wall),
      startLt: rarely(wall),
      endLte: rarely(wall),
      endLt: rarely(wall),
      endGt: rarely(wall),
    }),
    3,
  ),
  search: rarely(search, 2),
  categories: rarely(ids(5)),
  tags: rarely(ids(5)),
  venue: rarely(ids(5)),
  organizer: rarely(ids(5)),
  featured: rarely(fc.boolean()),
  include: rarely(fc.uniqueArray(fc.integer({ min: 1, max: 45 }), { maxLength: 12 })),
  parent: rarely(fc.constantFrom(0, 1, 2)),
  page: fc.integer({ min: 1, max: 3 }),
  perPage: fc.integer({ min: 1, max: 12 }),
});

/** A change: an event (re)written, or one removed. */
const change = fc.oneof(
  fc.integer({ min: 1, max: 45 }).chain((id) => event(id)),
  fc.integer({ min: 1, max: 45 }).map((id) => ({ remove: id })),
);

describe('wall clock keys', () => {
  it('order as the strings do and give them back', () => {
    fc.assert(
      fc.property(wall, wall, (a, b) => {
        expect(Math.sign(wallKey(a) - wallKey(b))).toBe(a < b ? -1 : a > b ? 1 : 0);
        expect(wallText(wallKey(a))).toBe(a);
      }),
    );
    expect(wallKey('2026-05-01') < wallKey('2026-05-01 00:00:00')).toBe(true);
    expect(wallKey('2026-05-01') > wallKey('2026-04-30 23:59:59')).toBe(true);
    expect(wallText(wallKey('2026-05-01'))).toBe('2026-05-01');
    expect(wallKey('')).toBe(NO_DATE);
    expect(wallKey('tomorrow')).toBe(NO_DATE);
  });
});

describe('EventColumns', () => {
  it('answers every query as the reference query does, after any changes', () => {
    let asked = 0;
    let found = 0;
    fc.assert(
      fc.property(
        events,
        fc.array(change, { maxLength: 30 }),
        fc.array(query, { minLength: 1, maxLength: 5 }),
        fc.constantFrom(1, 4096),
        fc.nat({ max: 80 }),
        fc.boolean(),
        fc.constantFrom(1, 2, 3, 512),
        (initial, changes, queries, minDead, posted, alwaysNarrow, blockSize) => {
          // minDead 1 compacts on nearly every change, 4096 never; words posted for some rows, then read from the
          // text for the rest: all must answer the same.
          const columns = new EventColumns({ minDead, background: false, alwaysNarrow, blockSize });
          const held = new Map<number, StoredEvent>();
          for (const f of initial) {
            columns.set(f);
            held.set(f.id, f);
          }
          for (const c of changes) {
            if ('remove' in c) {
              expect(columns.delete(c.remove)).toBe(held.delete(c.remove));
            } else {
              columns.set(c);
              held.set(c.id, c);
            }
          }
          expect(columns.size).toBe(held.size);
          columns.indexWords(posted);
          for (const q of queries) {
            const want = queryIndex(held.values() as Iterable<EventFacets>, q);
            expect(columns.query(q)).toEqual(want);
            asked++;
            if (want.total > 0) found++;
          }
          for (const f of held.values()) {
            expect(columns.holds(f)).toBe(true);
            expect(columns.stored(f.id)?.searchText).toBe(f.searchText);
            expect(columns.idOfSlug(f.slug)).toBe(f.id);
          }
        },
      ),
      { numRuns: 500 },
    );
    // The queries must find events often enough to test ordering and paging, not only agree on nothing.
    expect(found / asked).toBeGreaterThan(0.2);
  });

  it('answers the same queries again after more changes (what it keeps per search follows the changes)', () => {
    fc.assert(
      fc.property(
        events,
        fc.array(fc.array(change, { maxLength: 6 }), { minLength: 1, maxLength: 4 }),
        fc.array(
          fc.tuple(query, search).map(([q, s]) => ({ ...q, search: s })),
          { minLength: 1, maxLength: 4 },
        ),
        fc.constantFrom(1, 2, 3),
        fc.constantFrom(4, 4096),
        (initial, rounds, queries, blockSize, minDead) => {
          const columns = new EventColumns({ minDead, background: false, blockSize });
          const held = new Map<number, EventFacets>();
          const apply = (c: EventFacets | { remove: number }) => {
            if ('remove' in c) {
              columns.delete(c.remove);
              held.delete(c.remove);
            } else {
              columns.set(c);
              held.set(c.id, c);
            }
          };
          for (const f of initial) apply(f);
          for (const changes of [[], ...rounds]) {
            for (const c of changes) apply(c);
            for (const q of queries) expect(columns.query(q)).toEqual(queryIndex(held.values(), q));
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps its order through many changes to the same events (block splits, removals, compaction)', () => {
    const columns = new EventColumns({ minDead: 100, blockSize: 16 });
    const held = new Map<number, EventFacets>();
    const rnd = fc.sample(fc.tuple(fc.integer({ min: 1, max: 3000 }), wall, fc.boolean()), {
      numRuns: 20_000,
      seed: 7,
    });
    const searched: IndexQuery = { statuses: ['publish'], page: 2, perPage: 7, search: 'jazz -rock' };
    for (const [i, [id, start, remove]] of rnd.entries()) {
      // The same search now and then, while the rows grow past their capacity and compact.
      if (i % 1000 === 0) expect(columns.query(searched)).toEqual(queryIndex(held.values(), searched));
      if (remove && id % 3 === 0) {
        columns.delete(id);
        held.delete(id);
        continue;
      }
      const f = fc.sample(event(id), { numRuns: 1, seed: id })[0];
      const g = { ...f, start, hidden: false, status: 'publish' };
      columns.set(g);
      held.set(id, g);
    }
    const q: IndexQuery = {
      statuses: ['publish'],
      page: 3,
      perPage: 50,
      dates: { startGte: '2025-02-02 00:00:00' },
    };
    expect(columns.query(q)).toEqual(queryIndex(held.values(), q));
    expect(columns.query({ statuses: ['publish'], page: 1, perPage: 5000 })).toEqual(
      queryIndex(held.values(), { statuses: ['publish'], page: 1, perPage: 5000 }),
    );
  });

  it('says whether it already holds an event as given', () => {
    const columns = new EventColumns();
    const f = fc.sample(event(1), { numRuns: 1, seed: 3 })[0];
    columns.set(f);
    expect(columns.holds(f)).toBe(true);
    expect(columns.holds({ ...f, searchText: `${f.searchText} more` })).toBe(false);
    expect(columns.holds({ ...f, categories: [...f.categories, 99] })).toBe(false);
    expect(columns.holds({ ...f, id: 2 })).toBe(false);
  });
});
