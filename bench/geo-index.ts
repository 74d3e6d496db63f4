// The near-me rows of `npm run bench:index` (issue 35): 100k synthetic events over 5k venues with coordinates, 50
// cities of 100 venues each (spread over ~15 km), and list queries near a point: p50 / p99 in ms of the whole answer
// as GET /events makes it (the venues in reach from the grid over the venue catalog, then the event index answering
// from their posting lists, nearest first with orderby=distance: src/index/columns/near.ts), and its main-thread CPU,
// a mean over 200 queries. The first row is the default list without geolocation on the same index, the yardstick of
// the run. Side by side, the same answer with the venues found by measuring every venue, for the ratio.
// `BENCH_INDEX_ONLY=geo npm run bench:index` runs these rows alone (BENCH_GEO_EVENTS, BENCH_GEO_VENUES size them).
import { mulberry32 } from '../mocks/seed-data.ts';
import { distanceKm, roundKm } from '../src/geo/distance.ts';
import { type GeoArgs, pointOf, venueSetsOf } from '../src/geo/near.ts';
import type { IndexQuery } from '../src/index/query.ts';
import type { LinkedFacets } from '../src/linked/catalog.ts';
import type { Mapping } from '../src/mapping/schema.ts';
import { benchIndex, restoreFrom } from './index-kit.ts';
import { calendarDay, syntheticPosts } from './synthetic.ts';

const EVENTS = Number(process.env.BENCH_GEO_EVENTS ?? 100_000);
const VENUES = Number(process.env.BENCH_GEO_VENUES ?? 5_000);
const CITIES = 50;
const FIRST_VENUE = 10_000;

/** City centres spread over Europe and North America (and one on the antimeridian, one near the pole). */
function cities(rnd: () => number): { lat: number; lng: number }[] {
  const out = [
    { lat: -16.8, lng: 179.99 },
    { lat: 78.22, lng: 15.65 },
  ];
  while (out.length < CITIES) {
    const europe = rnd() < 0.5;
    out.push(
      europe
        ? { lat: 36 + rnd() * 24, lng: -9 + rnd() * 35 }
        : { lat: 30 + rnd() * 18, lng: -122 + rnd() * 50 },
    );
  }
  return out;
}

/** 5k published venues, a hundred per city, ~15 km around its centre (degrees of latitude are ~111 km). */
function venueCatalog(centres: { lat: number; lng: number }[], rnd: () => number): Map<number, LinkedFacets> {
  const catalog = new Map<number, LinkedFacets>();
  for (let i = 0; i < VENUES; i++) {
    const c = centres[i % centres.length];
    const dLat = ((rnd() + rnd() + rnd() - 1.5) * 0.27) / 1.5;
    const dLng = ((rnd() + rnd() + rnd() - 1.5) * 0.27) / 1.5 / Math.cos((c.lat * Math.PI) / 180);
    const lng = ((c.lng + dLng + 540) % 360) - 180;
    const id = FIRST_VENUE + i;
    catalog.set(id, {
      id,
      status: 'publish',
      slug: `venue-${id}`,
      date: '2025-01-01 00:00:00',
      name: `Venue ${id}`,
      values: {},
      searchText: '',
      author: 1,
      protected: false,
      openText: '',
      point: { lat: Math.max(-90, Math.min(90, c.lat + dLat)), lng },
    });
  }
  return catalog;
}

/** The venues a point reaches, found by measuring every venue: the reference the grid replaces. */
function scanned(a: GeoArgs, catalog: Map<number, LinkedFacets>) {
  const p = pointOf(a);
  if (!p) throw new Error('a point query');
  const distances = new Map<number, number>();
  for (const v of catalog.values())
    if (v.point) {
      const km = distanceKm(p.lat, p.lng, v.point.lat, v.point.lng);
      if (km <= p.radiusKm) distances.set(v.id, roundKm(km));
    }
  return { venueIn: new Set(distances.keys()), distances };
}

/**
 * The main-thread CPU time (ms) of 200 queries, a mean per query: what a loaded machine does not stretch (a two-core
 * machine shared by other jobs stretches the wall-clock figures several times). Read over the whole run: the
 * thread's CPU clock, read around a single query, often does not move.
 */
function cpuMean(run: (q: IndexQuery) => unknown, make: (i: number) => IndexQuery): number {
  const queries = Array.from({ length: 200 }, (_, i) => make(i));
  const u = process.threadCpuUsage();
  for (const q of queries) run(q);
  const d = process.threadCpuUsage(u);
  return (d.user + d.system) / 1000 / queries.length;
}

