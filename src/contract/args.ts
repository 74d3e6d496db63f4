// Argument definitions as WordPress's REST server applies them: required, then validate, then sanitise.
import { z } from 'zod';

/** JSON types as WordPress's discovery and TEC's documentation name them. */
export type ArgType = 'integer' | 'number' | 'string' | 'boolean' | 'array' | 'object';

export interface Described {
  en: string;
  es: string;
}

export interface ArgDef<T = unknown> {
  type: ArgType;
  /** For arrays: the type of the items. */
  items?: ArgType;
  description: Described;
  required?: boolean;
  /** Default applied when the argument is absent (documented as given). */
  default?: unknown;
  enum?: readonly string[];
  /** Whether the documentation shows the argument as a CSV list (`style: form, explode: false`). */
  csv?: boolean;
  /** Where TEC documents it. */
  in?: 'query' | 'path' | 'body';
  /**
   * Where discovery and /doc show the argument: absent, on every root; `secondary`, only on the language root;
   * `none`, nowhere (TEC reads it from the raw request without declaring it). Parsing is the same on every root.
   */
  roots?: 'secondary' | 'none';
  /**
   * A default that the handler computes at request time (e.g. the date window), shown in discovery and /doc as its
   * value now. Never applied by `parseArgs`.
   */
  shownDefault?: ShownDefault;
  /** TEC declares no `type` (only a Swagger type): discovery then shows none; /doc still documents `type`. */
  untyped?: boolean;
  /**
   * What /doc shows when the argument accepts more than TEC's declared `type` (ids or slugs, numbers as text, nested
   * objects): an OpenAPI schema, often one of {@link ACCEPTS}; `$ref`s name the document's component schemas.
   * Discovery keeps TEC's `type`.
   */
  accepts?: Record<string, unknown>;
  /**
   * A check the parser makes after `schema`, on its string result, with the date and media code it names (so that
   * the contract stays data): `time` what PHP's strtotime reads, `timezone` a zone name or UTC offset (or empty),
   * `image` an attachment id or an image URL (or empty). /doc shows it as the schema's `format`.
   */
  format?: ArgFormat;
  /**
   * A realistic value of a body argument (a date like `2027-06-12 20:00:00`, a nested venue): /doc shows it on the
   * property and puts it in the write's example body, which the reference page sends as it is. It must pass `schema`
   * and the handler (test/integration/doc-examples.test.ts sends every example body).
   */
  example?: unknown;
  /** The longest string the argument takes, when its kind's bound ({@link MAX_CHARS}) does not fit it. */
  maxLength?: number;
  /**
   * Checks and converts the raw value (string from a query, any JSON value from a body). The zod issue
   * message becomes the parameter's message in `data.params`.
   */
  schema: z.ZodType<T>;
}

export type ArgFormat = 'time' | 'timezone' | 'image';

/**
 * What /doc says an argument takes when it is wider than its `type` (`accepts`): OpenAPI schemas of the values the
 * parsers below take, so that the reference page and the typed client generated from /doc accept them too
 * (src/discovery/openapi-args.test.ts checks every argument against its parser).
 */
