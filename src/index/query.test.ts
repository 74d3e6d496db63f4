// Tests for list queries over facets: §4 semantics by table, and paging/ordering/filter laws by fast-check.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EventFacets } from './facets.ts';
import { type IndexQuery, parseSearch, queryIndex } from './query.ts';

const ev = (id: number, over: Partial<EventFacets> = {}): EventFacets => ({
  id,
  status: 'publish',
  slug: `e${id}`,
  title: `Event ${id}`,
  start: '2026-05-01 10:00:00',
  end: '2026-05-01 12:00:00',
  startUtc: null,
  endUtc: null,
  categories: [],
  tags: [],
  venue: null,
  organizers: [],
  featured: false,
  hidden: false,
  sticky: false,
  allDay: false,
  parent: 0,
  protected: false,
  author: 1,
  date: '2026-01-01 00:00:00',
  modifiedGmt: '2026-01-01 00:00:00',
  hasExcerpt: false,
  searchText: `event ${id}`,
  ...over,
});

const SITE = [
  ev(1, {
    start: '2026-05-03 10:00:00',
    end: '2026-05-03 11:00:00',
    categories: [10],
    tags: [20],
    venue: 30,
  }),
  ev(2, { start: '2026-05-01 10:00:00', end: '2026-05-04 10:00:00', categories: [11], organizers: [40, 41] }),
  ev(3, { start: '2026-05-01 10:00:00', featured: true, tags: [21], date: '2025-01-01 00:00:00' }),
  ev(4, { start: '2026-05-02 09:00:00', status: 'draft', venue: 31, organizers: [41] }),
  ev(5, { start: '2026-04-30 09:00:00', hidden: true, categories: [10] }),
  ev(6, { start: '2026-05-05 09:00:00', status: 'trash' }),
  ev(7, { start: '2026-05-06 09:00:00', parent: 3, searchText: 'jazz night\nswing & bebop\nlive <music>' }),
  ev(8, { start: '', end: '', searchText: 'jazz brunch\n\nfamily' }),
];

const q = (over: Partial<IndexQuery> = {}): IndexQuery => ({
  statuses: ['publish'],
  page: 1,
  perPage: 50,
  ...over,
});

describe('queryIndex', () => {
  it.each<[string, Partial<IndexQuery>, number[]]>([
    ['lists published events by start then id, never hidden ones', {}, [8, 2, 3, 1, 7]],
    [
      'lists drafts only when their status is asked for',
      { statuses: ['publish', 'draft'] },
      [8, 2, 3, 4, 1, 7],
    ],
    ['never lists trashed events, even when asked for', { statuses: ['publish', 'trash'] }, [8, 2, 3, 1, 7]],
    ['treats start_date as start on or after', { dates: { startGte: '2026-05-01 10:00:00' } }, [2, 3, 1, 7]],
    ['treats starts_after as strictly after', { dates: { startGt: '2026-05-01 10:00:00' } }, [1, 7]],
    ['treats starts_before as strictly before', { dates: { startLt: '2026-05-03 10:00:00' } }, [2, 3]],
    ['treats end_date as end on or before', { dates: { endLte: '2026-05-03 11:00:00' } }, [3, 1, 7]],
    ['treats ends_after as strictly after', { dates: { endGt: '2026-05-03 11:00:00' } }, [2]],
    ['treats ends_before as strictly before', { dates: { endLt: '2026-05-03 11:00:00' } }, [3, 7]],
    [
      'is not an overlap test: an ongoing event is left out',
      { dates: { startGte: '2026-05-02 00:00:00' } },
      [1, 7],
    ],
    ['ORs categories', { categories: [10, 11] }, [2, 1]],
    ['ANDs categories with tags', { categories: [10, 11], tags: [20] }, [1]],
    ['ORs tags', { tags: [20, 21] }, [3, 1]],
    ['matches venues by id', { venue: [30, 31], statuses: ['publish', 'draft'] }, [4, 1]],
    ['matches any listed organizer', { organizer: [41], statuses: ['publish', 'draft'] }, [2, 4]],
    ['filters featured events', { featured: true }, [3]],
    ['filters events that are not featured', { featured: false }, [8, 2, 1, 7]],
    ['filters by parent', { parent: 3 }, [7]],
    [
      'ignores empty lists as WordPress ignores an empty post__in',
      { categories: [], include: [] },
      [8, 2, 3, 1, 7],
    ],
    ['orders an include list by publication date then id', { include: [1, 3, 7, 5] }, [3, 1, 7]],
    ['requires every search word', { search: 'jazz night' }, [7]],
    ['keeps quoted phrases together', { search: '"swing & bebop"' }, [7]],
    ['does not match a phrase across title and content', { search: '"night live"' }, []],
    ['excludes words with a leading dash', { search: 'jazz -swing' }, [8]],
    ['searches case-insensitively', { search: 'JAZZ' }, [8, 7]],
    ['ignores stopwords and single letters', { search: 'the jazz a' }, [8, 7]],
    ['searches the whole string when only stopwords are given', { search: 'the' }, []],
  ])('%s', (_name, over, ids) => {
    expect(queryIndex(SITE, q(over)).ids).toEqual(ids);
  });

  it('counts every match and cuts the asked page', () => {
    expect(queryIndex(SITE, q({ perPage: 2, page: 2 }))).toEqual({ ids: [3, 1], total: 5, totalPages: 3 });
    expect(queryIndex(SITE, q({ perPage: 2, page: 4 }))).toEqual({ ids: [], total: 5, totalPages: 3 });
  });

  it('reports zero pages when nothing matches', () => {
    expect(queryIndex(SITE, q({ tags: [99] }))).toEqual({ ids: [], total: 0, totalPages: 0 });
  });
});

