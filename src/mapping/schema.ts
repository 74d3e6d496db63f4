// The declarative mapping format: which wp/v2 post field, meta key or taxonomy backs each calendar field.
import { z } from 'zod';
import { eventRecord, organizerRecord, type RecordDescriptor, venueRecord } from '../contract/records.ts';

/**
 * How a stored value is written in WordPress and read back into the calendar record.
 * - `string`: kept as is.                          - `datetime`: `Y-m-d H:i:s` wall clock.
 * - `int`: a numeric id or number.                 - `int-list`: several ids (one meta row each).
 * - `yes-flag`: `'yes'` when true, absent when false (TEC's `_EventAllDay`, `_EventHideFromUpcoming`).
 * - `one-flag`: `'1'` when true, absent when false (TEC's `_tribe_featured`).
 * - `bool`: `'1'`/`''` (or a REST boolean); `default` applies when the row is absent (TEC's `_EventShowMap`).
 * - `string-list`: several string rows (TEC's `_EventCost`).
 * - `decimal`: a number as its decimal text (Events Calendar Pro's `_VenueLat`, `_VenueLng`: `(string) (float)`);
 *   absent, empty or not a number reads as not set.
 */
export const storageFormat = z.enum([
  'string',
  'datetime',
  'int',
  'int-list',
  'yes-flag',
  'one-flag',
  'bool',
  'string-list',
  'decimal',
]);
export type StorageFormat = z.infer<typeof storageFormat>;

/** Core post fields that wp/v2 exposes (rendered/raw objects are unwrapped by the codec). */
export const postField = z.enum([
  'title',
  'content',
  'excerpt',
  'slug',
  'status',
  'author',
  'date',
  'date_gmt',
  'modified',
  'modified_gmt',
  'password',
  'featured_media',
  'menu_order',
  'parent',
  'link',
]);
export type PostField = z.infer<typeof postField>;

export const fieldSource = z.union([
  z.object({ post: postField }).strict(),
  z
    .object({
      meta: z.string().min(1),
      format: storageFormat.default('string'),
      default: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
    })
    .strict(),
]);
export type FieldSource = z.infer<typeof fieldSource>;

export const taxonomySource = z
  .object({
    /** Taxonomy name as registered in WordPress (`tribe_events_cat`). */
    taxonomy: z.string().min(1),
    /** Its wp/v2 rest_base (`tribe_events_cat`, `tags`): the collection route and the post's field name. */
    restBase: z.string().min(1),
    hierarchical: z.boolean().default(false),
  })
  .strict();
export type TaxonomySource = z.infer<typeof taxonomySource>;

const resource = <F extends z.ZodRawShape>(fields: z.ZodObject<F>) =>
  z
    .object({
      /** Post type name (`tribe_events`). */
      postType: z.string().min(1),
      /** Its wp/v2 rest_base (`tribe_events`). */
      restBase: z.string().min(1),
      /** Front-end permalink prefix, for documentation only. */
      fields,
    })
    .strict();

const f = fieldSource;
const fo = fieldSource.optional();

/** The post fields every resource has (its name field — title, venue, organizer — comes first in each). */
const postFields = {
  description: f,
  excerpt: f,
  slug: f,
  status: f,
  author: f,
  date: f,
  date_utc: f,
  modified: f,
  modified_utc: f,
  password: f,
  image: fo,
};

/** The fields a record's descriptor stores under their own names, each optional (a custom site may lack them). */
type StoredKeys<R extends RecordDescriptor> = Extract<R['fields'][number], { stored: true }>['key'];
function storedOf<R extends RecordDescriptor>(record: R): Record<StoredKeys<R>, typeof fo> {
  return Object.fromEntries(record.fields.filter((x) => x.stored).map((x) => [x.key, fo])) as Record<
    StoredKeys<R>,
    typeof fo
  >;
}

/**
 * Event fields: each calendar field names its storage. The descriptor's stored fields are optional; the post
 * fields, the start and the end are required, and a few stored values are no record field of their own.
 */
export const eventFields = z
  .object({
    ...storedOf(eventRecord),
    title: f,
    ...postFields,
    start_date: f,
    end_date: f,
    parent: fo,
    duration: fo,
    currency_symbol: fo,
    currency_code: fo,
    currency_position: fo,
    // Recurrence (RECURRENCE.md): the rule text on a series, and an override's or a split series' links.
    recurrence: fo,
    series_parent: fo,
    recurrence_id: fo,
    series_previous: fo,
  })
  .strict();

export const venueFields = z.object({ ...storedOf(venueRecord), venue: f, ...postFields }).strict();

export const organizerFields = z
  .object({ ...storedOf(organizerRecord), organizer: f, ...postFields })
  .strict();

export const mappingSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    /** Multilingual plugin: the query parameter WordPress reads the language from (`lang`, `wpml_language`). */
    language: z
      .object({
        param: z.string().min(1).nullable().default('lang'),
        languages: z.array(z.string().min(2)).min(1).default(['en', 'es']),
        default: z.string().min(2).default('en'),
      })
      .strict()
      .default({ param: 'lang', languages: ['en', 'es'], default: 'en' }),
    event: resource(eventFields).extend({
      categories: taxonomySource.optional(),
      tags: taxonomySource.optional(),
    }),
    venue: resource(venueFields),
    organizer: resource(organizerFields),
  })
  .strict();

export type Mapping = z.infer<typeof mappingSchema>;
export type EventFieldName = keyof z.infer<typeof eventFields>;
export type VenueFieldName = keyof z.infer<typeof venueFields>;
export type OrganizerFieldName = keyof z.infer<typeof organizerFields>;
export type ResourceKind = 'event' | 'venue' | 'organizer';

/** Every meta key a mapping uses, per post type, with its format: what the companion plugin must register. */
export function metaKeysOf(mapping: Mapping): Map<string, Map<string, StorageFormat>> {
  const out = new Map<string, Map<string, StorageFormat>>();
  for (const kind of ['event', 'venue', 'organizer'] as const) {
    const res = mapping[kind];
    const keys = new Map<string, StorageFormat>();
    for (const src of Object.values(res.fields) as Array<FieldSource | undefined>) {
      if (src && 'meta' in src) keys.set(src.meta, src.format);
    }
    out.set(res.postType, keys);
  }
  return out;
}
