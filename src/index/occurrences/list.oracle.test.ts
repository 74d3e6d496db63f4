// Lists of occurrences (list.ts, over the timeline and series by series) against a brute-force reference: every
// series expanded directly (src/recurrence/expand.ts), every event filtered by the reference query
// (`compileFilter`), overrides applied, then sorted, counted and cut. Random one-offs, series (weekly, daily, with
// days, counts and exclusions, in zones with DST changes and half hours), overrides, changes, filters, windows inside
// and outside the kept horizon, pages, `series` and `hide_subsequent_recurrences`.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { guard } from '../../../test/slack.ts';
import { type Mapping, mappingSchema } from '../../mapping/schema.ts';
import { Expander, readRuleText } from '../../recurrence/expand.ts';
import { occurrenceId } from '../../recurrence/ids.ts';
import type { WpPost } from '../../wp/types.ts';
import { noClient, query as queryArb, STATUSES, search } from '../arbitraries.ts';
import { EventIndex } from '../event-index.ts';
import { type EventFacets, facetsOf } from '../facets.ts';
import { compileFilter, type IndexQuery } from '../query.ts';
import { floatOfBound, floatOfWall } from './expand.ts';
import { feedPosts } from './feed.ts';
import { type ListItem, listOccurrences } from './list.ts';

const tec: Mapping = mappingSchema.parse(
  JSON.parse(readFileSync(new URL('../../../mappings/tec.json', import.meta.url), 'utf8')),
);
const NOW = Date.UTC(2026, 6, 1);
const DAY = 86_400_000;
const MAX = Number.MAX_SAFE_INTEGER;
const SEED = process.env.ORACLE_SEED === 'random' ? undefined : Number(process.env.ORACLE_SEED ?? 20261129);
const RUNS = Number(process.env.RECURRENCE_RUNS ?? 120);

const pad = (n: number) => String(n).padStart(2, '0');
const wallOf = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
/** A wall clock `days` from NOW (−400 … 800: before, inside and after the kept horizon) at a few times. */
const wallArb = fc
  .tuple(fc.integer({ min: -400, max: 800 }), fc.constantFrom(0, 2, 9, 19, 23), fc.constantFrom(0, 30))
  .map(([d, h, m]) => `${wallOf(NOW + d * DAY).slice(0, 10)} ${pad(h)}:${pad(m)}:00`);

const RULES = [
  'RRULE:FREQ=WEEKLY',
  'RRULE:FREQ=DAILY;INTERVAL=3',
  'RRULE:FREQ=WEEKLY;BYDAY=MO,TH;COUNT=30',
  'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=SA',
  'RRULE:FREQ=MONTHLY;BYMONTHDAY=15',
  'RRULE:FREQ=DAILY;UNTIL=20270301T000000Z',
];
const ZONES = ['America/New_York', 'Europe/Madrid', 'Asia/Kolkata', 'Australia/Lord_Howe', 'UTC'];

interface Spec {
  id: number;
  status: string;
  start: string;
  hours: number;
  rule: string | null;
  exdate: boolean;
  zone: string;
  /** An override of the series `parent`, replacing its occurrence `nth` after `start`. */
  override: { parent: number; nth: number } | null;
  categories: number[];
  venue: number | null;
  featured: boolean;
  protected: boolean;
  author: number;
  text: string;
}

const specArb = (id: number): fc.Arbitrary<Spec> =>
  fc.record({
    id: fc.constant(id),
    status: fc.constantFrom('publish', 'publish', 'publish', ...STATUSES),
    start: wallArb,
    hours: fc.constantFrom(0, 2, 2, 26),
    rule: fc.oneof(
      { weight: 2, arbitrary: fc.constant(null) },
      { weight: 3, arbitrary: fc.constantFrom(...RULES) },
    ),
    exdate: fc.boolean(),
    zone: fc.constantFrom(...ZONES),
    override: fc.oneof(
      { weight: 3, arbitrary: fc.constant(null) },
      {
        weight: 1,
        arbitrary: fc.record({
          parent: fc.integer({ min: 1, max: 12 }),
          nth: fc.integer({ min: 0, max: 60 }),
        }),
      },
    ),
    categories: fc.uniqueArray(fc.integer({ min: 1, max: 3 }), { maxLength: 2 }),
    venue: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 3 })),
    featured: fc.boolean(),
    protected: fc.constantFrom(false, false, false, true),
    author: fc.integer({ min: 1, max: 3 }),
    text: fc.constantFrom('jazz night', 'rock', 'jazz', 'music night', ''),
  });

