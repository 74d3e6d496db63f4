// The venues and organizers routes of calendar/events/v1 (tec-contract.md §1.4): list, create, read/update/delete.

import { z } from 'zod';
import { geoListArgs } from '../geo/args.ts';
import {
  ACCEPTS,
  type ArgDef,
  type ArgsShape,
  looseBool,
  MAX_CHARS,
  nonEmptyString,
  positiveInt,
  WHY,
} from './args.ts';
import { idPath, language, listPassword, page, perPage, slugPath } from './common.ts';
import { organizerRecord, venueRecord, writeArgsOf } from './records.ts';
import { CREATABLE, DELETABLE, EDITABLE, READABLE, type RouteContract, route } from './route.ts';

export type LinkedKind = 'venue' | 'organizer';

/** English and Spanish nouns of each kind, for descriptions. */
const NOUN: Record<LinkedKind, { en: string; es: string; enPlural: string; esPlural: string }> = {
  venue: { en: 'venue', es: 'lugar', enPlural: 'venues', esPlural: 'lugares' },
  organizer: { en: 'organizer', es: 'organizador', enPlural: 'organizers', esPlural: 'organizadores' },
};

const flag = (en: string, es: string, extra: Partial<Omit<ArgDef, 'schema'>> = {}): ArgDef<boolean> => ({
  type: 'boolean',
  in: 'query',
  accepts: ACCEPTS.looseBoolean,
  description: { en, es },
  schema: looseBool,
  ...extra,
});

export const linkedListArgs = (kind: LinkedKind) => {
  const n = NOUN[kind];
  const searched =
    kind === 'venue'
      ? {
          en: 'address, city, province, state, zip or phone',
          es: 'dirección, ciudad, provincia, estado, código postal o teléfono',
        }
      : { en: 'phone, e-mail or website', es: 'teléfono, correo electrónico o sitio web' };
  return {
    page,
    per_page: perPage(10),
    search: {
      type: 'string',
      in: 'query',
      description: {
        en: `${cap(n.enPlural)} whose name, description, excerpt, ${searched.en} contains this text.`,
        es: `${cap(n.esPlural)} cuyo nombre, descripción, extracto, ${searched.es} contiene este texto.`,
      },
      maxLength: MAX_CHARS.search,
      schema: nonEmptyString,
    } satisfies ArgDef<string>,
    event: {
      type: 'integer',
      in: 'query',
      description: {
        en: `Only the ${n.enPlural} linked to this event id.`,
        es: `Solo los ${n.esPlural} vinculados a este id de evento.`,
      },
      schema: positiveInt,
    } satisfies ArgDef<number>,
    has_events: flag(
      `Truthy: only ${n.enPlural} linked to at least one event that is not a draft or pending; falsy: only ${n.enPlural} linked to no event.`,
      `Verdadero: solo ${n.esPlural} vinculados a algún evento que no sea borrador ni pendiente; falso: solo ${n.esPlural} sin eventos.`,
    ),
    only_with_upcoming: flag(
      `Only ${n.enPlural} linked to an upcoming event (false disables the filter).`,
      `Solo ${n.esPlural} vinculados a un evento próximo (false desactiva el filtro).`,
      { default: false },
    ),
    status: {
      type: 'string',
      in: 'query',
      accepts: ACCEPTS.statuses,
      description: {
        en: `The ${n.en} post status (CSV or array); only \`publish\` for callers who cannot edit ${n.enPlural}.`,
        es: `El estado de publicación del ${n.es} (CSV o lista); solo \`publish\` para quien no puede editar ${n.esPlural}.`,
      },
      schema: z.unknown().transform((v, ctx) => {
        const raw = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : null;
        const items = raw?.map((x) => String(x).trim()).filter((x) => x !== '') ?? [];
        if (!raw || items.length === 0) {
          ctx.addIssue({ code: 'custom', message: WHY.someItems });
          return z.NEVER;
        }
        return items;
      }),
    } satisfies ArgDef<string[]>,
    // Venues only: Events Calendar Pro's geolocation, on the venues themselves (src/geo/).
    ...(kind === 'venue' ? geoListArgs({ en: 'venues', es: 'lugares', byVenue: false }) : {}),
    password: listPassword,
    multilang_language: language,
  };
};

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Arguments of create (`create` = true: the name is required) and update: the record's write fields. */
export const linkedWriteArgs = (kind: LinkedKind, create: boolean) => ({
  ...writeArgsOf(kind === 'venue' ? venueRecord : organizerRecord, create),
  multilang_language: language,
});

