// Great-circle distance on a spherical Earth (haversine), and the checks a coordinate pair must pass.

/** The mean Earth radius in km (IUGG), the sphere distances are measured on. */
export const EARTH_RADIUS_KM = 6371.0088;

const RAD = Math.PI / 180;

/**
 * The great-circle distance in km between two points given in degrees. The haversine form stays exact for short
 * distances; longitudes are compared through their sine, so -179.9 and 179.9 are 0.2° apart (the antimeridian), and
 * at a pole every longitude is the same point. The clamp keeps rounding from taking `asin` past 1 (antipodes).
 */
export function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLng = (lng2 - lng1) * RAD;
  const s = Math.sin(dLat / 2);
  const t = Math.sin(dLng / 2);
  const h = s * s + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * t * t;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A distance as answers carry it: km to the metre. */
export const roundKm = (km: number): number => Math.round(km * 1000) / 1000;

export const LAT_RANGE = [-90, 90] as const;
export const LNG_RANGE = [-180, 180] as const;

/** A latitude or longitude as sent (a number or its text): the number, or null when it is neither. */
export function coordinateOf(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return null;
  const s = v.trim();
  if (!/^-?\d+(\.\d+)?$/.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

export const validLat = (n: number): boolean => n >= LAT_RANGE[0] && n <= LAT_RANGE[1];
export const validLng = (n: number): boolean => n >= LNG_RANGE[0] && n <= LNG_RANGE[1];
