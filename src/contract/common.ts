// Arguments shared by many routes: paging, language, ids, dates.
import { z } from 'zod';
import {
  ACCEPTS,
  type ArgDef,
  anyString,
  boolean,
  type Described,
  list,
  nonEmptyString,
  positiveInt,
  timeValue,
  WHY,
} from './args.ts';

export const LANGUAGES = ['en', 'es'] as const;

export const language: ArgDef<string> = {
  type: 'string',
  enum: LANGUAGES,
  description: { en: 'The content language.', es: 'El idioma del contenido.' },
  schema: z.unknown().transform((v, ctx) => {
    if (typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v)) return v;
    ctx.addIssue({ code: 'custom', message: `multilang_language is not one of ${LANGUAGES.join(', ')}.` });
    return z.NEVER;
  }),
};

/**
 * `password` on a list (TEC reads it from any request): the protected records of the page it opens show in full, and
 * the filters may match the protected events it opens (issue 30). Declared so that the handler, the cache key and the
 * shareability decision read the same parsed value; accepted, not documented, as on the events list.
 */
export const listPassword: ArgDef<string> = {
  type: 'string',
  in: 'query',
  description: {
    en: 'The password of protected records to show in full.',
    es: 'La contraseña de los registros protegidos que se muestran completos.',
  },
  roots: 'none',
  schema: nonEmptyString,
};

export const page: ArgDef<number> = {
  type: 'integer',
  default: 1,
  in: 'query',
  description: { en: 'The archive page to return.', es: 'La página del archivo que se devuelve.' },
  schema: positiveInt,
};

export const MAX_PER_PAGE = 50;

export const perPage = (def = 10): ArgDef<number> => ({
  type: 'integer',
  default: def,
  in: 'query',
  description: {
    en: `The number of items to return per page (at most ${MAX_PER_PAGE}).`,
    es: `El número de elementos por página (como máximo ${MAX_PER_PAGE}).`,
  },
  schema: positiveInt.transform((n) => Math.min(n, MAX_PER_PAGE)),
});

export const idPath = (what: Described, schema = positiveInt): ArgDef<number> => ({
  type: 'integer',
  required: true,
  in: 'path',
  description: what,
  schema,
});

export const slugPath = (what: Described): ArgDef<string> => ({
  type: 'string',
  required: true,
  in: 'path',
  description: what,
  schema: anyString.refine((s) => s.length > 0, WHY.empty),
});

/** TEC's `is_time`: a number or any string strtotime understands. */
export const time = (
  description: ArgDef['description'],
  extra: Partial<Omit<ArgDef, 'schema'>> = {},
): ArgDef<string> => ({
  type: 'string',
  in: 'query',
  description,
  schema: timeValue,
  format: 'time',
  ...extra,
});

/** A string that must be one of `values` (an enum argument); the message lists them. */
export const oneOfStrings = (values: readonly string[]): z.ZodType<string> =>
  z
    .unknown()
    .refine((v) => typeof v === 'string' && values.includes(v), `must be one of: ${values.join(', ')}.`)
    .transform(String);

export const POST_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const;

/** The `status` body field of events, venues and organizers: one registered post status. */
export const postStatus: ArgDef<string> = {
  type: 'string',
  in: 'body',
  enum: POST_STATUSES,
  description: { en: 'The post status.', es: 'El estado de publicación.' },
  schema: oneOfStrings(POST_STATUSES),
};

/** A boolean argument, parsed as WordPress does (`rest_sanitize_boolean`). */
export const bool = (
  name: string,
  en: string,
  es: string,
  extra: Partial<Omit<ArgDef, 'schema'>> = {},
): ArgDef<boolean> => ({
  type: 'boolean',
  description: { en, es },
  accepts: ACCEPTS.boolean,
  schema: boolean(name),
  ...extra,
});

/** What /doc says an `image` on a write accepts: an attachment id, or an image URL to upload ('' removes it). */
export const IMAGE_ACCEPTS = { oneOf: [{ type: 'integer' }, { type: 'string' }] };

/** Terms on a write: ids, slugs or names (a new name makes a new term), as a list or a comma-separated string. */
export const TERMS_ACCEPTS = {
  oneOf: [
    { type: 'array', items: { oneOf: [{ type: 'integer' }, { type: 'string' }] } },
    { type: 'string' },
    { type: 'number' },
  ],
};

/**
 * A linked venue or organizer on an event write: an id (or ids as text, comma-separated; `''` or `0` removes it), an
 * object (`{id}` or a new one), or a list of them.
 */
export const linkedAccepts = (component: 'VenueInput' | 'OrganizerInput') => {
  const one = [{ type: 'integer' }, { type: 'string' }, { $ref: `#/components/schemas/${component}` }];
  return { oneOf: [...one, { type: 'array', items: { oneOf: one } }] };
};

/** Category or tag filters: ids, slugs or names, as a CSV or an array. */
export const termList = (en: string, es: string): ArgDef<string[]> => ({
  type: 'array',
  items: 'integer',
  csv: true,
  in: 'query',
  accepts: ACCEPTS.terms,
  description: { en, es },
  schema: list,
});