/** The wp/v2 post of a spec; an override's original start is the `nth` occurrence of its series after its start. */
function postOf(s: Spec, specs: Map<number, Spec>): WpPost {
  const startMs = Date.parse(`${s.start.replace(' ', 'T')}Z`);
  const meta: Record<string, unknown> = {
    _EventStartDate: s.start,
    _EventEndDate: wallOf(startMs + s.hours * 3_600_000),
    _EventTimezone: s.zone,
    _EventVenueID: s.venue ?? '',
    _tribe_featured: s.featured ? '1' : '',
  };
  const parent = s.override ? specs.get(s.override.parent) : undefined;
  if (s.rule) {
    meta._EventRecurrenceRule = s.exdate
      ? `${s.rule}\nEXDATE:${s.start.slice(0, 10).replace(/-/g, '')}T${s.start.slice(11).replace(/:/g, '')}`
      : s.rule;
  } else if (parent?.rule && s.override) {
    const e = Expander.of(readRuleText(parent.rule) ?? { rrule: '', rdate: [], exdate: [] }, {
      start: parent.start,
      timezone: parent.zone,
      allDay: false,
    });
    const from = Date.parse(`${parent.start.replace(' ', 'T')}Z`) - DAY;
    const o = e?.between(from, from + 800 * DAY, s.override.nth + 1).at(-1);
    meta._EventSeriesParent = parent.id;
    meta._EventRecurrenceId = wallOf(o?.ms ?? from);
  }
  return {
    id: s.id,
    date: '2026-01-01T00:00:00',
    date_gmt: null,
    modified: '2026-01-01T00:00:00',
    modified_gmt: '2026-01-01T00:00:00',
    slug: `e${s.id}`,
    status: s.status,
    type: 'tribe_events',
    link: '',
    title: { raw: '', rendered: '' },
    excerpt: { raw: '', rendered: '' },
    content: { raw: s.text, rendered: '' },
    author: s.author,
    parent: 0,
    password: s.protected ? 'secret' : '',
    tribe_events_cat: s.categories,
    tags: [],
    meta,
  } as WpPost;
}

