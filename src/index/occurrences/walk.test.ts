// The timeline's walks (./walk.ts) against a plain scan of every series' kept starts: a page's entries and its total
// (read in runs of blocks from running totals), and the count of series with an occurrence in the bounds (read from
// the slots' summaries), for bounds on starts and ends alike, series of every length, gone occurrences and classes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OccurrenceStore, type Owner, type Series } from './store.ts';
import { type FloatBounds, type Gone, type Selection, seriesIn, walkPage } from './walk.ts';

const DAY = 86_400_000;
const H = 3_600_000;
const NOW = Date.UTC(2026, 6, 1);
const RUNS = Number(process.env.RECURRENCE_RUNS ?? 300);
const RULES = [
  'RRULE:FREQ=WEEKLY',
  'RRULE:FREQ=DAILY;INTERVAL=3',
  'RRULE:FREQ=WEEKLY;COUNT=5',
  'RRULE:FREQ=MONTHLY;INTERVAL=4',
  'RRULE:FREQ=DAILY;COUNT=2',
];
const STATUSES = ['publish', 'draft', 'private'];

const wallOf = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

interface Spec {
  rule: string;
  day: number;
  hour: number;
  hours: number;
  zone: string;
  status: string;
}

/** A store holding the series (ids 1, 2, …), in blocks of `block`. */
function storeOf(specs: Spec[], block: number): OccurrenceStore {
  const store = new OccurrenceStore({ now: () => NOW, occurrenceBlock: block });
  specs.forEach((s, i) => {
    const start = `${wallOf(NOW + s.day * DAY).slice(0, 10)} ${String(s.hour).padStart(2, '0')}:00:00`;
    const repeat = { rule: s.rule, start, timezone: s.zone, allDay: false, durationMs: s.hours * H };
    const owner: Owner = {
      status: s.status,
      author: 0,
      hidden: false,
      featured: false,
      protected: false,
      hasExcerpt: false,
      series: true,
    };
    store.set(i + 1, repeat, owner);
  });
  return store;
}

/** The bounds as list.ts makes them: from the latest lower bound (an end's, by the longest series) to the window's end. */
function boundsOf(store: OccurrenceStore, b0: Partial<FloatBounds>): FloatBounds {
  const lower = Math.max(b0.sGte ?? -Infinity, b0.sGt ?? -Infinity, (b0.eGt ?? -Infinity) - store.longestMs);
  const upper = Math.min(b0.sLt ?? Infinity, b0.eLte ?? Infinity, b0.eLt ?? Infinity);
  const low = Number.isFinite(lower) ? lower : NOW - 300 * DAY;
  return { ...b0, lower: low, to: Number.isFinite(upper) ? upper : low + 600 * DAY };
}

function inBounds(b: FloatBounds, f: number, d: number): boolean {
  const e = f + d;
  return (
    f >= b.lower &&
    f <= b.to &&
    (b.sGte === undefined || f >= b.sGte) &&
    (b.sGt === undefined || f > b.sGt) &&
    (b.sLt === undefined || f < b.sLt) &&
    (b.eLte === undefined || e <= b.eLte) &&
    (b.eLt === undefined || e < b.eLt) &&
    (b.eGt === undefined || e > b.eGt)
  );
}

interface Ask {
  /** The statuses listed; by a set of slots (a search's) or by class. */
  statuses: string[];
  bySet: boolean;
  want: number;
  /** Picks among the entries in the bounds, gone; picks among the series, counted anyway (a moved override's). */
  goneAt: number[];
  alsoAt: number[];
}

/** Checks the walks of `b` against the scan. */
function expectScan(store: OccurrenceStore, b: FloatBounds, ask: Ask): void {
  const all: Series[] = [...store.allSeries()];
  const passes = (klass: number) => ask.statuses.includes(store.classStatus[klass]!);
  let sel: Selection;
  if (ask.bySet) {
    const inS = new Uint8Array(store.slots);
    for (const s of all) inS[s.slot] = passes(s.klass) ? 1 : 0;
    sel = { pass: null, listed: null, inS };
  } else {
    const pass = new Uint8Array(store.classStatus.length).map((_, c) => (passes(c) ? 1 : 0));
    sel = { pass, listed: [...pass.keys()].filter((c) => pass[c] === 1), inS: null };
  }
  // Every kept start of every selected series in the bounds, in (start, slot) order.
  const hitsOf = new Map<Series, number[]>();
  const inside: [number, number][] = [];
  for (const s of all) {
    const hits = passes(s.klass)
      ? Array.from(s.starts).filter((secs) => inBounds(b, store.floatAt(secs), s.repeat.durationMs))
      : [];
    hitsOf.set(s, hits);
    for (const secs of hits) inside.push([secs, s.slot]);
  }
  inside.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const gone: Gone = new Map();
  for (const i of inside.length > 0 ? ask.goneAt : []) {
    const [secs, slot] = inside[i % inside.length]!;
    gone.set(slot, (gone.get(slot) ?? new Set<number>()).add(secs));
  }
  const also = new Set(ask.alsoAt.map((i) => all[i % all.length]!.id));
  const shown = inside.filter(([secs, slot]) => !gone.get(slot)?.has(secs));
  const cut = shown.length > ask.want ? shown[ask.want - 1]![0] : Infinity;
  const page = shown.filter(([secs], i) => i < ask.want || secs === cut);
  const series = all.filter(
    (s) => hitsOf.get(s)?.some((secs) => !gone.get(s.slot)?.has(secs)) || also.has(s.id),
  ).length;

  const got = walkPage(store, sel, b, ask.want, gone);
  expect(got.total).toBe(inside.length);
  expect(got.secs.map((secs, i) => [secs, got.slots[i]])).toEqual(page);
  expect(seriesIn(store, sel, b, gone, also)).toBe(series);
  // Asked again (the running totals now made), the same.
  expect(walkPage(store, sel, b, ask.want, gone).total).toBe(inside.length);
}