export const ACCEPTS = {
  /** WordPress's boolean: true/false, 1/0, or their text in any case. */
  boolean: {
    anyOf: [
      { type: 'boolean' },
      { type: 'integer', enum: [0, 1] },
      { type: 'string', pattern: '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|1|0)$' },
    ],
  },
  /** TEC's loose flag: a boolean, or any number or text (truthy unless `0`, `false`, `no`, `off` or empty). */
  looseBoolean: { anyOf: [{ type: 'boolean' }, { type: 'number' }, { type: 'string' }] },
  /** A text field of a write: a string, or a number taken as its text. */
  text: { anyOf: [{ type: 'string' }, { type: 'number' }] },
  /** An id of a write: a number or its text. */
  id: { anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^\\s*-?\\d+\\s*$' }] },
  /**
   * Terms of a filter: a list of ids or slugs. The list of texts first, which says the same of a query string, is the
   * branch the reference page (Swagger UI) draws its inputs from: it draws none for a list of mixed items.
   */
  terms: {
    anyOf: [
      { type: 'array', items: { type: 'string' } },
      { type: 'array', items: { anyOf: [{ type: 'integer' }, { type: 'string' }] } },
    ],
  },
  /** Post statuses: one, comma-separated ones, or a list. */
  statuses: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
} as const;

/**
 * The longest string (in characters) each kind of argument takes. The parser checks it before the argument's schema
 * and format see the value, so a megabyte never reaches the date parser (whose cost grows with its input: 1.3 s for
 * 1 MB, at most 0.5 ms at 256 characters) or the search. Each is far above what a person or a client sends, and none
 * cuts content WordPress keeps.
 */
export const MAX_CHARS = {
  /** A strtotime phrase: the longest a person writes ("last day of next month 18:00 Europe/Madrid") is ~50. */
  time: 256,
  /** A zone name (the longest, `America/Argentina/ComodRivadavia`, has 32) or a UTC offset. */
  timezone: 64,
  /** An attachment id or an image URL (2048: what browsers and proxies are sure to keep). */
  image: 2048,
  /** Text to find. WordPress splits it into at most 9 terms, else searches the whole text as one phrase. */
  search: 500,
  /** A slug in a path: WordPress's `post_name` and term slug columns hold 200. */
  slug: 200,
  /**
   * Every other string: titles, descriptions, addresses, costs. WordPress keeps post content up to its body limit,
   * so this is the gateway's body limit (1 MB) and cuts nothing a body could carry.
   */
  text: 1_000_000,
} as const;

/**
 * Defaults that discovery computes when it describes a route: `null` (TEC's `'default' => null` on write fields,
 * shown and never applied), and the list's `start_date` and `end_date` as TEC shows them now.
 */
export type ShownDefault = 'null' | 'list-start' | 'list-end';

export type ArgsShape = Record<string, ArgDef>;
export type ArgsOf<S extends ArgsShape> = { [K in keyof S]?: S[K] extends ArgDef<infer T> ? T : never };

export const INVALID = 'Invalid parameter.';

/**
 * Why a value was refused, said after the parameter's name in `data.params` (WordPress's own messages read the same
 * way: "page must be between 1 (inclusive) and …"). `parseArgs` puts the name in front.
 */
export const WHY = {
  positive: 'must be a whole number greater than 0.',
  nonNegative: 'must be a whole number, 0 or more.',
  string: 'must be a string.',
  empty: 'must not be empty.',
  scalar: 'must be a string or a number.',
  list: 'must be a comma-separated list, or an array of strings and numbers.',
  ids: 'must list ids: whole numbers greater than 0, comma-separated or as an array.',
  someItems: 'must list at least one value.',
  time: "must be a date or time PHP's strtotime understands (2030-01-31 18:00, 2030-01-31T18:00:00Z, tomorrow 9am).",
  url: 'must be a URL (https://…).',
  image: 'must be an attachment id or the URL of an image.',
  timezone: 'must be a time zone such as Europe/Madrid or UTC+2.',
  textBoolean: 'must be true or false, sent as text.',
  flag: 'must be true or false, a number or a text.',
} as const;

/** Whole number > 0 given as a number or a numeric string (TEC's `is_positive_int`). */
export const positiveInt = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const s = String(v).trim();
  if (!/^\d+$/.test(s) || Number(s) <= 0) {
    ctx.addIssue({ code: 'custom', message: WHY.positive });
    return z.NEVER;
  }
  return Number(s);
});

/** An id where TEC answers `0` as a missing record (404) rather than a bad parameter. */
export const nonNegativeInt = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const s = String(v).trim();
  if (!/^\d+$/.test(s) || Number(s) < 0) {
    ctx.addIssue({ code: 'custom', message: WHY.nonNegative });
    return z.NEVER;
  }
  return Number(s);
});

/** WordPress's integer cast: `"12"` and `12` pass, anything else "is not of type integer." */
export const integer = (name: string) =>
  z.union([z.number(), z.string()]).transform((v, ctx) => {
    const s = String(v).trim();
    if (!/^-?\d+$/.test(s)) {
      ctx.addIssue({ code: 'custom', message: `${name} is not of type integer.` });
      return z.NEVER;
    }
    return Number(s);
  });

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off', '']);

