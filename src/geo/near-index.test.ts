// Near-me lists at the index level against a brute force over every event, with the haversine of ./distance.ts.
//
// Random venues (near the point, across the antimeridian, near the poles; some without coordinates, some drafts or
// protected, and sometimes a thousand more so that `geoloc=true` / `false` are read as a bit per row, kept through the changes), random events
// at them (protected and draft ones too), random points and radii (0.1–500 km, and exactly a venue's distance),
// combined with the other filters, paging, totals and `orderby=distance`, through changes to the events. The index's
// answer (ids in order, total) must be what measuring every event's venue gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../mocks/seed-data.ts';
import { guard } from '../../test/slack.ts';
import { event, noClient, postOf, query, silent, tecWithParent as tec } from '../index/arbitraries.ts';
import { EventIndex } from '../index/event-index.ts';
import { type EventFacets, facetsOf } from '../index/facets.ts';
import { byDate, byStart, compileFilter, type IndexQuery, type IndexResult } from '../index/query.ts';
import type { LinkedFacets } from '../linked/catalog.ts';
import { distanceKm, roundKm } from './distance.ts';
import { type GeoArgs, pointOf, venueSetsOf } from './near.ts';

const seed = process.env.GEO_SEED === 'random' ? undefined : Number(process.env.GEO_SEED ?? 3535);
const numRuns = Number(process.env.GEO_RUNS ?? 300);

const clampLat = (v: number) => Math.max(-90, Math.min(90, v));
const wrapLng = (v: number) => ((((v + 180) % 360) + 360) % 360) - 180;

/** Points anywhere, with weight near the poles and the antimeridian. */
const lat = fc.oneof(
  fc.double({ min: -90, max: 90, noNaN: true }),
  fc.double({ min: 88, max: 90, noNaN: true }),
  fc.double({ min: -90, max: -88, noNaN: true }),
  fc.constantFrom(90, -90, 0),
);
const lng = fc.oneof(
  fc.double({ min: -180, max: 180, noNaN: true }),
  fc.double({ min: 179, max: 180, noNaN: true }),
  fc.double({ min: -180, max: -179, noNaN: true }),
  fc.constantFrom(180, -180, 0),
);

/** Venue ids 1–12 are drawn; 100–1199 are the 1100 more of a large catalog; 999 999 is in no catalog. */
const FEW = 12;
const MANY_FROM = 100;
const MANY = 1100;

/** A drawn venue: where (relative to the point, or anywhere), whether it has coordinates, its status and password. */
interface Drawn {
  near: boolean;
  dLat: number;
  dLng: number;
  lat: number;
  lng: number;
  point: boolean;
  status: string;
  protected: boolean;
}
const venue: fc.Arbitrary<Drawn> = fc.record({
  near: fc.boolean(),
  dLat: fc.double({ min: -3, max: 3, noNaN: true }),
  dLng: fc.double({ min: -3, max: 3, noNaN: true }),
  lat,
  lng,
  point: fc.constantFrom(true, true, true, false),
  status: fc.constantFrom('publish', 'publish', 'publish', 'draft', 'private'),
  protected: fc.constantFrom(false, false, false, true),
});

const venueId = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: FEW }) },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constant(999_999) },
  { weight: 2, arbitrary: fc.integer({ min: MANY_FROM, max: MANY_FROM + MANY - 1 }) },
);

/** An event at a drawn venue. */
const at = (id: number) => fc.tuple(event(id), venueId).map(([e, v]) => ({ ...e, venue: v }));
const events = fc
  .integer({ min: 0, max: 50 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => at(i + 1))));
const change = fc.oneof(
  fc.integer({ min: 1, max: 55 }).chain((id) => at(id)),
  fc.integer({ min: 1, max: 55 }).map((id) => ({ remove: id })),
);

/** The geolocation arguments: a point with a radius (or a venue's exact distance), or `geoloc` alone. */
type GeoCase = { radius: number | { exactly: number }; byDistance: boolean } | { geoloc: boolean };
const geo: fc.Arbitrary<GeoCase> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      radius: fc.oneof(
        fc.double({ min: 0.1, max: 500, noNaN: true }),
        fc.constantFrom(0.1, 25, 500),
        fc.integer({ min: 1, max: FEW }).map((v) => ({ exactly: v })),
      ),
      byDistance: fc.constantFrom(true, true, false),
    }),
  },
  { weight: 2, arbitrary: fc.record({ geoloc: fc.boolean() }) },
);

/** A list with no other filter, every status an editor reads, protected events seen in full: most events match. */
const plain: fc.Arbitrary<IndexQuery> = fc.record({
  statuses: fc.constant(['publish', 'future', 'draft', 'pending', 'private']),
  seesProtected: fc.constantFrom(undefined, { all: true }),
  page: fc.integer({ min: 1, max: 3 }),
  perPage: fc.integer({ min: 1, max: 6 }),
});

function catalogOf(
  drawn: Drawn[],
  here: { lat: number; lng: number },
  many: number,
): Map<number, LinkedFacets> {
  const catalog = new Map<number, LinkedFacets>();
  const add = (id: number, status: string, isProtected: boolean, point: LinkedFacets['point']) =>
    catalog.set(id, {
      id,
      status,
      slug: `v${id}`,
      date: '2026-01-01 00:00:00',
      name: `V${id}`,
      values: {},
      searchText: '',
      author: 1,
      protected: isProtected,
      openText: '',
      point,
    });
  drawn.forEach((d, i) => {
    const where = d.near
      ? { lat: clampLat(here.lat + d.dLat), lng: wrapLng(here.lng + d.dLng) }
      : { lat: d.lat, lng: d.lng };
    add(i + 1, d.status, d.protected, d.point ? where : null);
  });
  // A large catalog: every venue with coordinates, scattered (deterministic from the case's number).
  const rnd = mulberry32(many);
  for (let i = 0; many > 0 && i < MANY; i++)
    add(MANY_FROM + i, 'publish', false, { lat: clampLat(rnd() * 180 - 90), lng: rnd() * 360 - 180 });
  return catalog;
}

