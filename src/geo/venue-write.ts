// A venue write's coordinates: both or neither, each in range (src/geo/args.ts parsed them), as the mapping stores them.
import { invalidParams } from '../http/errors.ts';

/**
 * The coordinates a venue write stores: none when neither was sent; both numbers, or both empty (`''`) to clear them
 * (the parser drops a JSON null, as WordPress does: not sent). One without the other is a 400 `rest_invalid_param`
 * naming the one missing, as a pair of one number and one empty names the empty one.
 */
export function coordinatesSent(a: Record<string, unknown>): {
  geo_lat?: number | null;
  geo_lng?: number | null;
} {
  const lat = a.geo_lat as number | null | undefined;
  const lng = a.geo_lng as number | null | undefined;
  if (lat === undefined && lng === undefined) return {};
  if (lat === undefined || lng === undefined) {
    const [missing, sent] = lat === undefined ? ['geo_lat', 'geo_lng'] : ['geo_lng', 'geo_lat'];
    throw invalidParams({ [missing]: `${missing} must be sent with ${sent}: both or neither.` });
  }
  if ((lat === null) !== (lng === null)) {
    const [empty, set] = lat === null ? ['geo_lat', 'geo_lng'] : ['geo_lng', 'geo_lat'];
    throw invalidParams({ [empty]: `${empty} must be set with ${set}: both or neither ('' clears both).` });
  }
  return { geo_lat: lat, geo_lng: lng };
}
