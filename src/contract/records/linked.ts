// The venue and organizer descriptors: the common head, each kind's own fields in TEC's order, the global ids last.

import { latitudeArg, longitudeArg } from '../../geo/args.ts';
import {
  description,
  distanceKm,
  excerptAbout,
  type FieldDef,
  field,
  globalIds,
  id,
  image,
  jsonLd,
  line,
  type Noun,
  named,
  ORGANIZER,
  postHead,
  type RecordDescriptor,
  s,
  showMap,
  slugAbout,
  VENUE,
  website,
} from './fields.ts';
import { tecRecord } from './tec-order.ts';

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

/**
 * A venue or organizer record: the common head, its own fields, and the global ids last (TEC's, in its order), then
 * `additions`, the gateway's own fields (after every TEC key); empty values dropped.
 */
const linkedRecord = <
  const K extends 'venue' | 'organizer',
  const F extends readonly FieldDef[],
  const A extends readonly FieldDef[] = readonly [],
>(
  kind: K,
  component: string,
  n: Noun,
  example: { name: string; description: string },
  own: F,
  additions?: A,
) =>
  tecRecord({
    kind,
    component,
    dropEmpty: true,
    tec: [...linkedHead(kind, n, example), ...own, ...globalIds] as const,
    additions,
  }) satisfies RecordDescriptor;

/**
 * Events Calendar Pro's venue coordinates (its `_VenueLat`, `_VenueLng`): sent when both are set and not both zero,
 * blanked with the address on a protected venue; written both or neither (src/linked/write.ts).
 */
const coordinates = [
  field({
    key: 'geo_lat',
    about: {
      en: 'The venue latitude, in degrees (-90 to 90); written with geo_lng, or both cleared with empty strings.',
      es: 'La latitud del lugar, en grados (-90 a 90); se escribe con geo_lng, o ambas se borran con cadenas vacías.',
    },
    type: { type: 'number', nullable: true },
    blank: null,
    stored: true,
    arg: { ...latitudeArg, example: 39.4699 },
    byHandler: true,
  }),
  field({
    key: 'geo_lng',
    about: {
      en: 'The venue longitude, in degrees (-180 to 180); written with geo_lat, or both cleared with empty strings.',
      es: 'La longitud del lugar, en grados (-180 a 180); se escribe con geo_lat, o ambas se borran con cadenas vacías.',
    },
    type: { type: 'number', nullable: true },
    blank: null,
    stored: true,
    arg: { ...longitudeArg, example: -0.3763 },
    byHandler: true,
  }),
] as const;

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
    ...coordinates,
    jsonLd('Place'),
    ...showMap('venue'),
  ],
  [distanceKm('venue')],
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
