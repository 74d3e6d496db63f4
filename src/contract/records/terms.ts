// The event category and tag descriptors: the WordPress terms controller's item as TEC renames it.

import { ACCEPTS, positiveInt } from '../args.ts';
import { field, type JsonSchema, type Noun, named, type RecordDescriptor, s, text } from './fields.ts';
import { tecRecord } from './tec-order.ts';

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
    termField(
      'meta',
      "The term's public meta (what the site registers for REST), or an empty list; never the gateway's own.",
      'Los metadatos públicos del término (los que el sitio registra para REST), o una lista vacía; nunca los de la pasarela.',
      {
        oneOf: [
          { type: 'object', additionalProperties: true },
          { type: 'array', items: {}, maxItems: 0 },
        ],
      },
    ),
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
  return tecRecord({ kind, component: 'Term', dropEmpty: false, tec: fields }) satisfies RecordDescriptor;
}

export const categoryRecord = termDescriptor('categories');
export const tagRecord = termDescriptor('tags');