/**
 * The brute force: every event measured. An event's venue places it when the venue is published, has no password
 * and has coordinates; a point keeps those within the radius (km rounded to the metre, as answers show it), nearest
 * first when ordered by distance, then in the list's order. The venue is a field a password blanks, so a protected
 * event counts only where the caller sees it in full (`readsLinks` asks the reference filter for that).
 */
function brute(
  held: Iterable<EventFacets>,
  catalog: Map<number, LinkedFacets>,
  a: GeoArgs,
  q: IndexQuery,
): IndexResult {
  const others = compileFilter({ ...q, readsLinks: true });
  const include = q.include?.length ? new Set(q.include) : null;
  const hit: { f: EventFacets; km: number }[] = [];
  for (const f of held) {
    if (!others(f) || (include && !include.has(f.id))) continue;
    const v = f.venue === null ? undefined : catalog.get(f.venue);
    const placed = v?.status === 'publish' && !v.protected && v.point ? v.point : null;
    if (a.geoloc_lat !== undefined && a.geoloc_lng !== undefined) {
      if (!placed) continue;
      const km = distanceKm(a.geoloc_lat, a.geoloc_lng, placed.lat, placed.lng);
      if (km <= (a.geoloc_radius ?? 25)) hit.push({ f, km: roundKm(km) });
    } else if (a.geoloc === !!placed) hit.push({ f, km: 0 });
  }
  hit.sort(
    (x, y) =>
      (a.orderby === 'distance' ? x.km - y.km : 0) || (include ? byDate(x.f, y.f) : byStart(x.f, y.f)),
  );
  const perPage = Math.max(1, Math.floor(q.perPage));
  const offset = (Math.max(1, Math.floor(q.page)) - 1) * perPage;
  return {
    ids: hit.slice(offset, offset + perPage).map((h) => h.f.id),
    total: hit.length,
    totalPages: Math.ceil(hit.length / perPage),
  };
}

describe('near-me lists in the event index', () => {
  it('answer what measuring every event gives: ids in order and totals, with the other filters and paging', {
    timeout: guard(120_000),
  }, () => {
    let asked = 0;
    let found = 0;
    let ordered = 0;
    let bits = 0;
    fc.assert(
      fc.property(
        fc.record({ lat, lng }),
        fc.array(venue, { minLength: FEW, maxLength: FEW }),
        fc.constantFrom(0, 0, 1, 2),
        events,
        fc.array(fc.array(change, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 3 }),
        fc.array(fc.tuple(geo, fc.oneof(query, plain)), { minLength: 1, maxLength: 5 }),
        fc.record({ blockSize: fc.constantFrom(1, 3, 512), alwaysNarrow: fc.boolean() }),
        (here, drawn, many, initial, rounds, asks, columns) => {
          const catalog = catalogOf(drawn, here, many);
          const index = new EventIndex({
            client: noClient,
            mapping: tec,
            language: 'en',
            logger: silent,
            tuning: { columns },
          });
          const held = new Map<number, EventFacets>();
          const load = index.restoring();
          const first = initial.map((e) => facetsOf(postOf(e), tec)).sort(byStart);
          load.add(first);
          load.finish(null, '2026-01-01T00:00:00.000Z');
          for (const f of first) held.set(f.id, f);

          const ask = ([g, base]: [GeoCase, IndexQuery]) => {
            const { include: _i, ...q0 } = base;
            // `include` sometimes, as the list allows it with a point.
            const q: IndexQuery = base.include && base.page === 1 ? base : q0;
            let a: GeoArgs;
            if ('geoloc' in g) a = { geoloc: g.geoloc };
            else {
              const { radius, byDistance } = g;
              const to = typeof radius === 'number' ? null : catalog.get(radius.exactly)?.point;
              const r =
                typeof radius === 'number'
                  ? radius
                  : to
                    ? Math.max(0.1, distanceKm(here.lat, here.lng, to.lat, to.lng))
                    : 25;
              a = {
                geoloc_lat: here.lat,
                geoloc_lng: here.lng,
                geoloc_radius: r,
                orderby: byDistance ? 'distance' : undefined,
              };
            }
            const { distances, ...sets } = venueSetsOf(a, pointOf(a), catalog);
            const got = index.query({
              ...q,
              ...sets,
              nearest: a.orderby === 'distance' ? distances : undefined,
            });
            const want = brute(held.values(), catalog, a, q);
            expect(got).toEqual(want);
            asked++;
            if (want.total > 0) found++;
            if (a.orderby === 'distance' && want.ids.length > 1) ordered++;
            if (a.geoloc !== undefined && many > 0) bits++;
          };

          for (const changes of rounds) {
            asks.forEach(ask);
            for (const c of changes) {
              if ('remove' in c) {
                index.remove(c.remove);
                held.delete(c.remove);
              } else {
                index.upsert(postOf(c));
                held.set(c.id, facetsOf(postOf(c), tec));
              }
            }
          }
          asks.forEach(ask);
        },
      ),
      { seed, numRuns },
    );
    // Enough of the queries find events, order several by distance, and read a large catalog's venues as bits.
    expect(found / asked).toBeGreaterThan(0.15);
    expect(ordered).toBeGreaterThan(50);
    expect(bits).toBeGreaterThan(50);
  });
});
