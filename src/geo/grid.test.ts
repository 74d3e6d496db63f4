// The grid against a brute-force reference: random venues and random points and radii, the antimeridian and the poles.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distanceKm } from './distance.ts';
import { type GeoPoint, VenueGrid } from './grid.ts';

const seed = process.env.GEO_SEED === 'random' ? undefined : Number(process.env.GEO_SEED ?? 35);
const numRuns = Number(process.env.GEO_RUNS ?? 200);

/** Latitudes anywhere, with extra weight near the poles and the equator; longitudes likewise near ±180 and 0. */
const lat = fc.oneof(
  fc.double({ min: -90, max: 90, noNaN: true }),
  fc.double({ min: 85, max: 90, noNaN: true }),
  fc.double({ min: -90, max: -85, noNaN: true }),
  fc.constantFrom(90, -90, 0),
);
const lng = fc.oneof(
  fc.double({ min: -180, max: 180, noNaN: true }),
  fc.double({ min: 178, max: 180, noNaN: true }),
  fc.double({ min: -180, max: -178, noNaN: true }),
  fc.constantFrom(180, -180, 0),
);
const radius = fc.oneof(
  fc.double({ min: 0, max: 500, noNaN: true }),
  fc.constantFrom(0, 25, 500, 20_000, 25_000),
);

/** Venues around the query point too (so radii find some), and scattered ones. */
const scene = fc
  .record({
    lat,
    lng,
    radius,
    near: fc.array(
      fc.tuple(fc.double({ min: -6, max: 6, noNaN: true }), fc.double({ min: -6, max: 6, noNaN: true })),
      { maxLength: 60 },
    ),
    far: fc.array(fc.tuple(lat, lng), { maxLength: 40 }),
  })
  .map(({ lat, lng, radius, near, far }) => {
    const clampLat = (v: number) => Math.max(-90, Math.min(90, v));
    const wrapLng = (v: number) => ((((v + 180) % 360) + 360) % 360) - 180;
    const points: GeoPoint[] = [
      ...near.map(([a, b], i) => ({ id: i + 1, lat: clampLat(lat + a), lng: wrapLng(lng + b) })),
      ...far.map(([a, b], i) => ({ id: 1000 + i, lat: a, lng: b })),
    ];
    return { lat, lng, radius, points };
  });

const brute = (points: GeoPoint[], lat: number, lng: number, r: number) =>
  points
    .filter((p) => distanceKm(lat, lng, p.lat, p.lng) <= r)
    .map((p) => p.id)
    .sort((a, b) => a - b);

describe('distanceKm', () => {
  it('measures known distances', () => {
    // Paris (Notre-Dame) to London (Trafalgar Square): 343.5 km on the sphere.
    expect(distanceKm(48.853, 2.3499, 51.508, -0.128)).toBeCloseTo(343.5, 0);
    // A quarter of the equator, and pole to pole.
    expect(distanceKm(0, 0, 0, 90)).toBeCloseTo(10_007.5, 0);
    expect(distanceKm(90, 0, -90, 0)).toBeCloseTo(20_015.1, 0);
  });

  it('crosses the antimeridian the short way', () => {
    // Fiji's Taveuni straddles 180°: 0.2° of longitude at 16.8° S is about 21 km, not 21,000.
    const km = distanceKm(-16.8, 179.9, -16.8, -179.9);
    expect(km).toBeGreaterThan(21);
    expect(km).toBeLessThan(22);
    expect(distanceKm(0, 180, 0, -180)).toBeCloseTo(0, 9);
  });

  it('takes every longitude at a pole as one point', () => {
    expect(distanceKm(90, 0, 90, 123)).toBeCloseTo(0, 9);
    expect(distanceKm(89.9, 0, 89.9, 180)).toBeCloseTo(22.24, 1);
  });
});

describe('VenueGrid.within', () => {
  it('finds what a scan of every venue finds', () => {
    fc.assert(
      fc.property(scene, ({ lat, lng, radius, points }) => {
        const grid = new VenueGrid(points);
        const got = grid.within(lat, lng, radius);
        expect(got.map((h) => h.id).sort((a, b) => a - b)).toEqual(brute(points, lat, lng, radius));
        for (const h of got)
          expect(h.km).toBe(distanceKm(lat, lng, grid.get(h.id)!.lat, grid.get(h.id)!.lng));
      }),
      { seed, numRuns },
    );
  });

  it('finds venues across the antimeridian and around a pole', () => {
    const grid = new VenueGrid([
      { id: 1, lat: -16.8, lng: -179.95 },
      { id: 2, lat: -16.8, lng: 179.95 },
      { id: 3, lat: 89.95, lng: 10 },
      { id: 4, lat: 89.95, lng: -170 },
      { id: 5, lat: 0, lng: 0 },
    ]);
    expect(
      grid
        .within(-16.8, 179.99, 25)
        .map((h) => h.id)
        .sort(),
    ).toEqual([1, 2]);
    expect(
      grid
        .within(90, 0, 25)
        .map((h) => h.id)
        .sort(),
    ).toEqual([3, 4]);
    expect(
      grid
        .within(89.95, 100, 12)
        .map((h) => h.id)
        .sort(),
    ).toEqual([3, 4]);
  });
});