/** The list by brute force: every occurrence of every series in the window, every event filtered one by one. */
function reference(held: EventFacets[], query: IndexQuery, longest: number) {
  const { series: only, firstOnly, ...q } = query;
  const perPage = Math.max(1, q.perPage);
  const offset = (q.page - 1) * perPage;
  const matching = (x: IndexQuery) => held.filter(compileFilter(x));
  const key = (i: ListItem) => [i.id, i.post, i.start];
  const cut = (items: ListItem[]) => {
    items.sort((a, b) => a.start - b.start || a.id - b.id);
    return { items: items.slice(offset, offset + perPage).map(key), total: items.length };
  };
  const seriesHeld = held.filter((f) => f.repeat?.rule !== undefined);
  if (q.include?.length || seriesHeld.length === 0) {
    if (only !== undefined) return { items: [], total: 0 };
    return null;
  }
  const d = q.dates ?? {};
  const [sGte, sGt, sLt, eLte, eLt, eGt] = [d.startGte, d.startGt, d.startLt, d.endLte, d.endLt, d.endGt].map(
    floatOfBound,
  );
  const lower = Math.max(sGte ?? -Infinity, sGt ?? -Infinity, (eGt ?? -Infinity) - longest);
  const upper = Math.min(sLt ?? Infinity, eLte ?? Infinity, eLt ?? Infinity);
  const to = Number.isFinite(upper) ? upper : (Number.isFinite(lower) ? lower : Date.now()) + 24 * 31 * DAY;
  const fits = (f: number, dur: number) =>
    f >= lower &&
    f <= to &&
    (sGte === undefined || f >= sGte) &&
    (sGt === undefined || f > sGt) &&
    (sLt === undefined || f < sLt) &&
    (eLte === undefined || f <= eLte - dur) &&
    (eLt === undefined || f < eLt - dur) &&
    (eGt === undefined || f > eGt - dur);
  const status = {
    statuses: q.statuses,
    ownStatuses: q.ownStatuses,
    author: q.author,
    page: 1,
    perPage: MAX,
  };
  const seen = matching({ ...status, rows: 'override' });
  const readable = new Set(matching({ ...status, rows: 'series' }).map((f) => f.id));
  const replaced = new Set(seen.map((f) => `${f.repeat?.seriesParent} ${f.repeat?.originalStartMs}`));
  const expander = (f: EventFacets) =>
    Expander.of(readRuleText(f.repeat?.rule) ?? { rrule: '', rdate: [], exdate: [] }, {
      start: f.start,
      timezone: f.repeat?.timezone || 'UTC',
      allDay: false,
    });
  const byId = new Map(held.map((f) => [f.id, f]));
  const moved: ListItem[] = [];
  const listedOverrides = new Set(matching({ ...q, rows: 'override' }).map((f) => f.id));
  for (const o of seen) {
    const parent = byId.get(o.repeat?.seriesParent ?? 0);
    const original = o.repeat?.originalStartMs ?? 0;
    if (!listedOverrides.has(o.id) || !parent || !readable.has(parent.id)) continue;
    if (only !== undefined && parent.id !== only) continue;
    if (
      !expander(parent)
        ?.between(original - DAY, original + DAY)
        .some((x) => x.ms === original)
    )
      continue;
    const id = occurrenceId({ seriesId: parent.id, originalStartMs: original });
    if (id !== undefined) moved.push({ id, post: o.id, start: floatOfWall(o.start) });
  }
  const occurrences = new Map<number, ListItem[]>();
  for (const f of matching({ ...q, dates: undefined, rows: 'series', page: 1, perPage: MAX })) {
    if (only !== undefined && f.id !== only) continue;
    const dur = f.repeat?.durationMs ?? 0;
    const from = Math.max(lower, floatOfWall(f.start) - 2 * DAY) - 2 * DAY;
    const list: ListItem[] = [];
    for (const x of expander(f)?.between(from, to + 2 * DAY, 100_000) ?? []) {
      const start = floatOfWall(x.wall);
      const id = occurrenceId({ seriesId: f.id, originalStartMs: x.ms });
      if (id === undefined || !fits(start, dur) || replaced.has(`${f.id} ${x.ms}`)) continue;
      list.push({ id, post: f.id, start });
    }
    occurrences.set(f.id, list);
  }
  const singles =
    only !== undefined
      ? []
      : matching({ ...q, rows: 'single' }).map((f) => ({
          id: f.id,
          post: f.id,
          start: floatOfWall(f.start),
        }));
  if (!firstOnly) return cut([...singles, ...moved, ...[...occurrences.values()].flat()]);
  const first = new Map<number, ListItem>();
  for (const [id, list] of occurrences) if (list[0]) first.set(id, list[0]);
  for (const m of moved) {
    const s = byId.get(m.post)?.repeat?.seriesParent ?? 0;
    const had = first.get(s);
    if (!had || m.start < had.start || (m.start === had.start && m.id < had.id)) first.set(s, m);
  }
  return cut([...singles, ...first.values()]);
}

/** `arb` one time in `n`, else undefined. */
const sometimes = <T>(arb: fc.Arbitrary<T>, n: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: n - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

/** A window as lists ask for them: mostly from a day on (the default list's), sometimes any bounds or none. */
const datesArb = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.integer({ min: -30, max: 400 }), fc.integer({ min: 1, max: 800 }))
      .map(([from, days]) => ({
        startGte: wallOf(NOW + from * DAY),
        endLte: wallOf(NOW + (from + days) * DAY),
      })),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      startGte: sometimes(wallArb, 2),
      startLt: sometimes(wallArb, 3),
      endLte: sometimes(wallArb, 3),
      endGt: sometimes(wallArb, 3),
      startGt: sometimes(wallArb, 6),
      endLt: sometimes(wallArb, 6),
    }),
  },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

