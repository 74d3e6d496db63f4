// The arguments of GET /events: every filter of the spec, with TEC's defaults and WordPress's parsing.
import { z } from 'zod';
import { geoListArgs } from '../geo/args.ts';
import { ACCEPTS, type ArgDef, idList, list, MAX_CHARS, nonEmptyString, positiveInt, WHY } from './args.ts';
import { bool, language, page, perPage, termList, time } from './common.ts';

const linkedIds = (en: string, es: string): ArgDef<number[]> => ({
  type: 'array',
  items: 'integer',
  csv: true,
  in: 'query',
  description: { en, es },
  schema: idList,
});

/** `status` as a CSV or array of post statuses; who may ask for what is decided by the handler. */
const statusList: ArgDef<string[]> = {
  type: 'string',
  in: 'query',
  accepts: ACCEPTS.statuses,
  description: {
    en: 'The event post status (CSV or array); only `publish` for callers who cannot edit events.',
    es: 'El estado de publicación del evento (CSV o lista); solo `publish` para quien no puede editar eventos.',
  },
  schema: list.refine((items) => items.length > 0, WHY.someItems),
};

export const listEventsArgs = {
  page,
  per_page: perPage(10),
  start_date: time(
    {
      en: "Events that start on or after this date (default, as TEC's `yesterday 23:59` taken in UTC: 00:00 site time of the site's date at 23:59 UTC of the previous UTC day).",
      es: 'Eventos que empiezan en esta fecha o después (por defecto, como el `yesterday 23:59` de TEC tomado en UTC: las 00:00, hora del sitio, de la fecha del sitio a las 23:59 UTC del día UTC anterior).',
    },
    { shownDefault: 'list-start', untyped: true },
  ),
  end_date: time(
    {
      en: 'Events that end on or before this date (default: 23:59:59 site time of the UTC date 24 months ahead, by PHP month arithmetic).',
      es: 'Eventos que terminan en esta fecha o antes (por defecto: las 23:59:59, hora del sitio, de la fecha UTC dentro de 24 meses, con la aritmética de meses de PHP).',
    },
    { shownDefault: 'list-end', untyped: true },
  ),
  starts_before: time(
    {
      en: 'Events that start before this date.',
      es: 'Eventos que empiezan antes de esta fecha.',
    },
    { untyped: true },
  ),
  starts_after: time(
    {
      en: 'Events that start after this date.',
      es: 'Eventos que empiezan después de esta fecha.',
    },
    { untyped: true },
  ),
  ends_before: time(
    {
      en: 'Events that end before this date.',
      es: 'Eventos que terminan antes de esta fecha.',
    },
    { untyped: true },
  ),
  ends_after: time(
    {
      en: 'Events that end after this date.',
      es: 'Eventos que terminan después de esta fecha.',
    },
    { untyped: true },
  ),
  strict_dates: {
    type: 'string',
    untyped: true,
    default: 'false',
    in: 'query',
    description: {
      en: 'When false, dates cover whole days; when true, the given times are used exactly.',
      es: 'Si es false, las fechas abarcan días completos; si es true, se usan las horas exactas.',
    },
    // TEC requires a non-empty string: JSON `true` is refused.
    schema: z.unknown().transform((v, ctx) => {
      if (typeof v !== 'string' || v.trim() === '') {
        ctx.addIssue({ code: 'custom', message: WHY.textBoolean });
        return z.NEVER;
      }
      return ['true', '1', 'yes', 'on'].includes(v.trim().toLowerCase());
    }),
  } satisfies ArgDef<boolean>,
  search: {
    type: 'string',
    in: 'query',
    description: {
      en: 'Events whose title or description contains this text.',
      es: 'Eventos cuyo título o descripción contiene este texto.',
    },
    maxLength: MAX_CHARS.search,
    schema: nonEmptyString,
  } satisfies ArgDef<string>,
  categories: termList(
    'Events in any of these event categories (ids or slugs).',
    'Eventos de cualquiera de estas categorías (ids o slugs).',
  ),
  tags: termList(
    'Events with any of these tags (ids or slugs).',
    'Eventos con cualquiera de estas etiquetas (ids o slugs).',
  ),
  venue: linkedIds('Events at any of these venue ids.', 'Eventos en cualquiera de estos lugares.'),
  organizer: linkedIds(
    'Events by any of these organizer ids.',
    'Eventos de cualquiera de estos organizadores.',
  ),
  featured: bool(
    'featured',
    'Only featured (true) or only not featured (false) events.',
    'Solo destacados (true) o solo no destacados (false).',
  ),
  status: statusList,
  // Events Calendar Pro's geolocation, done by the gateway (src/geo/): a point, a radius, the order by distance.
  ...geoListArgs({ en: 'events', es: 'eventos', byVenue: true }),
  include: linkedIds(
    'Only events with these ids; date filters are then ignored.',
    'Solo los eventos con estos ids; se ignoran los filtros de fecha.',
  ),
  post_parent: {
    type: 'integer',
    in: 'query',
    description: {
      en: 'Events whose parent is this event id.',
      es: 'Eventos cuyo padre es este id de evento.',
    },
    schema: positiveInt,
  } satisfies ArgDef<number>,
  series: {
    type: 'integer',
    in: 'query',
    description: {
      en: 'Only the occurrences of this series (the id of a recurring event you may read; another id is a 400).',
      es: 'Solo las repeticiones de esta serie (el id de un evento recurrente que puede leer; otro id es un 400).',
    },
    schema: positiveInt,
  } satisfies ArgDef<number>,
  hide_subsequent_recurrences: bool(
    'hide_subsequent_recurrences',
    'Only the first occurrence of each series in the window (true).',
    'Solo la primera repetición de cada serie en el intervalo (true).',
  ),
  ticketed: bool(
    'ticketed',
    'Events with (true) or without (false) tickets; needs Event Tickets.',
    'Eventos con (true) o sin (false) entradas; requiere Event Tickets.',
  ),
  // TEC reads `password` from any request: a listed protected event whose password matches is not blanked.
  password: {
    type: 'string',
    in: 'query',
    description: {
      en: 'The password of protected events to show in full.',
      es: 'La contraseña de los eventos protegidos que se muestran completos.',
    },
    // Accepted, not documented: the spec declares `password` only on single-event routes of the language root.
    roots: 'none',
    schema: nonEmptyString,
  } satisfies ArgDef<string>,
  multilang_language: language,
};