describe('queryIndex visibility', () => {
  const site = [
    ev(1, { start: '2026-05-01 09:00:00', searchText: 'open jazz' }),
    ev(2, { start: '2026-05-02 09:00:00', status: 'private', author: 2, searchText: 'secret jazz' }),
    ev(3, { start: '2026-05-03 09:00:00', status: 'draft', author: 3, searchText: 'draft jazz' }),
    ev(4, { start: '2026-05-04 09:00:00', protected: true, searchText: 'locked jazz' }),
    ev(5, { start: '2026-05-05 09:00:00', status: 'trash', author: 2 }),
  ];
  it.each<[string, Partial<IndexQuery>, number[]]>([
    [
      "lists an own status only for the author's own events",
      { ownStatuses: ['draft', 'private'], author: 2 },
      [1, 2, 4],
    ],
    ['ignores own statuses without an author', { ownStatuses: ['private', 'draft'] }, [1, 4]],
    ['never lists trash, not even as an own status', { ownStatuses: ['trash'], author: 2 }, [1, 4]],
    ['never lets a search match a protected event by default', { search: 'jazz' }, [1]],
    [
      'lets a search match a protected event when allowed',
      { search: 'jazz', searchesProtected: true },
      [1, 4],
    ],
    [
      "never searches another author's private event",
      { search: 'secret', ownStatuses: ['private'], author: 3 },
      [],
    ],
    [
      'counts only what is listed',
      { statuses: ['publish'], ownStatuses: ['draft'], author: 3, perPage: 1 },
      [1],
    ],
  ])('%s', (_, over, ids) => {
    expect(queryIndex(site, q(over)).ids).toEqual(ids);
  });

  it('totals only the events the caller may list', () => {
    expect(queryIndex(site, q({ ownStatuses: ['draft', 'private'], author: 3 })).total).toBe(3);
  });
});