type Timer = (run: (q: IndexQuery) => unknown, make: (i: number) => IndexQuery) => [number, number];

/**
 * The rows: each names a query near one of the cities (a point jittered by up to ~5 km around a centre, so a 25 km
 * radius reaches most of that city's venues), with or without other filters.
 */
export async function geoRows(
  mapping: Mapping,
  time: Timer,
  pair: (p: [number, number]) => string,
): Promise<Record<string, string>> {
  const rnd = mulberry32(35);
  const centres = cities(rnd);
  const catalog = venueCatalog(centres, rnd);
  const index = benchIndex(mapping);
  const pick = mulberry32(7);
  // Every event at a random venue of the catalog.
  function* placed() {
    for (const post of syntheticPosts(EVENTS)) {
      (post.meta as Record<string, unknown>)._EventVenueID = FIRST_VENUE + Math.floor(pick() * VENUES);
      yield post;
    }
  }
  await restoreFrom(index, placed(), mapping);

  const TODAY = 365;
  const base = (i: number, extra: Partial<IndexQuery> = {}): IndexQuery => ({
    statuses: ['publish'],
    page: 1 + (i % 3),
    perPage: 10,
    dates: { startGte: calendarDay(TODAY + (i % 7)), endLte: calendarDay(TODAY + 730) },
    ...extra,
  });
  const argsOf = (i: number, extra: Partial<GeoArgs> = {}): GeoArgs => {
    const c = centres[i % centres.length];
    return {
      geoloc_lat: Math.max(-90, Math.min(90, c.lat + ((i % 11) - 5) * 0.01)),
      geoloc_lng: ((c.lng + ((i % 13) - 6) * 0.01 + 540) % 360) - 180,
      geoloc_radius: 25,
      ...extra,
    };
  };
  /** The whole answer of a list near a point, as GET /events makes it: venues from the grid, then the index. */
  const near = (a: GeoArgs, q: IndexQuery, sets = venueSetsOf) => {
    const { distances, ...venues } = sets(a, pointOf(a), catalog);
    return index.query({ ...q, ...venues, nearest: a.orderby === 'distance' ? distances : undefined });
  };
  const viaScan = (a: GeoArgs, q: IndexQuery) => near(a, q, (x) => scanned(x, catalog));
  // Each query object carries its arguments for `near` (made by `make`, read by `run`).
  const rows: [string, (i: number) => [GeoArgs, IndexQuery], boolean?][] = [
    ['default list, no geolocation (the yardstick)', (i) => [{}, base(i)]],
    ['within 25 km', (i) => [argsOf(i), base(i)], true],
    ['within 25 km + category', (i) => [argsOf(i), base(i, { categories: [1 + (i % 30)] })]],
    [
      'within 25 km + search, common word',
      (i) => [argsOf(i), base(i, { search: ['music', 'night', 'live'][i % 3] })],
    ],
    ['within 25 km, orderby=distance', (i) => [argsOf(i, { orderby: 'distance' }), base(i)], true],
    [
      'within 25 km + category, orderby=distance',
      (i) => [argsOf(i, { orderby: 'distance' }), base(i, { categories: [1 + (i % 30)] })],
    ],
    [
      'within 500 km, orderby=distance',
      (i) => [argsOf(i, { orderby: 'distance', geoloc_radius: 500 }), base(i)],
    ],
    ['geoloc=true (any venue with coordinates)', (i) => [{ geoloc: true }, base(i)]],
    ['geoloc=false (no venue with coordinates)', (i) => [{ geoloc: false }, base(i)]],
  ];
  const row: Record<string, string> = {};
  const label = `${EVENTS / 1000}k events, ${VENUES / 1000}k venues`;
  for (const [name, make, reference] of rows) {
    const made = new Map<IndexQuery, GeoArgs>();
    const mk = (i: number) => {
      const [a, q] = make(i);
      made.set(q, a);
      return q;
    };
    const grid = time((q) => near(made.get(q) as GeoArgs, q), mk);
    const cpu = cpuMean((q) => near(made.get(q) as GeoArgs, q), mk);
    row[`near me (${label}): ${name}, p50 / p99 (ms) / main-thread CPU a query, mean (ms)`] =
      `${pair(grid)} / ${cpu.toFixed(3)}`;
    if (reference) {
      const scan = time((q) => viaScan(made.get(q) as GeoArgs, q), mk);
      row[`near me: ${name}, venues found by measuring every venue, p50 / p99 (ms)`] =
        `${pair(scan)} (grid ${(scan[0] / grid[0]).toFixed(1)}× faster at p50)`;
    }
  }
  return row;
}
