// One descriptor per record kind (event, venue, organizer, category, tag): each field once, in TEC's emission order.
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
  positiveInt,
  timeValue,
  WHY,
} from './args.ts';
import { IMAGE_ACCEPTS, linkedAccepts, oneOfStrings, postStatus, TERMS_ACCEPTS, termList } from './common.ts';

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
}

/** A write argument before it takes the field's description. */
type Arg<T> = Omit<ArgDef<T>, 'description'>;

/** A field; given `arg`, it is also a write argument described by `about`. Its key and `stored` stay in its type. */
function field<const K extends string, T, S extends true | undefined = undefined>(
  d: Omit<FieldDef<K>, 'arg' | 'stored'> & { arg: Arg<T>; stored?: S },
): FieldDef<K, T> & { arg: ArgDef<T>; stored: S };
function field<const K extends string, S extends true | undefined = undefined>(
  d: Omit<FieldDef<K>, 'arg' | 'stored'> & { stored?: S },
): FieldDef<K> & { arg?: undefined; stored: S };
function field(d: Omit<FieldDef, 'arg'> & { arg?: Arg<unknown> }): FieldDef {
  return d.arg ? { ...d, arg: { ...d.arg, description: d.about } } : (d as FieldDef);
}

export interface RecordDescriptor<F extends readonly FieldDef[] = readonly FieldDef[]> {
  kind: 'event' | 'venue' | 'organizer' | 'categories' | 'tags';
  /** The /doc component name. */
  component: string;
  fields: F;
  /** PHP's `array_filter` over the record (venues and organizers): empty values are left out. */
  dropEmpty: boolean;
}

const s = { type: 'string' };
const b = { type: 'boolean' };
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const strings = { type: 'array', items: { type: 'string' } };
const imageOrFalse = { oneOf: [ref('Image'), { type: 'boolean', enum: [false] }] };

type Noun = { en: string; es: string };
const EVENT: Noun = { en: 'event', es: 'evento' };
const VENUE: Noun = { en: 'venue', es: 'lugar' };
const ORGANIZER: Noun = { en: 'organizer', es: 'organizador' };

const text: Arg<string> = { type: 'string', in: 'body', schema: nonEmptyString };
/** A text that may be emptied: any string (an empty one clears the stored value). */
const clearable: Arg<string> = { type: 'string', in: 'body', accepts: ACCEPTS.text, schema: anyString };
/** A venue flag: TEC reads any value as truthy or not. */
const flag: Arg<boolean> = { type: 'boolean', in: 'body', accepts: ACCEPTS.looseBoolean, schema: looseBool };
/** An event flag: WordPress's boolean (`rest_sanitize_boolean`); anything else is refused. */
const strictFlag = (name: string): Arg<boolean> => ({
  type: 'boolean',
  in: 'body',
  accepts: ACCEPTS.boolean,
  schema: boolean(name),
});
const time: Arg<string> = {
  type: 'string',
  in: 'body',
  accepts: ACCEPTS.text,
  schema: timeValue,
  format: 'time',
};
const url: Arg<string> = {
  type: 'string',
  in: 'body',
  schema: anyString.refine((v) => v === '' || URL.canParse(v), WHY.url),
};
/** Any JSON value: the handler reads it (nested venues and organizers). */
const anyValue: z.ZodType<unknown> = z.unknown();

/** A cost: one value, or several (a range), each a text or a number. */
const costValue: z.ZodType<unknown> = z
  .unknown()
  .refine(
    (v) =>
      ['string', 'number'].includes(typeof v) ||
      (Array.isArray(v) && v.every((x) => ['string', 'number'].includes(typeof x))),
    'must be a string or a list.',
  );
const COST_ACCEPTS = { anyOf: [ACCEPTS.text, { type: 'array', items: ACCEPTS.text }] };

const id = (n: Noun) =>
  field({ key: 'id', about: { en: `The ${n.en} id.`, es: `El id del ${n.es}.` }, type: { type: 'integer' } });

