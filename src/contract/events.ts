// The events routes of calendar/events/v1: list, read, create, update, delete (by id and by slug).
import { z } from 'zod';
import { normaliseTimezone } from '../events/dates.ts';
import { isImageArg } from '../media/sideload.ts';
import { type ArgDef, anyString, integer, nonEmptyString, nonNegativeInt, WHY } from './args.ts';
import {
  bool,
  IMAGE_ACCEPTS,
  idPath,
  language,
  linkedAccepts,
  postStatus,
  shownNull,
  slugPath,
  TERMS_ACCEPTS,
  termList,
  time,
} from './common.ts';
import { listEventsArgs } from './event-list.ts';
import { CREATABLE, DELETABLE, EDITABLE, READABLE, route } from './route.ts';

export { POST_STATUSES } from './common.ts';
export { listEventsArgs };

const passwordArg: ArgDef<string> = {
  type: 'string',
  in: 'query',
  description: { en: 'The event password.', es: 'La contraseña del evento.' },
  // Documented only on the language root (spec "Payload rules" 6); the handlers accept it on every root.
  roots: 'secondary',
  schema: nonEmptyString,
};

// TEC answers id 0 like any missing event: 404 rest-event-not-found.
const idArg = idPath({ en: 'The event id.', es: 'El id del evento.' }, nonNegativeInt);
const slugArg = slugPath({ en: 'The event slug.', es: 'El slug del evento.' });

const text = (en: string, es: string, required = false): ArgDef<string> => ({
  type: 'string',
  in: 'body',
  required,
  description: { en, es },
  schema: nonEmptyString,
});

const timeBody = (en: string, es: string, required = false) => time({ en, es }, { in: 'body', required });

const timezone: ArgDef<string> = {
  type: 'string',
  in: 'body',
  description: {
    en: 'The event time zone (e.g. Europe/Madrid or UTC+2).',
    es: 'La zona horaria del evento (p. ej. Europe/Madrid o UTC+2).',
  },
  schema: anyString.refine((s) => s === '' || normaliseTimezone(s) !== null, WHY.timezone),
};

const url: ArgDef<string> = {
  type: 'string',
  in: 'body',
  description: { en: 'The event website URL.', es: 'La URL del sitio web del evento.' },
  schema: anyString.refine((s) => s === '' || URL.canParse(s), WHY.url),
};

/** A linked venue or organizer: an id, an object with `id`, an object to create, or empty. */
const linked = (en: string, es: string): ArgDef<unknown> => ({
  type: 'array',
  items: 'integer',
  in: 'body',
  description: { en, es },
  schema: z.unknown(),
});

export const eventWriteArgs = (create: boolean) => ({
  title: text('The event title.', 'El título del evento.', create),
  description: text('The event description.', 'La descripción del evento.'),
  excerpt: text('The event excerpt.', 'El extracto del evento.'),
  slug: text('The event slug.', 'El slug del evento.'),
  start_date: timeBody('The event start date and time.', 'La fecha y hora de inicio.', create),
  end_date: timeBody('The event end date and time.', 'La fecha y hora de fin.', create),
  author: {
    type: 'integer',
    in: 'body',
    description: { en: 'The author id.', es: 'El id del autor.' },
    schema: integer('author'),
  } satisfies ArgDef<number>,
  date: timeBody('The publication date.', 'La fecha de publicación.'),
  date_utc: timeBody('The publication date in UTC.', 'La fecha de publicación en UTC.'),
  status: postStatus,
  timezone,
  all_day: bool('all_day', 'Whether the event lasts all day.', 'Si el evento dura todo el día.', {
    in: 'body',
    ...(create ? { default: false } : {}),
  }),
  image: {
    type: 'string',
    in: 'body',
    description: {
      en: 'The featured image: an attachment id, an image URL to upload (users who may upload files), or empty to remove it.',
      es: 'La imagen destacada: un id de adjunto, una URL de imagen para subir (usuarios que pueden subir archivos), o vacío para quitarla.',
    },
    accepts: IMAGE_ACCEPTS,
    schema: anyString.refine(isImageArg, WHY.image),
  } satisfies ArgDef<string>,
  cost: {
    type: 'string',
    untyped: true,
    in: 'body',
    description: { en: 'The event cost.', es: 'El precio del evento.' },
    schema: z.unknown(),
  } satisfies ArgDef,
  website: { ...url, untyped: true, shownDefault: shownNull },
  show_map: bool('show_map', 'Whether to show a map.', 'Si se muestra un mapa.', { in: 'body' }),
  show_map_link: bool('show_map_link', 'Whether to show a map link.', 'Si se muestra un enlace al mapa.', {
    in: 'body',
  }),
  hide_from_listings: bool(
    'hide_from_listings',
    'Hide the event from listings.',
    'Ocultar el evento de los listados.',
    { in: 'body' },
  ),
  sticky: bool('sticky', 'Sticky in calendar views.', 'Fijo en las vistas del calendario.', { in: 'body' }),
  featured: bool('featured', 'Featured on the site.', 'Destacado en el sitio.', { in: 'body' }),
  categories: {
    ...termList('Category ids, slugs or names.', 'Ids, slugs o nombres de categorías.'),
    in: 'body',
    accepts: TERMS_ACCEPTS,
    shownDefault: shownNull,
  } satisfies ArgDef<string[]>,
  tags: {
    ...termList('Tag ids, slugs or names.', 'Ids, slugs o nombres de etiquetas.'),
    in: 'body',
    accepts: TERMS_ACCEPTS,
    shownDefault: shownNull,
  } satisfies ArgDef<string[]>,
  venue: {
    ...linked('The venue: an id, or an object to create.', 'El lugar: un id o un objeto que crear.'),
    accepts: linkedAccepts('VenueInput'),
    shownDefault: shownNull,
  },
  organizer: {
    ...linked('The organizers: ids, or objects to create.', 'Los organizadores: ids u objetos que crear.'),
    accepts: linkedAccepts('OrganizerInput'),
    shownDefault: shownNull,
  },
  multilang_language: language,
});

