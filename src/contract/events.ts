// The events routes of calendar/events/v1: list, read, create, update, delete (by id and by slug).
import { type ArgDef, nonEmptyString, nonNegativeInt } from './args.ts';
import { idPath, language, slugPath } from './common.ts';
import { listEventsArgs } from './event-list.ts';
import { eventRecord, writeArgsOf } from './records.ts';
import { scopeArg } from './recurrence.ts';
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
const idArg = idPath(
  {
    en: "The event id, or an occurrence's id (a recurring event's occurrence: 2^52 + series id × 2^26 + minutes from 2000-01-01 UTC to its original start).",
    es: 'El id del evento, o el de una repetición (de un evento recurrente: 2^52 + id de la serie × 2^26 + minutos desde 2000-01-01 UTC hasta su inicio original).',
  },
  nonNegativeInt,
);
const slugArg = slugPath({ en: 'The event slug.', es: 'El slug del evento.' });

export const eventWriteArgs = (create: boolean) => ({
  ...writeArgsOf(eventRecord, create),
  multilang_language: language,
});

/** Every route but the list answers (or wrote) one event. */
const one = { record: eventRecord };

/** The list's filters without paging: a feed holds every matching event in the window, up to its cap. */
const { page: _page, per_page: _perPage, ...feedArgs } = listEventsArgs;

/** Feeds answer the events a list or a read would, as an iCalendar feed. */
const feed = { returns: { record: eventRecord, list: 'events' }, produces: 'ical' } as const;

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
    returns: { record: eventRecord, list: 'events' },
  }),
  create: route({
    id: 'events.create',
    pattern: '/events',
    path: '/events',
    methods: CREATABLE,
    summary: { en: 'Creates an event.', es: 'Crea un evento.' },
    args: eventWriteArgs(true),
    returns: one,
  }),
  read: route({
    id: 'events.read',
    pattern: '/events/(?P<id>\\d+)',
    path: '/events/{id}',
    methods: READABLE,
    summary: {
      en: "Returns one event; an occurrence's id returns that occurrence of its series (its override, if any, under the occurrence's id).",
      es: 'Devuelve un evento; el id de una repetición devuelve esa repetición de su serie (su excepción, si la hay, con el id de la repetición).',
    },
    args: { id: idArg, password: passwordArg, multilang_language: language },
    returns: one,
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
    args: { id: idArg, ...eventWriteArgs(false), password: passwordArg, scope: scopeArg },
    returns: one,
  }),
  delete: route({
    id: 'events.delete',
    pattern: '/events/(?P<id>\\d+)',
    path: '/events/{id}',
    methods: DELETABLE,
    summary: { en: 'Moves an event to the trash.', es: 'Mueve un evento a la papelera.' },
    args: {
      id: idArg,
      password: passwordArg,
      multilang_language: language,
      scope: { ...scopeArg, in: 'query' },
    },
    returns: one,
  }),
  readBySlug: route({
    id: 'events.readBySlug',
    pattern: '/events/by-slug/(?P<slug>[^/]+)',
    path: '/events/by-slug/{slug}',
    methods: READABLE,
    summary: {
      en: "Returns one event by its slug; an override's slug returns the occurrence it replaces, under the occurrence's id.",
      es: 'Devuelve un evento por su slug; el slug de una excepción devuelve la repetición que sustituye, con el id de la repetición.',
    },
    args: { slug: slugArg, multilang_language: language },
    returns: one,
  }),
  updateBySlug: route({
    id: 'events.updateBySlug',
    pattern: '/events/by-slug/(?P<slug>[^/]+)',
    path: '/events/by-slug/{slug}',
    methods: EDITABLE,
    summary: { en: 'Updates an event found by its slug.', es: 'Actualiza un evento encontrado por su slug.' },
    args: { ...eventWriteArgs(false), slug: slugArg, scope: scopeArg },
    returns: one,
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
    args: { slug: slugArg, multilang_language: language, scope: { ...scopeArg, in: 'query' } },
    returns: one,
  }),
  feed: route({
    id: 'events.feed',
    pattern: '/events\\.ics',
    path: '/events.ics',
    methods: READABLE,
    summary: {
      en: 'Returns the events matching the query as an iCalendar feed (every match in the window, no paging).',
      es: 'Devuelve los eventos que cumplen la consulta como calendario iCalendar (todos, sin paginar).',
    },
    args: feedArgs,
    ...feed,
  }),
  readFeed: route({
    id: 'events.read-feed',
    pattern: '/events/(?P<id>\\d+)\\.ics',
    path: '/events/{id}.ics',
    methods: READABLE,
    summary: {
      en: 'Returns one event as an iCalendar file ("Add to calendar"); an occurrence\'s id gives that occurrence alone, with its series\' UID and its RECURRENCE-ID.',
      es: 'Devuelve un evento como archivo iCalendar («Añadir al calendario»); el id de una repetición da esa repetición sola, con el UID de su serie y su RECURRENCE-ID.',
    },
    // Taken as the read takes it, documented nowhere (the spec documents it on the read, update and delete).
    args: { id: idArg, password: { ...passwordArg, roots: 'none' }, multilang_language: language },
    ...feed,
  }),
};
