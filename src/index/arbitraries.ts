// fast-check arbitraries for the event index's property tests: random events, changes to them, list queries.
//
// Few distinct values, so that filters often match. Only tests import this.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { type Mapping, mappingSchema } from '../mapping/schema.ts';
import type { WpPost } from '../wp/types.ts';
import type { IndexClient } from './event-index.ts';
import type { EventFacets } from './facets.ts';
import type { IndexQuery } from './query.ts';

export const STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'];
const WORDS = ['jazz', 'night', 'rock', 'roll', 'jazzy', 'café', 'naïve', 'the', 'music', 'a1', 'x_y', 'tap'];

export const wall = fc
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

export const event = (id: number): fc.Arbitrary<EventFacets> =>
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
      protected: fc.constantFrom(false, false, true),
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
export const events = fc
  .integer({ min: 0, max: 40 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => event(i + 1))));

export const search = fc.oneof(
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

/** `true` one time in `n`, else absent. */
const seldom = (n: number): fc.Arbitrary<true | undefined> =>
  fc.oneof(
    { weight: n - 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constant(true as const) },
  );

export const query: fc.Arbitrary<IndexQuery> = fc.record({
  statuses: fc.oneof(fc.constant(['publish']), fc.subarray(STATUSES)).map((s) => [...s]),
  ownStatuses: rarely(fc.subarray(STATUSES)),
  author: rarely(fc.integer({ min: 0, max: 3 })),
  searchesProtected: fc.boolean(),
  seesProtected: rarely(
    fc.record({
      all: rarely(fc.boolean()),
      own: rarely(fc.integer({ min: 0, max: 3 })),
      ids: rarely(fc.uniqueArray(fc.integer({ min: 1, max: 45 }), { maxLength: 8 })),
    }),
    4,
  ),
  readsLinks: seldom(8),
  protectedOnly: seldom(12),
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
export const change = fc.oneof(
  fc.integer({ min: 1, max: 45 }).chain((id) => event(id)),
  fc.integer({ min: 1, max: 45 }).map((id) => ({ remove: id })),
);

/** TEC's mapping, plus `parent` (which it leaves out) so that the parent filter is reached too. */
export const tecWithParent: Mapping = (() => {
  const m = JSON.parse(readFileSync(new URL('../../mappings/tec.json', import.meta.url), 'utf8'));
  m.event.fields.parent = { post: 'parent' };
  return mappingSchema.parse(m);
})();

const wpDate = (s: string) => s.replace(' ', 'T');

/** A wp/v2 post (`context=edit`, TEC's storage) whose facets are `f`'s (its search text is the content's). */
export function postOf(f: EventFacets): WpPost {
  return {
    id: f.id,
    date: wpDate(f.date),
    date_gmt: null,
    modified: wpDate(f.modifiedGmt),
    modified_gmt: wpDate(f.modifiedGmt),
    slug: f.slug,
    status: f.status,
    type: 'tribe_events',
    link: '',
    title: { raw: '', rendered: '' },
    excerpt: { raw: f.hasExcerpt ? 'tap' : '', rendered: '' },
    content: { raw: f.searchText, rendered: '' },
    author: f.author,
    parent: f.parent,
    password: f.protected ? 'secret' : '',
    tribe_events_cat: f.categories,
    tags: f.tags,
    meta: {
      _EventStartDate: f.start,
      _EventEndDate: f.end,
      _EventVenueID: f.venue ?? '',
      _EventOrganizerID: f.organizers,
      _tribe_featured: f.featured ? '1' : '',
      _EventHideFromUpcoming: f.hidden ? 'yes' : '',
    },
  };
}

/** A WordPress client for an index filled by the test itself: lists nothing, and a read is a test error. */
export const noClient: IndexClient = {
  all: async () => [],
  list: async () => ({ items: [], total: 0, totalPages: 0 }),
  request: async () => {
    throw new Error('no upstream here');
  },
};
export const silent = { info() {}, warn() {} };
