// The geolocation filters of a list worked out once: the arguments checked together, the venues a point reaches.
import { invalidParams } from '../http/errors.ts';
import type { LinkedFacets } from '../linked/catalog.ts';
import { DEFAULT_RADIUS_KM } from './args.ts';
import { roundKm } from './distance.ts';
import { type GeoPoint, VenueGrid } from './grid.ts';

export interface GeoArgs {
  geoloc?: boolean;
  geoloc_lat?: number;
  geoloc_lng?: number;
  geoloc_radius?: number;
  orderby?: 'distance';
}

/** A point query: where from, how far, and whether the list is ordered by distance. */
export interface Point {
  lat: number;
  lng: number;
  radiusKm: number;
  byDistance: boolean;
}

/**
 * The point the arguments give, or null; 400 `rest_invalid_param` when they do not go together: a latitude without a
 * longitude (naming the missing one), `orderby=distance` without a point, or `geoloc=false` with one. A radius
 * without a point (it has a default) does nothing.
 */
export function pointOf(a: GeoArgs): Point | null {
  const { geoloc_lat: lat, geoloc_lng: lng } = a;
  if (lat !== undefined && lng === undefined)
    throw invalidParams({ geoloc_lng: 'geoloc_lng is required with geoloc_lat.' });
  if (lng !== undefined && lat === undefined)
    throw invalidParams({ geoloc_lat: 'geoloc_lat is required with geoloc_lng.' });
  if (lat === undefined || lng === undefined) {
    if (a.orderby === 'distance')
      throw invalidParams({ orderby: 'orderby=distance needs a point: geoloc_lat and geoloc_lng.' });
    return null;
  }
  if (a.geoloc === false)
    throw invalidParams({ geoloc: 'geoloc=false (venues without coordinates) cannot be near a point.' });
  return { lat, lng, radiusKm: a.geoloc_radius ?? DEFAULT_RADIUS_KM, byDistance: a.orderby === 'distance' };
}

/** What `rest_url` and the page links echo of the geolocation arguments. */
export function geoEcho(a: GeoArgs, point: Point | null): Record<string, unknown> {
  return {
    geoloc: a.geoloc === undefined ? undefined : a.geoloc ? 1 : 0,
    geoloc_lat: point?.lat,
    geoloc_lng: point?.lng,
    geoloc_radius: point?.radiusKm,
    orderby: a.orderby,
  };
}

const GRIDS = new WeakMap<ReadonlyMap<number, LinkedFacets>, VenueGrid>();

/**
 * The grid over a venue catalog's coordinates (every status: who may see which is the caller's to decide), built once
 * per catalog version (the catalog is a new map whenever a venue changes: src/linked/catalog.ts).
 */
export function gridOf(catalog: ReadonlyMap<number, LinkedFacets>): VenueGrid {
  let grid = GRIDS.get(catalog);
  if (!grid) {
    const points: GeoPoint[] = [];
    for (const v of catalog.values())
      if (v.point) points.push({ id: v.id, lat: v.point.lat, lng: v.point.lng });
    grid = new VenueGrid(points);
    GRIDS.set(catalog, grid);
  }
  return grid;
}

/**
 * Whether an event filter may read a venue's coordinates: a published venue without a password, as Events Calendar
 * Pro's geofence reads only published venues. An event's reader may not be able to read its venue's draft, and a
 * protected venue's coordinates are blanked with its address, so neither may place an event.
 */
export const placesEvents = (v: LinkedFacets | undefined): boolean =>
  v !== undefined && v.status === 'publish' && !v.protected && !!v.point;

/** The event side of the filters: which venues an event must (or must not) be at, and each one's distance. */
export interface VenueSets {
  venueIn?: ReadonlySet<number>;
  venueNotIn?: ReadonlySet<number>;
  /** With a point: each venue within reach, with its distance in km (rounded to the metre). */
  distances?: ReadonlyMap<number, number>;
}

/** A point's answer: the point, and each venue in reach with its distance in km. */
export interface Near extends Point {
  distances: ReadonlyMap<number, number>;
}

export function venueSetsOf(
  a: GeoArgs,
  point: Point | null,
  catalog: ReadonlyMap<number, LinkedFacets>,
): VenueSets {
  if (point) {
    const distances = new Map<number, number>();
    for (const h of gridOf(catalog).within(point.lat, point.lng, point.radiusKm))
      if (placesEvents(catalog.get(h.id))) distances.set(h.id, roundKm(h.km));
    return { venueIn: new Set(distances.keys()), distances };
  }
  if (a.geoloc === undefined) return {};
  const placed = placedOf(catalog);
  return a.geoloc ? { venueIn: placed } : { venueNotIn: placed };
}

const PLACED = new WeakMap<ReadonlyMap<number, LinkedFacets>, ReadonlySet<number>>();

/**
 * The venues that place events ({@link placesEvents}), one set per catalog version: the event index keeps a bit per
 * row for a set this large, by the set (src/index/columns/near.ts), so `geoloc=true` and `false` reuse it.
 */
function placedOf(catalog: ReadonlyMap<number, LinkedFacets>): ReadonlySet<number> {
  let placed = PLACED.get(catalog);
  if (!placed) {
    const ids = new Set<number>();
    for (const id of gridOf(catalog).ids()) if (placesEvents(catalog.get(id))) ids.add(id);
    placed = ids;
    PLACED.set(catalog, placed);
  }
  return placed;
}