const globalIds = [
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
const postHead = [
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

const named = <const K extends string>(key: K, en: string, es: string, example: string) =>
  field({ key, about: { en, es }, type: s, arg: { ...text, example }, onCreate: { required: true } });
const description = (n: Noun, example: string) =>
  field({
    key: 'description',
    about: { en: `The ${n.en} description (HTML).`, es: `La descripción del ${n.es} (HTML).` },
    type: s,
    blank: '',
    arg: { ...text, example },
  });
const excerptAbout = (n: Noun) => ({
  en: `The ${n.en} excerpt (HTML).`,
  es: `El extracto del ${n.es} (HTML).`,
});
const slugAbout = (n: Noun) => ({ en: `The ${n.en} slug.`, es: `El slug del ${n.es}.` });
const image = (en: string, es: string) =>
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
const website = (n: Noun, example: string) =>
  field({
    key: 'website',
    about: { en: `The ${n.en} website URL.`, es: `La URL del sitio web del ${n.es}.` },
    type: s,
    blank: '',
    stored: true,
    arg: { ...url, example },
  });
/** A stored text that may be emptied (`example`: what /doc's example body sends, if anything). */
const line = <const K extends string>(key: K, en: string, es: string, example?: string) =>
  field({
    key,
    about: { en, es },
    type: s,
    blank: '',
    stored: true,
    arg: example === undefined ? clearable : { ...clearable, example },
  });
/** The map flags: a venue's kept when false and read loosely, an event's checked as booleans. */
const showMap = (of: 'venue' | 'event') => {
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
const jsonLd = (type: string) =>
  field({
    key: 'json_ld',
    about: {
      en: `schema.org ${type} (single reads only).`,
      es: `${type} de schema.org (solo en lecturas de uno).`,
    },
    type: { type: 'object' },
    singleOnly: true,
  });

/** What a venue and an organizer start with: post fields, the name, texts and image (no excerpt or slug to write). */
const linkedHead = <const K extends string>(
  key: K,
  n: Noun,
  example: { name: string; description: string },
) =>
  [
    id(n),
    ...postHead,
    named(key, `The ${n.en} name.`, `El nombre del ${n.es}.`, example.name),
    description(n, example.description),
    field({ key: 'excerpt', about: excerptAbout(n), type: s, blank: '' }),
    field({ key: 'slug', about: slugAbout(n), type: s, stored: true }),
    image(`The ${n.en} image`, `La imagen del ${n.es}`),
  ] as const;

/** A venue or organizer record: the common head, its own fields, and the global ids last; empty values dropped. */
const linkedRecord = <const K extends 'venue' | 'organizer', const F extends readonly FieldDef[]>(
  kind: K,
  component: string,
  n: Noun,
  example: { name: string; description: string },
  own: F,
) =>
  ({
    kind,
    component,
    dropEmpty: true,
    fields: [...linkedHead(kind, n, example), ...own, ...globalIds] as const,
  }) as const satisfies RecordDescriptor;

export const venueRecord = linkedRecord(
  'venue',
  'Venue',
  VENUE,
  { name: 'Harbour Terrace', description: '<p>An open-air terrace on the old harbour.</p>' },
  [
    line('address', 'The venue street address.', 'La dirección del lugar.', 'Muelle de la Aduana 1'),
    line('city', 'The venue city.', 'La ciudad del lugar.', 'Valencia'),
    line('country', 'The venue country.', 'El país del lugar.', 'Spain'),
    line('province', 'The venue province.', 'La provincia del lugar.', 'Valencia'),
    // Not in TEC's protected list (which leaves a protected venue's state readable); blanked with the address.
    line('state', 'The venue state.', 'El estado del lugar.'),
    line('zip', 'The venue ZIP or postal code.', 'El código postal del lugar.', '46024'),
    line('phone', 'The venue phone number.', 'El teléfono del lugar.', '+34 963 00 00 00'),
    website(VENUE, 'https://example.com/harbour-terrace'),
    line('stateprovince', 'The venue state or province.', 'El estado o la provincia del lugar.'),
    jsonLd('Place'),
    ...showMap('venue'),
  ],
);

export const organizerRecord = linkedRecord(
  'organizer',
  'Organizer',
  ORGANIZER,
  { name: 'Harbour Jazz Club', description: '<p>Live jazz by the sea since 1998.</p>' },
  [
    line('phone', 'The organizer phone number.', 'El teléfono del organizador.', '+34 600 00 00 00'),
    website(ORGANIZER, 'https://example.com/harbour-jazz-club'),
    line(
      'email',
      'The organizer e-mail address.',
      'El correo electrónico del organizador.',
      'jazz@example.com',
    ),
    jsonLd('Organization'),
  ],
);

/**
 * The body of a write that sends every field with an example: the example body /doc shows for the record's create
 * and update, and the value of a venue or organizer nested in an event's.
 */
export function exampleOf(record: RecordDescriptor): Record<string, unknown> {
  return Object.fromEntries(
    record.fields.flatMap((f) => (f.arg?.example === undefined ? [] : [[f.key, f.arg.example]])),
  );
}

/** A start or end as written: a required write argument. */
const wallClock = <const K extends string>(key: K, en: string, es: string, example: string) =>
  field({
    key,
    about: { en, es },
    type: s,
    arg: { ...time, example },
    onCreate: { required: true },
    byHandler: true,
  });
/** A start or end in UTC: stored, computed when the mapping has none. */
const utcClock = <const K extends string>(key: K, en: string, es: string) =>
  field({ key, about: { en, es }, type: s, stored: true });
const details = <const K extends string>(key: K, of: string) =>
  field({ key, about: { en: `The parts of ${of}.`, es: `Las partes de ${of}.` }, type: ref('DateDetails') });
const eventFlag = <const K extends string>(key: K, en: string, es: string) =>
  field({ key, about: { en, es }, type: b, blank: null, stored: true, arg: strictFlag(key) });
const terms = <const K extends string>(key: K, en: string, es: string, example: string[]) =>
  field({
    key,
    about: { en, es },
    type: { type: 'array', items: ref('Term') },
    blank: [],
    arg: { ...termList(en, es), in: 'body', accepts: TERMS_ACCEPTS, shownDefault: 'null', example },
    byHandler: true,
  });

/** TEC's event statuses (`_tribe_events_status`); an event without one is scheduled. */
export const EVENT_STATUSES = ['scheduled', 'canceled', 'postponed'] as const;
const eventStatusArg: Arg<string> = {
  type: 'string',
  in: 'body',
  enum: EVENT_STATUSES,
  schema: oneOfStrings(EVENT_STATUSES),
};

/** A venue or organizers on an event write: ids, existing ones as `{id}`, or new ones by their fields. */
const linkedArg = (component: 'VenueInput' | 'OrganizerInput', example: unknown): Arg<unknown> => ({
  type: 'array',
  items: 'integer',
  in: 'body',
  accepts: linkedAccepts(component),
  shownDefault: 'null',
  schema: anyValue,
  example,
});

export const eventRecord = {
  kind: 'event',
  component: 'Event',
  dropEmpty: false,
  fields: [
    id(EVENT),
    ...globalIds,
    ...postHead,
    field({
      key: 'rest_url',
      about: { en: 'This event in the API.', es: 'Este evento en la API.' },
      type: s,
    }),
    named('title', 'The event title.', 'El título del evento.', 'Jazz night on the harbour'),
    description(EVENT, '<p>The Harbour Quartet plays standards under the stars. Doors open at 19:30.</p>'),
    field({
      key: 'excerpt',
      about: excerptAbout(EVENT),
      type: s,
      blank: '',
      arg: { ...text, example: 'Standards under the stars.' },
    }),
    field({ key: 'slug', about: slugAbout(EVENT), type: s, stored: true, arg: text, byHandler: true }),
    image('The featured image', 'La imagen destacada'),
    field({
      key: 'all_day',
      about: { en: 'Whether the event lasts all day.', es: 'Si el evento dura todo el día.' },
      type: b,
      blank: null,
      stored: true,
      arg: { ...strictFlag('all_day'), example: false },
      byHandler: true,
      onCreate: { default: false },
    }),
    wallClock(
      'start_date',
      'The event start, on its own wall clock (Y-m-d H:i:s; a write accepts what strtotime reads).',
      'El inicio del evento, en su hora local (Y-m-d H:i:s; al escribir, lo que lee strtotime).',
      '2027-06-12 20:00:00',
    ),
    details('start_date_details', 'start_date'),
    wallClock(
      'end_date',
      'The event end, on its own wall clock.',
      'El fin del evento, en su hora local.',
      '2027-06-12 23:00:00',
    ),
    details('end_date_details', 'end_date'),
    utcClock('utc_start_date', 'The event start in UTC.', 'El inicio del evento en UTC.'),
    details('utc_start_date_details', 'utc_start_date'),
    utcClock('utc_end_date', 'The event end in UTC.', 'El fin del evento en UTC.'),
    details('utc_end_date_details', 'utc_end_date'),
    field({
      key: 'timezone',
      about: {
        en: 'The event time zone (e.g. Europe/Madrid or UTC+2).',
        es: 'La zona horaria del evento (p. ej. Europe/Madrid o UTC+2).',
      },
      type: s,
      stored: true,
      arg: {
        type: 'string',
        in: 'body',
        accepts: ACCEPTS.text,
        schema: anyString,
        format: 'timezone',
        example: 'Europe/Madrid',
      },
      byHandler: true,
    }),
    field({
      key: 'timezone_abbr',
      about: {
        en: 'The time zone abbreviation at the start.',
        es: 'La abreviatura de la zona horaria al inicio.',
      },
      type: s,
      stored: true,
    }),
    field({
      key: 'cost',
      about: {
        en: 'The event cost (formatted in answers).',
        es: 'El precio del evento (con formato en las respuestas).',
      },
      type: s,
      blank: '',
      stored: true,
      arg: {
        type: 'string',
        untyped: true,
        in: 'body',
        accepts: COST_ACCEPTS,
        schema: costValue,
        example: '15',
      },
      byHandler: true,
    }),
    field({
      key: 'cost_details',
      about: {
        en: 'The cost read: currency symbol, code, position and values.',
        es: 'El precio desglosado: símbolo, código y posición de la moneda, y valores.',
      },
      type: ref('CostDetails'),
      blank: { currency_symbol: '', currency_position: '', currency_code: '', values: [] },
    }),
    field({
      key: 'website',
      about: { en: 'The event website URL.', es: 'La URL del sitio web del evento.' },
      type: s,
      blank: '',
      stored: true,
      arg: { ...url, untyped: true, shownDefault: 'null', example: 'https://example.com/jazz-night' },
    }),
    ...showMap('event'),
    eventFlag('hide_from_listings', 'Hide the event from listings.', 'Ocultar el evento de los listados.'),
    eventFlag('sticky', 'Sticky in calendar views.', 'Fijo en las vistas del calendario.'),
    eventFlag('featured', 'Featured on the site.', 'Destacado en el sitio.'),
    field({
      key: 'event_status',
      about: {
        en: "Whether the event takes place as planned: scheduled, canceled or postponed (TEC's event status).",
        es: 'Si el evento se celebra como estaba previsto: scheduled, canceled o postponed (el estado de TEC).',
      },
      type: { type: 'string', enum: EVENT_STATUSES },
      stored: true,
      arg: { ...eventStatusArg, example: 'scheduled' },
    }),
    field({
      key: 'event_status_reason',
      about: {
        en: 'Why the event was canceled or postponed, as shown to visitors.',
        es: 'Por qué se canceló o aplazó el evento, tal como se muestra a los visitantes.',
      },
      type: s,
      blank: '',
      stored: true,
      arg: clearable,
    }),
    terms('categories', 'Category ids, slugs or names.', 'Ids, slugs o nombres de categorías.', ['jazz']),
    terms('tags', 'Tag ids, slugs or names.', 'Ids, slugs o nombres de etiquetas.', ['live', 'evening']),
    field({
      key: 'venue',
      about: {
        en: 'The venue: an id, or an object to create (in answers one venue as an object, several as a list).',
        es: 'El lugar: un id o un objeto que crear (en las respuestas, uno como objeto y varios como lista).',
      },
      type: { oneOf: [ref('Venue'), { type: 'array', items: ref('Venue') }] },
      blank: [],
      stored: true,
      arg: linkedArg('VenueInput', exampleOf(venueRecord)),
      byHandler: true,
    }),
    field({
      key: 'organizer',
      about: {
        en: 'The organizers: ids, or objects to create.',
        es: 'Los organizadores: ids u objetos que crear.',
      },
      type: { type: 'array', items: ref('Organizer') },
      blank: [],
      stored: true,
      arg: linkedArg('OrganizerInput', [exampleOf(organizerRecord)]),
      byHandler: true,
    }),
    field({
      key: 'custom_fields',
      about: {
        en: 'Additional fields with a value, or an empty list.',
        es: 'Campos adicionales con valor, o una lista vacía.',
      },
      type: { oneOf: [{ type: 'object' }, { type: 'array', items: {} }] },
      blank: [],
    }),
    jsonLd('Event'),
  ],
} as const satisfies RecordDescriptor;

export const RECORDS = { event: eventRecord, venue: venueRecord, organizer: organizerRecord } as const;

type TermKind = 'categories' | 'tags';
const TERM: Record<TermKind, Noun> = {
  categories: { en: 'event category', es: 'categoría de eventos' },
  tags: { en: 'event tag', es: 'etiqueta de eventos' },
};
/** The name and description /doc's example body sends to create or update a term of each kind. */
const TERM_EXAMPLE: Record<TermKind, { name: string; description: string }> = {
  categories: { name: 'Open-air concerts', description: 'Concerts held outdoors.' },
  tags: { name: 'Family friendly', description: 'Events that welcome children.' },
};
const termField = <const K extends string>(key: K, en: string, es: string, type: JsonSchema = s) =>
  field({ key, about: { en, es }, type });

/**
 * An event category or tag as the list and single routes send it (the WordPress terms controller's item, `link`
 * renamed `url`, which PHP appends after `meta`); `parent` for categories only. Terms embedded in an event keep
 * TEC's cast of `WP_Term` instead (serialize/terms.ts). No password protects a term.
 */
function termDescriptor<const K extends TermKind>(kind: K) {
  const n = TERM[kind];
  const head = [
    field({
      key: 'id',
      about: { en: `The ${n.en} term id.`, es: `El id de término de la ${n.es}.` },
      type: { type: 'integer' },
    }),
    termField('count', 'How many events have the term.', 'Cuántos eventos tienen el término.', {
      type: 'integer',
    }),
    field({
      key: 'description',
      about: { en: `The ${n.en} description.`, es: `La descripción de la ${n.es}.` },
      type: s,
      arg: { ...text, example: TERM_EXAMPLE[kind].description },
    }),
    named('name', `The ${n.en} name.`, `El nombre de la ${n.es}.`, TERM_EXAMPLE[kind].name),
    field({
      key: 'slug',
      about: { en: `The ${n.en} slug.`, es: `El slug de la ${n.es}.` },
      type: s,
      arg: text,
    }),
    termField('taxonomy', 'The taxonomy.', 'La taxonomía.'),
  ] as const;
  const parent = field({
    key: 'parent',
    about: {
      en: 'The parent event category id (0 for none).',
      es: 'El id de la categoría de eventos madre (0 si no hay).',
    },
    type: { type: 'integer' },
    arg: { type: 'integer', in: 'body', accepts: ACCEPTS.id, schema: positiveInt },
  });
  const tail = [
    termField('meta', 'The term meta, or an empty list.', 'Los metadatos del término, o una lista vacía.', {
      oneOf: [{ type: 'object' }, { type: 'array', items: {} }],
    }),
    termField('url', 'The term archive URL.', 'La URL del archivo del término.'),
    termField(
      'urls',
      'This term, its list and its parent in the API.',
      'Este término, su lista y su madre en la API.',
      {
        type: 'object',
        properties: { self: s, collection: s, up: s },
      },
    ),
  ] as const;
  const fields = kind === 'categories' ? [...head, parent, ...tail] : [...head, ...tail];
  return { kind, component: 'Term', dropEmpty: false, fields } as const satisfies RecordDescriptor;
}

export const categoryRecord = termDescriptor('categories');
export const tagRecord = termDescriptor('tags');
export type RecordKind = keyof typeof RECORDS;

/** The write arguments of a record kind's fields, in record order (`create`: with what create adds). */
type WriteShape<F extends readonly FieldDef[]> = {
  [D in F[number] as D extends { arg: ArgDef } ? D['key'] : never]: NonNullable<D['arg']>;
};

export function writeArgsOf<R extends RecordDescriptor>(record: R, create: boolean): WriteShape<R['fields']> {
  const out: Record<string, ArgDef> = {};
  for (const f of record.fields) {
    if (f.arg) out[f.key] = create && f.onCreate ? { ...f.arg, ...f.onCreate } : f.arg;
  }
  return out as WriteShape<R['fields']>;
}

/** The keys of a record kind in TEC's order (`json_ld` included: single reads end or carry it there). */
export const keysOf = (record: RecordDescriptor): string[] => record.fields.map((f) => f.key);

/** The free-text write fields (names, descriptions, addresses, contacts): strings with no format and no enum. */
export const textFieldsOf = (record: RecordDescriptor): string[] =>
  record.fields.filter((f) => f.arg?.type === 'string' && !f.arg.format && !f.arg.enum).map((f) => f.key);

/** The write fields stored as sent (the handler works out the others, `byHandler`). */
export const sentAsIsOf = (record: RecordDescriptor): string[] =>
  record.fields.filter((f) => f.arg && !f.byHandler).map((f) => f.key);
