// The event categories and event tags routes of calendar/events/v1 (TEC's Archive/Single Category and Tag).
import { z } from 'zod';
import {
  ACCEPTS,
  type ArgDef,
  anyString,
  boolean,
  type Described,
  list,
  MAX_CHARS,
  nonEmptyString,
  positiveInt,
  WHY,
} from './args.ts';
import { idPath, language, listPassword, page, perPage } from './common.ts';
import { categoryRecord, tagRecord, writeArgsOf } from './records.ts';
import { CREATABLE, DELETABLE, EDITABLE, READABLE, type RouteContract, route } from './route.ts';

export type TermKind = 'categories' | 'tags';

/** English and Spanish names of each kind, for descriptions. */
const NAMES: Record<TermKind, { one: Described; many: Described }> = {
  categories: {
    one: { en: 'event category', es: 'categoría de eventos' },
    many: { en: 'event categories', es: 'categorías de eventos' },
  },
  tags: {
    one: { en: 'event tag', es: 'etiqueta de eventos' },
    many: { en: 'event tags', es: 'etiquetas de eventos' },
  },
};

const ORDERS = ['asc', 'desc'] as const;

const termRefs = (en: string, es: string): ArgDef<string[]> => ({
  type: 'array',
  items: 'integer',
  csv: true,
  in: 'query',
  accepts: ACCEPTS.terms,
  description: { en, es },
  schema: list.refine((items) => items.length > 0, WHY.someItems),
});

const existingId = (description: Described, where: 'query' | 'body'): ArgDef<number> => ({
  type: 'integer',
  in: where,
  description,
  schema: positiveInt,
});

export function listTermsArgs(kind: TermKind) {
  const n = NAMES[kind].many;
  const args = {
    page,
    per_page: perPage(10),
    search: {
      type: 'string',
      in: 'query',
      description: {
        en: `Limits the ${n.en} to those matching this text.`,
        es: `Limita las ${n.es} a las que coinciden con este texto.`,
      },
      maxLength: MAX_CHARS.search,
      schema: anyString,
    } satisfies ArgDef<string>,
    exclude: termRefs(
      `Leaves out these ${n.en} (ids or slugs; each must exist).`,
      `Excluye estas ${n.es} (ids o slugs; cada una debe existir).`,
    ),
    include: termRefs(
      `Limits the result to these ${n.en} (ids or slugs; each must exist).`,
      `Limita el resultado a estas ${n.es} (ids o slugs; cada una debe existir).`,
    ),
    order: {
      type: 'string',
      in: 'query',
      enum: ORDERS,
      // In any case, as the parser lowercases it.
      accepts: { type: 'string', pattern: '^([Aa][Ss][Cc]|[Dd][Ee][Ss][Cc])$' },
      default: 'asc',
      description: { en: 'Sort direction.', es: 'Sentido de la ordenación.' },
      schema: z.unknown().transform((v, ctx) => {
        const s = typeof v === 'string' ? v.toLowerCase() : '';
        if ((ORDERS as readonly string[]).includes(s)) return s;
        ctx.addIssue({ code: 'custom', message: `order is not one of ${ORDERS.join(', ')}.` });
        return z.NEVER;
      }),
    } satisfies ArgDef<string>,
    orderby: {
      type: 'string',
      in: 'query',
      default: 'name',
      description: {
        en: 'Sort field (id, include, name, slug, include_slugs, term_group, description or count).',
        es: 'Campo de ordenación (id, include, name, slug, include_slugs, term_group, description o count).',
      },
      schema: nonEmptyString,
    } satisfies ArgDef<string>,
    hide_empty: {
      type: 'boolean',
      in: 'query',
      default: true,
      accepts: ACCEPTS.boolean,
      description: {
        en: `Whether to hide ${n.en} not assigned to anything.`,
        es: `Si se ocultan las ${n.es} sin elementos asignados.`,
      },
      schema: boolean('hide_empty'),
    } satisfies ArgDef<boolean>,
    post: existingId(
      { en: `Only the ${n.en} of this event id.`, es: `Solo las ${n.es} de este id de evento.` },
      'query',
    ),
    event: existingId({ en: 'Alias of post.', es: 'Alias de post.' }, 'query'),
    password: listPassword,
    slug: {
      type: 'array',
      items: 'string',
      csv: true,
      in: 'query',
      description: {
        en: `Limits the result to the ${n.en} with these slugs.`,
        es: `Limita el resultado a las ${n.es} con estos slugs.`,
      },
      schema: list.refine((items) => items.length > 0, WHY.someItems),
    } satisfies ArgDef<string[]>,
    multilang_language: language,
  };
  return kind === 'categories' ? { ...args, parent: parentArg('query') } : args;
}

function parentArg(where: 'query' | 'body'): ArgDef<number> {
  return existingId(
    where === 'query'
      ? { en: 'Only the children of this event category id.', es: 'Solo las hijas de este id de categoría.' }
      : { en: 'The parent event category id.', es: 'El id de la categoría de eventos madre.' },
    where,
  );
}

/** The write arguments: the term record's write fields. */
export function termWriteArgs<K extends TermKind>(kind: K, create: boolean) {
  const record = kind === 'categories' ? categoryRecord : tagRecord;
  return { ...writeArgsOf(record, create), multilang_language: language };
}

function termRoutes(kind: TermKind) {
  const { one, many } = NAMES[kind];
  const id = idPath({ en: `The ${one.en} term id.`, es: `El id de término de la ${one.es}.` });
  const base = `/${kind}`;
  const single = `/${kind}/(?P<id>\\d+)`;
  const path = `/${kind}/{id}`;
  const record = kind === 'categories' ? categoryRecord : tagRecord;
  // Every route but the list answers (or wrote) one term.
  const oneTerm = { record };
  return {
    list: route({
      id: `${kind}.list`,
      pattern: base,
      path: base,
      methods: READABLE,
      summary: {
        en: `Returns the ${many.en} matching the query.`,
        es: `Devuelve las ${many.es} que cumplen la consulta.`,
      },
      args: listTermsArgs(kind),
      returns: { record, list: kind },
    }),
    create: route({
      id: `${kind}.create`,
      pattern: base,
      path: base,
      methods: CREATABLE,
      summary: { en: `Creates an ${one.en}.`, es: `Crea una ${one.es}.` },
      args: termWriteArgs(kind, true),
      returns: oneTerm,
    }),
    read: route({
      id: `${kind}.read`,
      pattern: single,
      path,
      methods: READABLE,
      summary: { en: `Returns one ${one.en}.`, es: `Devuelve una ${one.es}.` },
      args: { id, multilang_language: language },
      returns: oneTerm,
    }),
    update: route({
      id: `${kind}.update`,
      pattern: single,
      path,
      methods: EDITABLE,
      summary: {
        en: `Updates the fields sent of an ${one.en}.`,
        es: `Actualiza los campos enviados de una ${one.es}.`,
      },
      args: { id, ...termWriteArgs(kind, false) },
      returns: oneTerm,
    }),
    delete: route({
      id: `${kind}.delete`,
      pattern: single,
      path,
      methods: DELETABLE,
      summary: { en: `Deletes an ${one.en} permanently.`, es: `Borra una ${one.es} para siempre.` },
      args: { id, multilang_language: language },
      returns: oneTerm,
    }),
  } satisfies Record<string, RouteContract>;
}

export const categoryRoutes = termRoutes('categories');
export const tagRoutes = termRoutes('tags');
export type TermRoutes = typeof categoryRoutes;
