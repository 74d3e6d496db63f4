// The element's words in English and Spanish; dates and times are left to Intl in the same locale.

export interface Strings {
  month: string;
  week: string;
  day: string;
  list: string;
  views: string;
  previous: string;
  next: string;
  today: string;
  filters: string;
  category: string;
  tag: string;
  venue: string;
  search: string;
  any: string;
  apply: string;
  clear: string;
  subscribe: string;
  subscribeApple: string;
  subscribeGoogle: string;
  feedUrl: string;
  timeZone: string;
  siteZone: string;
  viewerZone: string;
  loading: string;
  empty: string;
  emptyList: string;
  error: (what: string) => string;
  more: (n: number) => string;
  events: (n: number) => string;
  allDay: string;
  close: string;
  when: string;
  where: string;
  organizer: string;
  cost: string;
  map: string;
  addToCalendar: string;
  eventPage: string;
  canceled: string;
  postponed: string;
  recurring: string;
  loadMore: string;
  allDayRow: string;
  upcoming: string;
  retry: string;
}

const en: Strings = {
  month: 'Month',
  week: 'Week',
  day: 'Day',
  list: 'List',
  views: 'Views',
  previous: 'Previous',
  next: 'Next',
  today: 'Today',
  filters: 'Filters',
  category: 'Category',
  tag: 'Tag',
  venue: 'Venue',
  search: 'Search',
  any: 'Any',
  apply: 'Apply',
  clear: 'Clear',
  subscribe: 'Subscribe',
  subscribeApple: 'Apple Calendar, Outlook (webcal)',
  subscribeGoogle: 'Google Calendar',
  feedUrl: 'Feed URL',
  timeZone: 'Time zone',
  siteZone: "Site's",
  viewerZone: 'Mine',
  loading: 'Loading events…',
  empty: 'No events in this period.',
  emptyList: 'No upcoming events.',
  error: (what) => `The events could not be loaded: ${what}`,
  more: (n) => `+${n} more`,
  events: (n) => (n === 1 ? '1 event' : `${n} events`),
  allDay: 'All day',
  close: 'Close',
  when: 'When',
  where: 'Where',
  organizer: 'Organizer',
  cost: 'Cost',
  map: 'Map',
  addToCalendar: 'Add to calendar',
  eventPage: 'Event page',
  canceled: 'Canceled',
  postponed: 'Postponed',
  recurring: 'Repeats',
  loadMore: 'More events',
  allDayRow: 'All day',
  upcoming: 'Upcoming events',
  retry: 'Try again',
};

const es: Strings = {
  month: 'Mes',
  week: 'Semana',
  day: 'Día',
  list: 'Lista',
  views: 'Vistas',
  previous: 'Anterior',
  next: 'Siguiente',
  today: 'Hoy',
  filters: 'Filtros',
  category: 'Categoría',
  tag: 'Etiqueta',
  venue: 'Lugar',
  search: 'Buscar',
  any: 'Cualquiera',
  apply: 'Aplicar',
  clear: 'Quitar',
  subscribe: 'Suscribirse',
  subscribeApple: 'Apple Calendar, Outlook (webcal)',
  subscribeGoogle: 'Google Calendar',
  feedUrl: 'URL del feed',
  timeZone: 'Zona horaria',
  siteZone: 'La del sitio',
  viewerZone: 'La mía',
  loading: 'Cargando eventos…',
  empty: 'No hay eventos en este periodo.',
  emptyList: 'No hay próximos eventos.',
  error: (what) => `No se pudieron cargar los eventos: ${what}`,
  more: (n) => `${n} más`,
  events: (n) => (n === 1 ? '1 evento' : `${n} eventos`),
  allDay: 'Todo el día',
  close: 'Cerrar',
  when: 'Cuándo',
  where: 'Dónde',
  organizer: 'Organizador',
  cost: 'Precio',
  map: 'Mapa',
  addToCalendar: 'Añadir al calendario',
  eventPage: 'Página del evento',
  canceled: 'Cancelado',
  postponed: 'Aplazado',
  recurring: 'Se repite',
  loadMore: 'Más eventos',
  allDayRow: 'Todo el día',
  upcoming: 'Próximos eventos',
  retry: 'Reintentar',
};

/** The strings of a language tag (`es`, `es-MX` → Spanish; anything else → English). */
export const stringsFor = (lang: string): Strings => (lang.toLowerCase().startsWith('es') ? es : en);

/** The language of an API root: `…/es/wp-json` is Spanish, as the gateway's secondary language root. */
export function languageOfRoot(src: string): string | undefined {
  return /\/([a-z]{2}(?:-[a-z]{2})?)\/wp-json\/?$/i.exec(src)?.[1]?.toLowerCase();
}
