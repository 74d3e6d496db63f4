// A grid of cells over the venues' coordinates: the venues within a radius of a point, without reading every venue.
//
// Cells are CELL_DEG degrees of latitude by as many of longitude. A query reads the rows of cells its latitude band
// covers and, in each, the columns of its longitude span (wrapping at the antimeridian); a band that reaches a pole,
// or a circle wide enough at its latitude to hold one, reads whole rows. Each venue found is then measured exactly
// (src/geo/distance.ts), so the cells only have to hold every venue that may be inside, never decide.
import { distanceKm, EARTH_RADIUS_KM } from './distance.ts';

/** Degrees per cell side: a 25 km query reads 2–3 rows of 2–4 cells; a 500 km one, about 20 × 20 at mid latitudes. */
const CELL_DEG = 0.5;
const COLS = 360 / CELL_DEG;
const DEG = 180 / Math.PI;

export interface GeoPoint {
  id: number;
  lat: number;
  lng: number;
}

export interface Hit {
  id: number;
  km: number;
}

const rowOf = (lat: number): number => Math.min(Math.floor((lat + 90) / CELL_DEG), 180 / CELL_DEG - 1);
const colOf = (lng: number): number => {
  const c = Math.floor(((((lng + 180) % 360) + 360) % 360) / CELL_DEG);
  return c >= COLS ? 0 : c;
};

/** Venues in cells: rows of latitude, each a map of its non-empty columns. Built once, read by any number of queries. */
export class VenueGrid {
  readonly #rows = new Map<number, Map<number, GeoPoint[]>>();
  readonly #points = new Map<number, GeoPoint>();

  constructor(points: Iterable<GeoPoint>) {
    for (const p of points) {
      this.#points.set(p.id, p);
      let row = this.#rows.get(rowOf(p.lat));
      if (!row) {
        row = new Map();
        this.#rows.set(rowOf(p.lat), row);
      }
      const col = colOf(p.lng);
      const cell = row.get(col);
      if (cell) cell.push(p);
      else row.set(col, [p]);
    }
  }

  get size(): number {
    return this.#points.size;
  }

  /** The point of a venue, if it has one. */
  get(id: number): GeoPoint | undefined {
    return this.#points.get(id);
  }

  /** Every venue held. */
  ids(): IterableIterator<number> {
    return this.#points.keys();
  }

  /** The venues within `radiusKm` of the point (inclusive), with their distance; in no particular order. */
  within(lat: number, lng: number, radiusKm: number): Hit[] {
    const out: Hit[] = [];
    const angle = radiusKm / EARTH_RADIUS_KM;
    if (angle >= Math.PI) {
      for (const p of this.#points.values()) out.push({ id: p.id, km: distanceKm(lat, lng, p.lat, p.lng) });
      return out;
    }
    const dLat = angle * DEG;
    const south = lat - dLat;
    const north = lat + dLat;
    // The widest longitude the circle reaches at any latitude: asin(sin(angle) / cos(lat)), unless it holds a pole.
    const ratio = Math.sin(angle) / Math.cos(lat / DEG);
    const everyLng = south <= -90 || north >= 90 || !(ratio < 1);
    const dLng = everyLng ? 180 : Math.asin(ratio) * DEG;
    const cols = everyLng
      ? COLS
      : Math.floor((lng + dLng + 180) / CELL_DEG) - Math.floor((lng - dLng + 180) / CELL_DEG) + 1;
    const first = colOf(lng - dLng);
    for (let r = rowOf(Math.max(-90, south)); r <= rowOf(Math.min(90, north)); r++) {
      const row = this.#rows.get(r);
      if (!row) continue;
      const take = (cell: GeoPoint[]) => {
        for (const p of cell) {
          const km = distanceKm(lat, lng, p.lat, p.lng);
          if (km <= radiusKm) out.push({ id: p.id, km });
        }
      };
      if (cols >= COLS || cols >= row.size) {
        // Reading the row's cells is cheaper than looking up every column of the span.
        const from = first;
        for (const [c, cell] of row) if (cols >= COLS || (c - from + COLS) % COLS < cols) take(cell);
      } else {
        for (let k = 0; k < cols; k++) {
          const cell = row.get((first + k) % COLS);
          if (cell) take(cell);
        }
      }
    }
    return out;
  }
}
