// The field descriptors' vocabulary: FieldDef, the field() builder and the fields every record kind shares.
//
//
// A field says its response key and JSON type, its description (en/es, for the argument and the response alike),
// what a password-protected record shows instead (§8), whether the site's mapping stores it under the same name,
// and its write argument. From these lists come the write arguments of the contract, the mapping's optional fields,
// the serializer's key order and plain values, the password blanking and /doc's record schemas.
import { z } from 'zod';
import {
  ACCEPTS,
  type ArgDef,
  anyString,
  boolean,
  type Described,
  integer,
  looseBool,
  nonEmptyString,
  timeValue,
  WHY,
} from '../args.ts';
import { IMAGE_ACCEPTS, postStatus } from '../common.ts';

export type JsonSchema = Record<string, unknown>;

export interface FieldDef<K extends string = string, T = unknown> {
  /** The response key (TEC's name); the field's place in its list is its place in the record. */
  key: K;
  /** What the field is: the argument's description and the response property's, in English and Spanish. */
  about: Described;
  /** The response JSON schema /doc shows (without the description). */
  type: JsonSchema;
  /** What a password-protected record shows instead (TEC's `PASSWORD_PROTECTED_FIELDS`); absent: always shown. */
  blank?: unknown;
  /**
   * A mapping field of the same name stores it, and unless the serializer works the value out it is sent as stored.
   * The mapping requires the fields every post has (src/mapping/schema.ts); the others are optional there.
   */
  stored?: true;
  /** The write argument (create and update); its description is `about`. */
  arg?: ArgDef<T>;
  /** What the argument adds on create (required, a default). */
  onCreate?: Partial<ArgDef>;
  /**
   * The write handler works the stored value out from the argument (a status scaled, dates normalised, an image
   * uploaded, linked records and terms resolved, a slug only when sent). Without it the argument is stored as sent.
   */
  byHandler?: true;
  /** Sent in single reads only (`json_ld`). */
  singleOnly?: true;
  /** Kept when empty where the record drops empty values (venue and organizer records, PHP's `array_filter`). */
  keepEmpty?: true;
  /** Sent only when the request asks for it (`distance_km`, given a point to measure from). */
  sometimes?: true;
}

/** A write argument before it takes the field's description. */
export type Arg<T> = Omit<ArgDef<T>, 'description'>;

/** A field; given `arg`, it is also a write argument described by `about`. Its key and `stored` stay in its type. */
export function field<const K extends string, T, S extends true | undefined = undefined>(
  d: Omit<FieldDef<K>, 'arg' | 'stored'> & { arg: Arg<T>; stored?: S },
): FieldDef<K, T> & { arg: ArgDef<T>; stored: S };
export function field<const K extends string, S extends true | undefined = undefined>(
  d: Omit<FieldDef<K>, 'arg' | 'stored'> & { stored?: S },
): FieldDef<K> & { arg?: undefined; stored: S };
export function field(d: Omit<FieldDef, 'arg'> & { arg?: Arg<unknown> }): FieldDef {
  return d.arg ? { ...d, arg: { ...d.arg, description: d.about } } : (d as FieldDef);
}

export interface RecordDescriptor<F extends readonly FieldDef[] = readonly FieldDef[]> {
  kind: 'event' | 'venue' | 'organizer' | 'categories' | 'tags';
  /** The /doc component name. */
  component: string;
  fields: F;
  /** PHP's `array_filter` over the record (venues and organizers): empty values are left out. */
  dropEmpty: boolean;
  /** The keys the gateway adds to TEC's shape, all after TEC's own (built by `tecRecord`, records/tec-order.ts). */
  added: readonly string[];
}

export const s = { type: 'string' };
export const b = { type: 'boolean' };
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
export const strings = { type: 'array', items: { type: 'string' } };
export const imageOrFalse = { oneOf: [ref('Image'), { type: 'boolean', enum: [false] }] };

export type Noun = { en: string; es: string };
export const EVENT: Noun = { en: 'event', es: 'evento' };
export const VENUE: Noun = { en: 'venue', es: 'lugar' };
export const ORGANIZER: Noun = { en: 'organizer', es: 'organizador' };

export const text: Arg<string> = { type: 'string', in: 'body', schema: nonEmptyString };
/** A text that may be emptied: any string (an empty one clears the stored value). */
export const clearable: Arg<string> = {
  type: 'string',
  in: 'body',
  accepts: ACCEPTS.text,
  schema: anyString,
};
/** A venue flag: TEC reads any value as truthy or not. */
export const flag: Arg<boolean> = {
  type: 'boolean',
  in: 'body',
  accepts: ACCEPTS.looseBoolean,
  schema: looseBool,
};
/** An event flag: WordPress's boolean (`rest_sanitize_boolean`); anything else is refused. */
export const strictFlag = (name: string): Arg<boolean> => ({
  type: 'boolean',
  in: 'body',
  accepts: ACCEPTS.boolean,
  schema: boolean(name),
});
export const time: Arg<string> = {
  type: 'string',
  in: 'body',
  accepts: ACCEPTS.text,
  schema: timeValue,
  format: 'time',
};
export const url: Arg<string> = {
  type: 'string',
  in: 'body',
  schema: anyString.refine((v) => v === '' || URL.canParse(v), WHY.url),
};
/** Any JSON value: the handler reads it (nested venues and organizers). */
export const anyValue: z.ZodType<unknown> = z.unknown();

export const id = (n: Noun) =>
  field({ key: 'id', about: { en: `The ${n.en} id.`, es: `El id del ${n.es}.` }, type: { type: 'integer' } });