export const eventRoutes = {
  list: route({
    id: 'events.list',
    pattern: '/events',
    path: '/events',
    methods: READABLE,
    summary: {
      en: 'Returns the events matching the query.',
      es: 'Devuelve los eventos que cumplen la consulta.',
    },
    args: listEventsArgs,
  }),
  create: route({
    id: 'events.create',
    pattern: '/events',
    path: '/events',
    methods: CREATABLE,
    summary: { en: 'Creates an event.', es: 'Crea un evento.' },
    args: eventWriteArgs(true),
  }),
  read: route({
    id: 'events.read',
    pattern: '/events/(?P<id>\\d+)',
    path: '/events/{id}',
    methods: READABLE,
    summary: { en: 'Returns one event.', es: 'Devuelve un evento.' },
    args: { id: idArg, password: passwordArg, multilang_language: language },
  }),
  update: route({
    id: 'events.update',
    pattern: '/events/(?P<id>\\d+)',
    path: '/events/{id}',
    methods: EDITABLE,
    summary: {
      en: 'Updates the fields sent of an event.',
      es: 'Actualiza los campos enviados de un evento.',
    },
    args: { id: idArg, ...eventWriteArgs(false), password: passwordArg },
  }),
  delete: route({
    id: 'events.delete',
    pattern: '/events/(?P<id>\\d+)',
    path: '/events/{id}',
    methods: DELETABLE,
    summary: { en: 'Moves an event to the trash.', es: 'Mueve un evento a la papelera.' },
    args: { id: idArg, password: passwordArg, multilang_language: language },
  }),
  readBySlug: route({
    id: 'events.readBySlug',
    pattern: '/events/by-slug/(?P<slug>[^/]+)',
    path: '/events/by-slug/{slug}',
    methods: READABLE,
    summary: { en: 'Returns one event by its slug.', es: 'Devuelve un evento por su slug.' },
    args: { slug: slugArg, multilang_language: language },
  }),
  updateBySlug: route({
    id: 'events.updateBySlug',
    pattern: '/events/by-slug/(?P<slug>[^/]+)',
    path: '/events/by-slug/{slug}',
    methods: EDITABLE,
    summary: { en: 'Updates an event found by its slug.', es: 'Actualiza un evento encontrado por su slug.' },
    args: { ...eventWriteArgs(false), slug: slugArg },
  }),
  deleteBySlug: route({
    id: 'events.deleteBySlug',
    pattern: '/events/by-slug/(?P<slug>[^/]+)',
    path: '/events/by-slug/{slug}',
    methods: DELETABLE,
    summary: {
      en: 'Moves an event found by its slug to the trash.',
      es: 'Mueve a la papelera un evento encontrado por su slug.',
    },
    args: { slug: slugArg, multilang_language: language },
  }),
};