describe('parseSearch', () => {
  it.each<[string, Array<[string, boolean]>]>([
    [
      'Jazz  Night',
      [
        ['jazz', false],
        ['night', false],
      ],
    ],
    [
      '"big band" swing',
      [
        ['big band', false],
        ['swing', false],
      ],
    ],
    [
      'jazz -swing',
      [
        ['jazz', false],
        ['swing', true],
      ],
    ],
    [
      'jazz,blues+soul',
      [
        ['jazz', false],
        ['blues', false],
        ['soul', false],
      ],
    ],
    ['a - the', [['a - the', false]]],
    ['"unterminated phrase', [['unterminated phrase', false]]],
    ['1 2 3 4 5 6 7 8 9 10', [['1 2 3 4 5 6 7 8 9 10', false]]],
  ])('splits %j as WordPress does', (input, terms) => {
    expect(parseSearch(input).map((t) => [t.text, t.exclude])).toEqual(terms);
  });
});

// Small domains so that filters hit and ties in start dates happen.
const day = fc.constantFrom(
  '',
  '2026-05-01 10:00:00',
  '2026-05-01 12:00:00',
  '2026-05-02 09:00:00',
  '2026-05-03 00:00:00',
);
const small = fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 3 });
const facetsArb = fc.uniqueArray(fc.integer({ min: 1, max: 500 }), { maxLength: 40 }).chain((ids) =>
  fc.tuple(
    ...ids.map((id) =>
      fc
        .record({
          status: fc.constantFrom('publish', 'draft', 'trash', 'private'),
          start: day,
          end: day,
          date: day,
          categories: small,
          tags: small,
          venue: fc.option(fc.integer({ min: 1, max: 3 })),
          organizers: small,
          featured: fc.boolean(),
          hidden: fc.boolean(),
          parent: fc.integer({ min: 0, max: 2 }),
          searchText: fc.constantFrom('jazz night', 'swing', 'jazz swing', ''),
        })
        .map((r) => ev(id, r)),
    ),
  ),
);
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const queryArb: fc.Arbitrary<IndexQuery> = fc.record({
  statuses: fc.subarray(['publish', 'draft', 'private', 'trash']),
  dates: opt(
    fc.record({
      startGte: opt(day),
      startLt: opt(day),
      startGt: opt(day),
      endLte: opt(day),
      endGt: opt(day),
      endLt: opt(day),
    }),
  ),
  search: opt(fc.constantFrom('jazz', '-jazz', 'swing jazz', '"jazz night"')),
  categories: opt(small),
  tags: opt(small),
  venue: opt(small),
  organizer: opt(small),
  featured: opt(fc.boolean()),
  include: opt(fc.array(fc.integer({ min: 1, max: 500 }), { maxLength: 30 })),
  parent: opt(fc.integer({ min: 0, max: 2 })),
  page: fc.integer({ min: 1, max: 5 }),
  perPage: fc.integer({ min: 1, max: 12 }),
});

/** The §4 filter written the plain way, to check the indexed one against. */
function naive(f: EventFacets, q: IndexQuery): boolean {
  const d = q.dates ?? {};
  const some = (want: number[] | undefined, have: number[]) =>
    !want?.length || have.some((x) => want.includes(x));
  const bound = (v: string, b: string | undefined, ok: (v: string, b: string) => boolean) =>
    b === undefined || (v !== '' && ok(v, b));
  const words =
    q.search === undefined ? [] : q.search.startsWith('"') ? [q.search.slice(1, -1)] : q.search.split(' ');
  return (
    !f.hidden &&
    f.status !== 'trash' &&
    q.statuses.includes(f.status) &&
    bound(f.start, d.startGte, (v, b) => v >= b) &&
    bound(f.start, d.startGt, (v, b) => v > b) &&
    bound(f.start, d.startLt, (v, b) => v < b) &&
    bound(f.end, d.endLte, (v, b) => v <= b) &&
    bound(f.end, d.endLt, (v, b) => v < b) &&
    bound(f.end, d.endGt, (v, b) => v > b) &&
    some(q.categories, f.categories) &&
    some(q.tags, f.tags) &&
    some(q.organizer, f.organizers) &&
    (!q.venue?.length || (f.venue !== null && q.venue.includes(f.venue))) &&
    some(q.include, [f.id]) &&
    (q.featured === undefined || q.featured === f.featured) &&
    (q.parent === undefined || q.parent === f.parent) &&
    words.every((w) => (w.startsWith('-') ? !f.searchText.includes(w.slice(1)) : f.searchText.includes(w)))
  );
}

