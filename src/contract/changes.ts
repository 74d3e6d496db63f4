// The changes feed of calendar/events/v1 (no TEC counterpart): what changed since a cursor, deletions included.
import { z } from 'zod';
import { type ArgDef, anyString, positiveInt } from './args.ts';
import { language } from './common.ts';
import { READABLE, route } from './route.ts';

export const CHANGES_MAX_LIMIT = 500;
export const CHANGES_MAX_TIMEOUT = 60;
export const FEEDS = ['normal', 'longpoll'] as const;

const since: ArgDef<string> = {
  type: 'string',
  in: 'query',
  description: {
    en: 'The cursor to read on from: the `next` of the previous answer. `0` or none: an initial sync (what exists now, then the changes from there).',
    es: 'El cursor desde el que se sigue leyendo: el `next` de la respuesta anterior. `0` o nada: una sincronización inicial (lo que existe ahora y después los cambios desde ahí).',
  },
  schema: anyString,
};

const limit: ArgDef<number> = {
  type: 'integer',
  default: 100,
  in: 'query',
  description: {
    en: `The most items to return (at most ${CHANGES_MAX_LIMIT}).`,
    es: `El número máximo de elementos que se devuelven (como máximo ${CHANGES_MAX_LIMIT}).`,
  },
  schema: positiveInt.transform((n) => Math.min(n, CHANGES_MAX_LIMIT)),
};

const feed: ArgDef<(typeof FEEDS)[number]> = {
  type: 'string',
  enum: FEEDS,
  default: 'normal',
  in: 'query',
  description: {
    en: '`longpoll`: when nothing changed after the cursor, wait up to `timeout` seconds for the next change.',
    es: '`longpoll`: si nada cambió después del cursor, espera hasta `timeout` segundos al siguiente cambio.',
  },
  schema: z.enum(FEEDS, { message: `must be one of ${FEEDS.join(', ')}.` }),
};

const timeout: ArgDef<number> = {
  type: 'integer',
  default: 30,
  in: 'query',
  description: {
    en: `How long a long poll waits, in seconds (at most ${CHANGES_MAX_TIMEOUT}).`,
    es: `Cuánto espera un sondeo largo, en segundos (como máximo ${CHANGES_MAX_TIMEOUT}).`,
  },
  schema: positiveInt.transform((n) => Math.min(n, CHANGES_MAX_TIMEOUT)),
};

export const changesRoutes = {
  changes: route({
    id: 'changes.list',
    pattern: '/changes',
    path: '/changes',
    methods: READABLE,
    summary: {
      en: 'Returns what was created, updated or deleted since a cursor (events, venues, organizers, categories, tags), in commit order, as the caller may see it. With Accept: text/event-stream, streams the changes as server-sent events.',
      es: 'Devuelve lo creado, modificado o borrado desde un cursor (eventos, lugares, organizadores, categorías, etiquetas), en el orden en que se guardó, tal como quien llama puede verlo. Con Accept: text/event-stream, envía los cambios como eventos del servidor.',
    },
    args: { since, limit, feed, timeout, multilang_language: language },
    response: {
      type: 'object',
      required: ['items', 'next', 'has_more'],
      properties: {
        items: {
          type: 'array',
          items: {
            type: 'object',
            required: ['kind', 'id', 'action', 'modified_utc', 'rest_url', 'tags'],
            properties: {
              kind: { type: 'string', enum: ['event', 'venue', 'organizer', 'category', 'tag'] },
              id: { type: 'integer', description: 'The record id.' },
              action: { type: 'string', enum: ['created', 'updated', 'deleted'] },
              modified_utc: {
                type: 'string',
                nullable: true,
                description:
                  "When it changed (UTC, Y-m-d H:i:s): the record's modified date, or the time of a deletion; null for a category or tag in an initial sync.",
              },
              rest_url: { type: 'string', description: 'The record in this API.' },
              tags: {
                type: 'array',
                items: { type: 'string' },
                description: 'The cache tags to revalidate (the names of the Cache-Tag / xkey headers).',
              },
            },
          },
        },
        next: { type: 'string', description: 'The cursor to read on from (opaque).' },
        has_more: { type: 'boolean', description: 'Whether more can be read now, without waiting.' },
      },
    },
    events: {
      en: 'Server-sent events: each change as `event: change`, its cursor as `id` (send it back as Last-Event-ID to resume) and the item as JSON `data`; a `: heartbeat` comment every 15 seconds.',
      es: 'Eventos del servidor: cada cambio como `event: change`, su cursor como `id` (se devuelve en Last-Event-ID para continuar) y el elemento en JSON como `data`; un comentario `: heartbeat` cada 15 segundos.',
    },
  }),
};