/** The eight routes of one kind, in TEC's documentation order. */
function linkedRoutes(kind: LinkedKind): Record<string, RouteContract<ArgsShape>> {
  const n = NOUN[kind];
  const base = `/${n.enPlural}`;
  const id = idPath({ en: `The ${n.en} id.`, es: `El id del ${n.es}.` });
  const slug = slugPath({ en: `The ${n.en} slug.`, es: `El slug del ${n.es}.` });
  const byId = { pattern: `${base}/(?P<id>\\d+)`, path: `${base}/{id}` };
  const bySlug = { pattern: `${base}/by-slug/(?P<slug>[^/]+)`, path: `${base}/by-slug/{slug}` };
  const record = kind === 'venue' ? venueRecord : organizerRecord;
  // Every route but the list answers (or wrote) one record.
  const one = { record };
  return {
    list: route({
      id: `${n.enPlural}.list`,
      pattern: base,
      path: base,
      methods: READABLE,
      summary: {
        en: `Returns the ${n.enPlural} matching the query.`,
        es: `Devuelve los ${n.esPlural} que cumplen la consulta.`,
      },
      args: linkedListArgs(kind),
      returns: { record, list: n.enPlural },
    }),
    create: route({
      id: `${n.enPlural}.create`,
      pattern: base,
      path: base,
      methods: CREATABLE,
      summary: {
        en: `Creates a ${n.en} (or returns an identical existing one).`,
        es: `Crea un ${n.es} (o devuelve uno idéntico existente).`,
      },
      args: linkedWriteArgs(kind, true),
      returns: one,
    }),
    read: route({
      id: `${n.enPlural}.read`,
      ...byId,
      methods: READABLE,
      summary: { en: `Returns one ${n.en}.`, es: `Devuelve un ${n.es}.` },
      args: { id, multilang_language: language },
      returns: one,
    }),
    update: route({
      id: `${n.enPlural}.update`,
      ...byId,
      methods: EDITABLE,
      summary: {
        en: `Updates the fields sent of a ${n.en}.`,
        es: `Actualiza los campos enviados de un ${n.es}.`,
      },
      args: { id, ...linkedWriteArgs(kind, false) },
      returns: one,
    }),
    delete: route({
      id: `${n.enPlural}.delete`,
      ...byId,
      methods: DELETABLE,
      summary: { en: `Moves a ${n.en} to the trash.`, es: `Mueve un ${n.es} a la papelera.` },
      args: { id, multilang_language: language },
      returns: one,
    }),
    readBySlug: route({
      id: `${n.enPlural}.readBySlug`,
      ...bySlug,
      methods: READABLE,
      summary: { en: `Returns one ${n.en} by its slug.`, es: `Devuelve un ${n.es} por su slug.` },
      args: { slug, multilang_language: language },
      returns: one,
    }),
    updateBySlug: route({
      id: `${n.enPlural}.updateBySlug`,
      ...bySlug,
      methods: EDITABLE,
      summary: {
        en: `Updates a ${n.en} found by its slug.`,
        es: `Actualiza un ${n.es} encontrado por su slug.`,
      },
      args: { slug, ...linkedWriteArgs(kind, false) },
      returns: one,
    }),
    deleteBySlug: route({
      id: `${n.enPlural}.deleteBySlug`,
      ...bySlug,
      methods: DELETABLE,
      summary: {
        en: `Moves a ${n.en} found by its slug to the trash.`,
        es: `Mueve a la papelera un ${n.es} encontrado por su slug.`,
      },
      args: { slug, multilang_language: language },
      returns: one,
    }),
  };
}

export const venueRoutes = linkedRoutes('venue');
export const organizerRoutes = linkedRoutes('organizer');