describe('queryIndex laws', () => {
  it('returns exactly the facets that satisfy the filter, counted in total', () => {
    fc.assert(
      fc.property(facetsArb, queryArb, (facets, query) => {
        const all = queryIndex(facets, { ...query, page: 1, perPage: 1000 });
        const expected = facets.filter((f) => naive(f, query));
        expect(all.total).toBe(expected.length);
        expect([...all.ids].sort((a, b) => a - b)).toEqual(expected.map((f) => f.id).sort((a, b) => a - b));
      }),
    );
  });

  it('partitions the result into pages that together list every match once, in order', () => {
    fc.assert(
      fc.property(facetsArb, queryArb, (facets, query) => {
        const whole = queryIndex(facets, { ...query, page: 1, perPage: 1000 });
        const pages: number[] = [];
        const first = queryIndex(facets, { ...query, page: 1 });
        expect(first.totalPages).toBe(whole.total === 0 ? 0 : Math.ceil(whole.total / query.perPage));
        for (let p = 1; p <= first.totalPages; p++) {
          const r = queryIndex(facets, { ...query, page: p });
          expect(r.total).toBe(whole.total);
          expect(r.ids.length).toBe(
            p < first.totalPages ? query.perPage : whole.total - (p - 1) * query.perPage,
          );
          pages.push(...r.ids);
        }
        expect(pages).toEqual(whole.ids);
        expect(queryIndex(facets, { ...query, page: first.totalPages + 1 }).ids).toEqual([]);
      }),
    );
  });

  it('orders by start then id, or by publication date then id with include', () => {
    fc.assert(
      fc.property(facetsArb, queryArb, (facets, query) => {
        const byId = new Map(facets.map((f) => [f.id, f]));
        const listed = queryIndex(facets, { ...query, page: 1, perPage: 1000 }).ids.map(
          (id) => byId.get(id)!,
        );
        const key = (f: EventFacets) => (query.include?.length ? f.date : f.start);
        for (let i = 1; i < listed.length; i++) {
          const [a, b] = [listed[i - 1], listed[i]];
          expect(key(a) < key(b) || (key(a) === key(b) && a.id < b.id)).toBe(true);
        }
      }),
    );
  });
});

describe('password-protected events and the fields a password blanks', () => {
  // Event 2 has a password: lists show it with venue, organizers, terms and featured blanked.
  const site = [
    ev(1, { venue: 30, organizers: [40], categories: [10], tags: [20], featured: true }),
    ev(2, {
      venue: 30,
      organizers: [40],
      categories: [10],
      tags: [20],
      featured: true,
      protected: true,
      author: 7,
    }),
  ];
  const ids = (q: Partial<IndexQuery>) =>
    queryIndex(site, { statuses: ['publish'], page: 1, perPage: 10, ...q }).ids;
  const filters: Array<Partial<IndexQuery>> = [
    { venue: [30] },
    { organizer: [40] },
    { categories: [10] },
    { tags: [20] },
    { featured: true },
    { readsLinks: true },
  ];

  it.each(filters)('matches it on %o only for callers who see it in full', (filter) => {
    expect(ids(filter)).toEqual([1]);
    expect(ids({ ...filter, seesProtected: {} })).toEqual([1]);
    expect(ids({ ...filter, seesProtected: { own: 8, ids: [1, 3] } })).toEqual([1]);
    expect(ids({ ...filter, seesProtected: { all: true } })).toEqual([1, 2]);
    expect(ids({ ...filter, seesProtected: { own: 7 } })).toEqual([1, 2]);
    expect(ids({ ...filter, seesProtected: { ids: [2] } })).toEqual([1, 2]);
  });

  it('lists it to everyone when no filter reads what its password blanks', () => {
    expect(ids({})).toEqual([1, 2]);
    expect(ids({ featured: false })).toEqual([]);
  });
});