export const globalIds = [
  field({
    key: 'global_id',
    about: {
      en: 'A site-unique id: `{host}{path}?id={id}`.',
      es: 'Un id único del sitio: `{host}{path}?id={id}`.',
    },
    type: s,
  }),
  field({
    key: 'global_id_lineage',
    about: { en: 'The global ids this record comes from.', es: 'Los ids globales de los que procede.' },
    type: strings,
  }),
] as const;

/** The post fields every record has after its id, in TEC's order. */
export const postHead = [
  field({
    key: 'author',
    about: {
      en: 'The author id (a numeric string in answers).',
      es: 'El id del autor (texto numérico en las respuestas).',
    },
    type: s,
    arg: { type: 'integer', in: 'body', accepts: ACCEPTS.id, schema: integer('author') },
  }),
  field({
    key: 'status',
    about: postStatus.description,
    type: s,
    arg: { ...postStatus, example: 'publish' },
    byHandler: true,
  }),
  field({
    key: 'date',
    about: {
      en: 'The publication date, site time (Y-m-d H:i:s; a write accepts what strtotime reads).',
      es: 'La fecha de publicación, hora del sitio (Y-m-d H:i:s; al escribir, lo que lee strtotime).',
    },
    type: s,
    arg: time,
    byHandler: true,
  }),
  field({
    key: 'date_utc',
    about: { en: 'The publication date in UTC.', es: 'La fecha de publicación en UTC.' },
    type: s,
    arg: time,
    byHandler: true,
  }),
  field({
    key: 'modified',
    about: { en: 'Last modification, site time.', es: 'Última modificación, hora del sitio.' },
    type: s,
  }),
  field({
    key: 'modified_utc',
    about: { en: 'Last modification, UTC.', es: 'Última modificación, UTC.' },
    type: s,
  }),
  field({ key: 'url', about: { en: 'The permalink.', es: 'El enlace permanente.' }, type: s }),
] as const;

export const named = <const K extends string>(key: K, en: string, es: string, example: string) =>
  field({ key, about: { en, es }, type: s, arg: { ...text, example }, onCreate: { required: true } });
export const description = (n: Noun, example: string) =>
  field({
    key: 'description',
    about: { en: `The ${n.en} description (HTML).`, es: `La descripción del ${n.es} (HTML).` },
    type: s,
    blank: '',
    arg: { ...text, example },
  });
export const excerptAbout = (n: Noun) => ({
  en: `The ${n.en} excerpt (HTML).`,
  es: `El extracto del ${n.es} (HTML).`,
});
export const slugAbout = (n: Noun) => ({ en: `The ${n.en} slug.`, es: `El slug del ${n.es}.` });
export const image = (en: string, es: string) =>
  field({
    key: 'image',
    about: {
      en: `${en}: an attachment id, an image URL to upload (users who may upload files), or empty to remove it.`,
      es: `${es}: un id de adjunto, una URL de imagen para subir (usuarios que pueden subir archivos), o vacío para quitarla.`,
    },
    type: imageOrFalse,
    blank: false,
    arg: { type: 'string', in: 'body', accepts: IMAGE_ACCEPTS, schema: anyString, format: 'image' },
    byHandler: true,
  });
export const website = (n: Noun, example: string) =>
  field({
    key: 'website',
    about: { en: `The ${n.en} website URL.`, es: `La URL del sitio web del ${n.es}.` },
    type: s,
    blank: '',
    stored: true,
    arg: { ...url, example },
  });
/** A stored text that may be emptied (`example`: what /doc's example body sends, if anything). */
export const line = <const K extends string>(key: K, en: string, es: string, example?: string) =>
  field({
    key,
    about: { en, es },
    type: s,
    blank: '',
    stored: true,
    arg: example === undefined ? clearable : { ...clearable, example },
  });
/** The map flags: a venue's kept when false and read loosely, an event's checked as booleans. */
export const showMap = (of: 'venue' | 'event') => {
  const one = <const K extends string>(key: K, en: string, es: string) =>
    field({
      key,
      about: { en, es },
      type: b,
      blank: null,
      stored: true,
      ...(of === 'venue' ? { keepEmpty: true as const } : {}),
      arg: { ...(of === 'venue' ? flag : strictFlag(key)), example: true },
    });
  return [
    one('show_map', 'Whether to show a map.', 'Si se muestra un mapa.'),
    one('show_map_link', 'Whether to show a link to the map.', 'Si se muestra un enlace al mapa.'),
  ] as const;
};
export const jsonLd = (type: string) =>
  field({
    key: 'json_ld',
    about: {
      en: `schema.org ${type} (single reads only).`,
      es: `${type} de schema.org (solo en lecturas de uno).`,
    },
    type: { type: 'object' },
    singleOnly: true,
  });
/** How far the record is from the point a list was asked about (`geoloc_lat`, `geoloc_lng`); only then sent. */
export const distanceKm = (of: 'event' | 'venue') =>
  field({
    key: 'distance_km',
    about:
      of === 'event'
        ? {
            en: "The great-circle distance in km from the list's geoloc_lat and geoloc_lng to the event's venue (to the metre); sent only when they are given.",
            es: 'La distancia ortodrómica en km desde geoloc_lat y geoloc_lng de la lista hasta el lugar del evento (al metro); solo se envía cuando se dan.',
          }
        : {
            en: "The great-circle distance in km from the list's geoloc_lat and geoloc_lng to the venue (to the metre); sent only when they are given.",
            es: 'La distancia ortodrómica en km desde geoloc_lat y geoloc_lng de la lista hasta el lugar (al metro); solo se envía cuando se dan.',
          },
    type: { type: 'number' },
    sometimes: true,
  });
