// The geolocation arguments of the lists (/events, /events.ics, /venues) and the venue write's coordinates.
import { z } from 'zod';
import type { ArgDef } from '../contract/args.ts';
import { bool } from '../contract/common.ts';
import { coordinateOf, validLat, validLng } from './distance.ts';

/** The radius a point query takes when none is given, and the largest it takes (km). */
export const DEFAULT_RADIUS_KM = 25;
export const MAX_RADIUS_KM = 500;

export const GEO_WHY = {
  lat: 'must be a latitude: a number from -90 to 90.',
  lng: 'must be a longitude: a number from -180 to 180.',
  radius: `must be a distance in km greater than 0 and at most ${MAX_RADIUS_KM}.`,
  orderby: 'must be distance.',
} as const;

/** A number within a range, sent as a number or its decimal text. */
const ranged = (ok: (n: number) => boolean, why: string) =>
  z.unknown().transform((v, ctx) => {
    const n = coordinateOf(v);
    if (n === null || !ok(n)) {
      ctx.addIssue({ code: 'custom', message: why });
      return z.NEVER;
    }
    return n;
  });

const latitude = ranged(validLat, GEO_WHY.lat);
const longitude = ranged(validLng, GEO_WHY.lng);

/** A query number as /doc shows it: a number within the range (a query value is its text). */
const numberIn = (minimum: number, maximum: number) => ({ type: 'number', minimum, maximum });

/** The list arguments; `what` names the records filtered (events by their venue, or venues). */
export const geoListArgs = (what: { en: string; es: string; byVenue: boolean }) => {
  const whose = what.byVenue
    ? { en: `${what.en} whose venue`, es: `${what.es} cuyo lugar` }
    : { en: what.en, es: what.es };
  return {
    geoloc: bool(
      'geoloc',
      `True: only ${whose.en} has coordinates (geo_lat and geo_lng); false: only ${whose.en} has none${what.byVenue ? ' (or that have no venue)' : ''}.`,
      `True: solo ${whose.es} tiene coordenadas (geo_lat y geo_lng); false: solo ${whose.es} no las tiene${what.byVenue ? ' (o sin lugar)' : ''}.`,
    ),
    geoloc_lat: {
      type: 'number',
      in: 'query',
      description: {
        en: `The latitude of a point (with geoloc_lng): only ${whose.en} is within geoloc_radius of it, each with its distance_km.`,
        es: `La latitud de un punto (con geoloc_lng): solo ${whose.es} está a geoloc_radius como mucho, cada uno con su distance_km.`,
      },
      accepts: numberIn(-90, 90),
      schema: latitude,
    } satisfies ArgDef<number>,
    geoloc_lng: {
      type: 'number',
      in: 'query',
      description: {
        en: 'The longitude of the point (with geoloc_lat).',
        es: 'La longitud del punto (con geoloc_lat).',
      },
      accepts: numberIn(-180, 180),
      schema: longitude,
    } satisfies ArgDef<number>,
    geoloc_radius: {
      type: 'number',
      in: 'query',
      default: DEFAULT_RADIUS_KM,
      description: {
        en: `The distance from the point, in km (great-circle), at most ${MAX_RADIUS_KM}; only with geoloc_lat and geoloc_lng.`,
        es: `La distancia al punto, en km (ortodrómica), como mucho ${MAX_RADIUS_KM}; solo con geoloc_lat y geoloc_lng.`,
      },
      accepts: numberIn(0, MAX_RADIUS_KM),
      schema: ranged((n) => n > 0 && n <= MAX_RADIUS_KM, GEO_WHY.radius),
    } satisfies ArgDef<number>,
    orderby: {
      type: 'string',
      in: 'query',
      enum: ['distance'],
      description: {
        en: 'distance: nearest first (then by start); only with geoloc_lat and geoloc_lng.',
        es: 'distance: los más cercanos primero (después por inicio); solo con geoloc_lat y geoloc_lng.',
      },
      schema: z.unknown().transform((v, ctx) => {
        if (v !== 'distance') {
          ctx.addIssue({ code: 'custom', message: GEO_WHY.orderby });
          return z.NEVER;
        }
        return 'distance' as const;
      }),
    } satisfies ArgDef<'distance'>,
  };
};

/** A coordinate of a venue write: a number in range, or empty text to clear it (null is read as not sent). */
const clearable = (ok: (n: number) => boolean, why: string) =>
  z.unknown().transform((v, ctx): number | null => {
    if (v === null || (typeof v === 'string' && v.trim() === '')) return null;
    const n = coordinateOf(v);
    if (n === null || !ok(n)) {
      ctx.addIssue({ code: 'custom', message: why });
      return z.NEVER;
    }
    return n;
  });

/** What /doc shows a coordinate of a write takes: a number in range, its text, or '' to clear it. */
const coordinateAccepts = (minimum: number, maximum: number) => ({
  anyOf: [{ type: 'number', minimum, maximum, nullable: true }, { type: 'string' }],
});

export const latitudeArg = {
  type: 'number',
  in: 'body',
  accepts: coordinateAccepts(-90, 90),
  schema: clearable(validLat, GEO_WHY.lat),
} as const;
export const longitudeArg = {
  type: 'number',
  in: 'body',
  accepts: coordinateAccepts(-180, 180),
  schema: clearable(validLng, GEO_WHY.lng),
} as const;