const queryOf = fc
  .record({
    base: fc.oneof(
      { weight: 3, arbitrary: fc.constant({ statuses: ['publish'], page: 1, perPage: 10 } as IndexQuery) },
      { weight: 2, arbitrary: queryArb },
    ),
    dates: datesArb,
    search: sometimes(search, 4),
    series: sometimes(fc.integer({ min: 1, max: 12 }), 6),
    firstOnly: sometimes(fc.constant(true), 3),
    // Filters that many series match: the timeline then reads the set of them.
    terms: sometimes(
      fc.constantFrom<Partial<IndexQuery>>(
        { search: 'jazz' },
        { search: 'night' },
        { categories: [1] },
        { venue: [1, 2] },
      ),
      3,
    ),
    page: fc.integer({ min: 1, max: 4 }),
    perPage: fc.constantFrom(1, 3, 10),
  })
  .map(({ base, dates, search: s, series, firstOnly, terms, page, perPage }) => {
    const q: IndexQuery = { ...base, dates, search: s, series, firstOnly, ...terms, page, perPage };
    // Few of the reference's term filters (they would leave nothing to list), and `include` now and then.
    if (q.include && q.include.length > 0 && page > 1) q.include = undefined;
    q.tags = undefined;
    q.organizer = undefined;
    q.parent = undefined;
    q.categories = q.categories?.filter((c) => c <= 3);
    return q;
  });

describe('lists of occurrences against a brute-force reference', () => {
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterAll(() => {
    vi.useRealTimers();
  });

  it('page for page and in total, over the timeline and series by series, through changes', {
    timeout: guard(120_000),
  }, () => {
    let listed = 0;
    let asked = 0;
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 12 })
          .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => specArb(i + 1)))),
        fc.array(
          fc.integer({ min: 1, max: 12 }).chain((id) => specArb(id)),
          { maxLength: 3 },
        ),
        fc.array(queryOf, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(1, 2, 5, 1024),
        fc.constantFrom(0, 0, 1, 64),
        (initial, changes, queries, block, narrow) => {
          const index = new EventIndex({
            client: noClient,
            mapping: tec,
            language: 'en',
            logger: { info() {}, warn() {} },
            tuning: { occurrenceBlock: block },
          });
          const specs = new Map(initial.map((s) => [s.id, s]));
          // The posts as upserted (an override's original start is its series' when it was written).
          const posts = new Map<number, WpPost>();
          // The longest series the index took (it widens windows by it and never narrows them again).
          let longest = 0;
          const upsert = (s: Spec) => {
            const post = postOf(s, specs);
            posts.set(s.id, post);
            index.upsert(post);
            const f = facetsOf(post, tec);
            if (f.repeat?.rule !== undefined) longest = Math.max(longest, f.repeat.durationMs);
          };
          const check = () => {
            const held = [...posts.values()].map((p) => facetsOf(p, tec));
            for (const q of queries) {
              const want = reference(held, q, longest);
              const got = listOccurrences(index, q, narrow);
              asked++;
              if (want === null) continue;
              if (want.total > 0) listed++;
              expect({ items: got.items.map((i) => [i.id, i.post, i.start]), total: got.total }).toEqual(
                want,
              );
              expect(got.totalPages).toBe(Math.ceil(want.total / Math.max(1, q.perPage)));
              if (q.series === undefined) expect(feedPosts(index, q, q.perPage * q.page)).toEqual(feedOf(q));
            }
          };
          // A feed: the page's posts, each series followed by every override of it the caller may see.
          const feedOf = (q: IndexQuery) => {
            const firsts = listOccurrences(index, {
              ...q,
              firstOnly: true,
              page: 1,
              perPage: q.perPage * q.page,
            });
            const status = { statuses: q.statuses, ownStatuses: q.ownStatuses, author: q.author };
            const seen = [...posts.values()]
              .map((p) => facetsOf(p, tec))
              .filter(compileFilter({ ...status, rows: 'override', page: 1, perPage: MAX }));
            const ids = firsts.items.flatMap((i) =>
              i.occurrence
                ? [
                    i.occurrence.seriesId,
                    ...[...index.repeats.overridesOf(i.occurrence.seriesId)].filter((o) =>
                      seen.some((f) => f.id === o),
                    ),
                  ]
                : [i.post],
            );
            return { ids, total: firsts.total };
          };
          for (const s of specs.values()) upsert(s);
          check();
          for (const c of changes) {
            specs.set(c.id, c);
            upsert(c);
            check();
          }
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
    // Enough of the lists hold something to test order, pages and totals.
    expect(listed / asked).toBeGreaterThan(0.2);
  });
});
