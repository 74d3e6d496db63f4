// The event descriptor: every field of TEC's event, in its emission order.

import { z } from 'zod';
import { ACCEPTS, anyString } from '../args.ts';
import { linkedAccepts, oneOfStrings, TERMS_ACCEPTS, termList } from '../common.ts';
import { recurrenceArg } from '../recurrence.ts';
import {
  type Arg,
  anyValue,
  b,
  clearable,
  description,
  distanceKm,
  EVENT,
  excerptAbout,
  field,
  globalIds,
  id,
  image,
  jsonLd,
  named,
  postHead,
  type RecordDescriptor,
  ref,
  s,
  showMap,
  slugAbout,
  strictFlag,
  text,
  time,
  url,
} from './fields.ts';
import { exampleOf, organizerRecord, venueRecord } from './linked.ts';
import { tecRecord } from './tec-order.ts';

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

/**
 * The event: TEC's fields in its order, then what the gateway adds (after `custom_fields`, before `json_ld` in single
 * reads). A new field of ours goes in `additions`; `tecRecord` refuses one of TEC's keys there or out of its order.
 */
export const eventRecord = tecRecord({
  kind: 'event',
  component: 'Event',
  dropEmpty: false,
  tec: [
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
  additions: [
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
    // Recurrence (RECURRENCE.md, "API"): worked out by the serializer from the mapping's rule and series links.
    field({
      key: 'is_recurring',
      about: {
        en: 'Whether the event is a series or one of its occurrences.',
        es: 'Si el evento es una serie o una de sus repeticiones.',
      },
      type: { type: 'boolean' },
    }),
    field({
      key: 'series_id',
      about: {
        en: "The series' post id (its own id on the series itself), or null for an event that does not repeat.",
        es: 'El id de la entrada de la serie (el suyo propio en la serie), o null si el evento no se repite.',
      },
      type: { type: 'integer', nullable: true },
    }),
    field({
      key: 'original_start_utc',
      about: {
        en: "The occurrence's original start in UTC (Y-m-d H:i:s): with series_id, what identifies it even when it was moved; null for an event that does not repeat.",
        es: 'El inicio original de la repetición en UTC (Y-m-d H:i:s): con series_id, lo que la identifica aunque se haya movido; null si el evento no se repite.',
      },
      type: { type: 'string', nullable: true },
    }),
    field({
      key: 'recurrence',
      about: {
        en: "The series' rule: the RRULE value, the added (rdate) and excluded (exdate) dates in their stored forms, and the rule in words; null for an event that does not repeat. Sent on a create or update (`{rrule, rdate, exdate}`: an RFC 5545 RRULE without `RRULE:`, FREQ DAILY to YEARLY, dates as local times `YYYYMMDDTHHMMSS` of the event's time zone or `YYYYMMDD`; or the rule's text), it makes the event a series whose first occurrence is the event's start.",
        es: 'La regla de la serie: el valor RRULE, las fechas añadidas (rdate) y excluidas (exdate) tal como se guardan, y la regla en palabras; null si el evento no se repite. Enviada al crear o actualizar (`{rrule, rdate, exdate}`: una RRULE de RFC 5545 sin `RRULE:`, FREQ de DAILY a YEARLY, fechas como horas locales `YYYYMMDDTHHMMSS` de la zona horaria del evento o `YYYYMMDD`; o el texto de la regla), convierte el evento en una serie cuya primera repetición es el inicio del evento.',
      },
      // OpenAPI 3.0 (what /doc is): null is `nullable`, not a type of its own.
      type: {
        type: 'object',
        nullable: true,
        properties: {
          rrule: { type: 'string' },
          rdate: { type: 'array', items: { type: 'string' } },
          exdate: { type: 'array', items: { type: 'string' } },
          text: { type: 'string' },
        },
      },
      // Written by the handler: validated for the event's start and stored as the canonical text (src/recurrence/).
      arg: recurrenceArg,
      byHandler: true,
    }),
    distanceKm('event'),
  ],
}) satisfies RecordDescriptor;