/** WordPress's boolean: true/false/"true"/"false"/"1"/"0"/1/0. */
export const boolean = (name: string) =>
  z.unknown().transform((v, ctx) => {
    if (typeof v === 'boolean') return v;
    if (v === 1 || v === 0) return v === 1;
    if (typeof v === 'string') {
      const s = v.toLowerCase();
      if (s === 'true' || s === '1') return true;
      if (s === 'false' || s === '0') return false;
    }
    ctx.addIssue({ code: 'custom', message: `${name} is not of type boolean.` });
    return z.NEVER;
  });

/** TEC's truthy parse of loose flags (`has_events`, `only_with_upcoming`, venue `show_map`): any scalar. */
export const looseBool = z.unknown().transform((v, ctx) => {
  if (typeof v === 'boolean') return v;
  if (v !== null && typeof v === 'object') {
    ctx.addIssue({ code: 'custom', message: WHY.flag });
    return z.NEVER;
  }
  if (typeof v === 'number') return v !== 0;
  const s = String(v ?? '')
    .toLowerCase()
    .trim();
  if (FALSE.has(s)) return false;
  return TRUE.has(s) || s.length > 0;
});

/** The longest string `def` takes: its own bound, else its format's, a path's (a slug) or any text's. */
export const maxLengthOf = (def: ArgDef): number =>
  def.maxLength ?? (def.format ? MAX_CHARS[def.format] : def.in === 'path' ? MAX_CHARS.slug : MAX_CHARS.text);

/**
 * The shortest string `def` takes: 1 when its schema refuses the empty string (a title, a search, a date), else 0.
 * Read from the schema itself, so /doc says what the parser does.
 */
export const minLengthOf = (def: ArgDef): number => (def.schema.safeParse('').success ? 0 : 1);

/** A non-empty string (TEC rejects `search=` and empty titles). */
export const nonEmptyString = z.unknown().transform((v, ctx) => {
  // TEC's `is_string`: a JSON number is refused (query and form values always arrive as strings).
  if (typeof v !== 'string') {
    ctx.addIssue({ code: 'custom', message: WHY.string });
    return z.NEVER;
  }
  const s = v;
  if (s.trim() === '') {
    ctx.addIssue({ code: 'custom', message: WHY.empty });
    return z.NEVER;
  }
  return s;
});

/** Any string (possibly empty); numbers are accepted as their text. */
export const anyString = z.unknown().transform((v, ctx) => {
  if (v === null) return '';
  if (typeof v !== 'string' && typeof v !== 'number') {
    ctx.addIssue({ code: 'custom', message: WHY.scalar });
    return z.NEVER;
  }
  return String(v);
});

/** A CSV string or an array of scalars, as a list of trimmed non-empty strings. */
export const list = z.unknown().transform((v, ctx) => {
  const raw = Array.isArray(v)
    ? v
    : typeof v === 'string' || typeof v === 'number'
      ? String(v).split(',')
      : null;
  if (!raw || raw.some((x) => typeof x !== 'string' && typeof x !== 'number')) {
    ctx.addIssue({ code: 'custom', message: WHY.list });
    return z.NEVER;
  }
  return raw.map((x) => String(x).trim()).filter((x) => x !== '');
});

/** A CSV or array of positive integers (TEC's `include`). */
export const idList = list.transform((items, ctx) => {
  if (items.length === 0 || items.some((x) => !/^\d+$/.test(x) || Number(x) <= 0)) {
    ctx.addIssue({ code: 'custom', message: WHY.ids });
    return z.NEVER;
  }
  return items.map(Number);
});

/** TEC's `is_time` before the strtotime check (`format: 'time'`): a number or a non-empty string, as text. */
export const timeValue = z.unknown().transform((v, ctx) => {
  if ((typeof v === 'string' && v.trim() !== '') || typeof v === 'number') return String(v);
  ctx.addIssue({ code: 'custom', message: WHY.time });
  return z.NEVER;
});
