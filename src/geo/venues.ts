// The geolocation filters of GET /venues: on the venues' own coordinates, as the caller may see them.
import type { LinkedFacets } from '../linked/catalog.ts';
import { roundKm } from './distance.ts';
import { type GeoArgs, geoEcho, gridOf, pointOf } from './near.ts';

export type { GeoArgs } from './near.ts';

export interface VenuesNear {
  /** Only these venues (a point's, or those with coordinates); absent: no such limit. */
  only?: Set<number>;
  /** None of these (`geoloc=false`: those with coordinates). */
  exclude?: Set<number>;
  distances: ReadonlyMap<number, number>;
  byDistance: boolean;
  echo: Record<string, unknown>;
}

/**
 * The venues the arguments keep. A protected venue's coordinates are blanked with its address for whoever does not
 * see it in full, so they place it only for who does (`seesInFull`: its editors); for others it has none.
 */
export function venuesNear(
  a: GeoArgs,
  catalog: ReadonlyMap<number, LinkedFacets>,
  seesInFull: (v: LinkedFacets) => boolean,
): VenuesNear | undefined {
  const point = pointOf(a);
  if (!point && a.geoloc === undefined) return undefined;
  const placed = (v: LinkedFacets | undefined) => !!v?.point && (!v.protected || seesInFull(v));
  const echo = geoEcho(a, point);
  const distances = new Map<number, number>();
  if (point) {
    for (const h of gridOf(catalog).within(point.lat, point.lng, point.radiusKm))
      if (placed(catalog.get(h.id))) distances.set(h.id, roundKm(h.km));
    return { only: new Set(distances.keys()), distances, byDistance: point.byDistance, echo };
  }
  const withPoint = new Set<number>();
  for (const id of gridOf(catalog).ids()) if (placed(catalog.get(id))) withPoint.add(id);
  return a.geoloc
    ? { only: withPoint, distances, byDistance: false, echo }
    : { exclude: withPoint, distances, byDistance: false, echo };
}

/** Nearest first; venues at the same distance keep their order (newest first). */
export function byDistance(items: LinkedFacets[], distances: ReadonlyMap<number, number>): LinkedFacets[] {
  const km = (x: LinkedFacets) => distances.get(x.id) ?? Number.POSITIVE_INFINITY;
  return items
    .map((x, i) => ({ x, i }))
    .sort((p, q) => km(p.x) - km(q.x) || p.i - q.i)
    .map((p) => p.x);
}