const specArb: fc.Arbitrary<Spec> = fc.record({
  rule: fc.constantFrom(...RULES),
  day: fc.integer({ min: -420, max: 760 }),
  hour: fc.constantFrom(0, 9, 23),
  hours: fc.constantFrom(0, 1, 26, 240),
  zone: fc.constantFrom('UTC', 'America/New_York', 'Asia/Kolkata'),
  status: fc.constantFrom(...STATUSES),
});

/**
 * A bound, sometimes: mostly at or beside a kept start (of series `series`: its first, its last or any; off by one of
 * the series' lengths or an hour, either way), where a walk's edges are; else any day at an hour.
 */
const boundArb = fc.option(
  fc.oneof(
    {
      weight: 3,
      arbitrary: fc.record({
        series: fc.nat(),
        at: fc.oneof(fc.constantFrom(0, -1), fc.nat()),
        delta: fc.constantFrom(0, 0, H, -H, 26 * H, -26 * H, 240 * H, -240 * H),
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: -300, max: 700 }), fc.constantFrom(0, 9, 23))
        .map(([d, h]) => NOW + d * DAY + h * H),
    },
  ),
  { freq: 2 },
);
type BoundSpec = typeof boundArb extends fc.Arbitrary<infer T> ? T : never;

const askArb: fc.Arbitrary<Ask> = fc.record({
  statuses: fc.subarray(STATUSES, { minLength: 1 }),
  bySet: fc.boolean(),
  want: fc.constantFrom(1, 2, 5, 40),
  goneAt: fc.array(fc.nat(), { maxLength: 6 }),
  alsoAt: fc.array(fc.nat(), { maxLength: 3 }),
});

const pub = (s: Partial<Spec>): Spec => ({
  rule: 'RRULE:FREQ=DAILY',
  day: 0,
  hour: 9,
  hours: 0,
  zone: 'UTC',
  status: 'publish',
  ...s,
});
const ASK: Ask = { statuses: ['publish'], bySet: false, want: 1, goneAt: [], alsoAt: [] };
const at = (day: number, hour: number) => NOW + day * DAY + hour * H;

describe('walks of the timeline', () => {
  it('page, total and series counted as a scan of every series counts them', () => {
    fc.assert(
      fc.property(
        fc.array(specArb, { minLength: 1, maxLength: 10 }),
        fc.constantFrom(1, 3, 16),
        fc.record({
          sGte: boundArb,
          sGt: boundArb,
          sLt: boundArb,
          eLte: boundArb,
          eLt: boundArb,
          eGt: boundArb,
        }),
        askArb,
        (specs, block, bounds, ask) => {
          const store = storeOf(specs, block);
          const held = [...store.allSeries()].filter((s) => s.starts.length > 0);
          const b0: Partial<FloatBounds> = {};
          for (const [k, v] of Object.entries(bounds) as [keyof typeof bounds, BoundSpec][]) {
            if (v === null) continue;
            if (typeof v === 'number') b0[k] = v;
            else if (held.length > 0) {
              const { starts } = held[v.series % held.length]!;
              b0[k] = store.floatAt(starts.at(v.at === -1 ? -1 : v.at % starts.length)!) + v.delta;
            }
          }
          const b = boundsOf(store, b0);
          fc.pre(store.covers(b.lower, b.to));
          expectScan(store, b, ask);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it.each([
    // A series whose first start is the window's exclusive end, or its exclusive start with no other inside.
    ['first at the start bound below', [pub({ day: 10 })], { sGte: at(0, 0), sLt: at(10, 9) }],
    [
      'first at the start bound above',
      [pub({ rule: 'RRULE:FREQ=WEEKLY' })],
      { sGt: at(0, 9), sLt: at(3, 0) },
    ],
    // A series whose last start is the window's inclusive start.
    ['last at the start bound', [pub({ rule: 'RRULE:FREQ=DAILY;COUNT=2' })], { sGte: at(1, 9) }],
    // One ending exactly at an exclusive end bound, or at an inclusive one.
    ['end at the end bound below', [pub({ day: 5, hours: 2 })], { sGte: at(0, 0), eLt: at(5, 11) }],
    ['end at the end bound at most', [pub({ day: 5, hours: 2 })], { sGte: at(0, 0), eLte: at(5, 11) }],
    // Long and short series interleaved before an end bound from below: only the long ones' ends reach past it.
    [
      'long and short before an end from below',
      [pub({ hours: 240, hour: 1 }), pub({ hour: 2 }), pub({ hours: 240, hour: 3 }), pub({ hour: 4 })],
      { eGt: at(200, 0) },
    ],
  ] as [string, Spec[], Partial<FloatBounds>][])('%s', (_, specs, b0) => {
    for (const block of [1, 2, 8]) {
      const store = storeOf(specs, block);
      for (const want of [1, 3])
        for (const goneAt of [[], [0]]) expectScan(store, boundsOf(store, b0), { ...ASK, want, goneAt });
    }
  });
});
