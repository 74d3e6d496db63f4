// Reads calendar field values out of a wp/v2 post and writes them back, as the mapping's storage formats say.
import type { MetaValue, WpPost } from '../wp/types.ts';
import type { FieldSource, Mapping, PostField, ResourceKind, StorageFormat } from './schema.ts';

export type FieldValue = string | number | boolean | null | number[] | string[];

/** `2026-11-22T10:00:00` (wp/v2) → `2026-11-22 10:00:00` (TEC). */
export const fromWpDate = (v: unknown): string =>
  typeof v === 'string' && v ? v.replace('T', ' ').slice(0, 19) : '';
/** `2026-11-22 10:00:00` → `2026-11-22T10:00:00`. */
export const toWpDate = (v: string): string => v.replace(' ', 'T');

function readPostField(post: WpPost, field: PostField): FieldValue {
  const v = post[field];
  switch (field) {
    case 'title':
    case 'content':
    case 'excerpt': {
      const r = v as { raw?: string; rendered?: string } | undefined;
      return r?.raw ?? r?.rendered ?? '';
    }
    case 'date':
    case 'date_gmt':
    case 'modified':
    case 'modified_gmt':
      return fromWpDate(v) || null;
    case 'author':
    case 'featured_media':
    case 'menu_order':
    case 'parent':
      return typeof v === 'number' ? v : 0;
    default:
      return typeof v === 'string' ? v : '';
  }
}

const present = (v: MetaValue | undefined): boolean =>
  v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

/** Decodes one stored meta value. `null` means "not set" for scalar formats. */
export function decodeMeta(v: MetaValue | undefined, format: StorageFormat, def?: FieldValue): FieldValue {
  switch (format) {
    case 'yes-flag':
      return v === 'yes' || v === '1' || v === 1 || v === true;
    case 'one-flag':
      return v === '1' || v === 1 || v === true || v === 'yes';
    case 'bool':
      if (v === undefined || v === null) return def ?? false;
      return !(v === '' || v === '0' || v === 0 || v === false || v === 'false');
    case 'int': {
      const first = Array.isArray(v) ? v[0] : v;
      const n = Number(first);
      return present(first) && Number.isInteger(n) && n > 0 ? n : null;
    }
    case 'int-list': {
      const list = Array.isArray(v) ? v : present(v) ? [v as string | number] : [];
      return list.map(Number).filter((n) => Number.isInteger(n) && n > 0);
    }
    case 'string-list': {
      const list = Array.isArray(v) ? v : present(v) ? [v as string] : [];
      return list.map(String);
    }
    case 'decimal': {
      const first = Array.isArray(v) ? v[0] : v;
      const n = typeof first === 'number' || typeof first === 'string' ? Number(first) : Number.NaN;
      return present(first) && Number.isFinite(n) ? n : null;
    }
    default: {
      const first = Array.isArray(v) ? v[0] : v;
      return present(first) ? String(first) : def === undefined ? null : def;
    }
  }
}

/** Encodes one calendar value into the stored meta value (`null` deletes the row through wp/v2). */
export function encodeMeta(v: FieldValue, format: StorageFormat): MetaValue {
  switch (format) {
    case 'yes-flag':
      return v ? 'yes' : null;
    case 'one-flag':
      return v ? '1' : null;
    case 'bool':
      return v ? '1' : '';
    case 'int': {
      const n = Number(Array.isArray(v) ? v[0] : v);
      return Number.isInteger(n) && n > 0 ? n : null;
    }
    case 'int-list':
      return (Array.isArray(v) ? v : v == null ? [] : [v])
        .map(Number)
        .filter((n) => Number.isInteger(n) && n > 0);
    case 'string-list':
      return (Array.isArray(v) ? v : v == null ? [] : [v]).map(String);
    case 'decimal': {
      const n = typeof v === 'number' || typeof v === 'string' ? Number(v) : Number.NaN;
      return v !== '' && Number.isFinite(n) ? String(n) : null;
    }
    default:
      return v == null ? '' : String(v);
  }
}

export function readField(post: WpPost, src: FieldSource | undefined): FieldValue {
  if (!src) return null;
  if ('post' in src) return readPostField(post, src.post);
  return decodeMeta(post.meta?.[src.meta], src.format, src.default);
}

type Fields<K extends ResourceKind> = Mapping[K]['fields'];

/** All mapped field values of a post, keyed by calendar field name. */
export function readRecord<K extends ResourceKind>(
  mapping: Mapping,
  kind: K,
  post: WpPost,
): Record<keyof Fields<K>, FieldValue> {
  const fields = mapping[kind].fields as Record<string, FieldSource | undefined>;
  const out: Record<string, FieldValue> = {};
  for (const [name, src] of Object.entries(fields)) out[name] = readField(post, src);
  return out as Record<keyof Fields<K>, FieldValue>;
}

/** The wp/v2 request body (post fields and `meta`) that stores the given calendar values. */
export function writeRecord(
  mapping: Mapping,
  kind: ResourceKind,
  values: Record<string, FieldValue | undefined>,
): Record<string, unknown> {
  const fields = mapping[kind].fields as Record<string, FieldSource | undefined>;
  const body: Record<string, unknown> = {};
  const meta: Record<string, MetaValue> = {};
  for (const [name, value] of Object.entries(values)) {
    const src = fields[name];
    if (!src || value === undefined) continue;
    if ('meta' in src) {
      meta[src.meta] = encodeMeta(value, src.format);
      continue;
    }
    switch (src.post) {
      case 'date':
      case 'date_gmt':
        body[src.post] = value ? toWpDate(String(value)) : null;
        break;
      case 'author':
      case 'featured_media':
      case 'parent':
        body[src.post] = Number(value) || 0;
        break;
      case 'menu_order':
        body[src.post] = typeof value === 'boolean' ? (value ? -1 : 0) : Number(value) || 0;
        break;
      default:
        body[src.post] = value == null ? '' : String(value);
    }
  }
  if (Object.keys(meta).length) body.meta = meta;
  return body;
}

/** The `_fields` list that asks wp/v2 for exactly what a resource's mapping reads. */
export function wpFieldsOf(mapping: Mapping, kind: ResourceKind, extra: string[] = []): string[] {
  const fields = mapping[kind].fields as Record<string, FieldSource | undefined>;
  const out = new Set<string>(['id', 'type', 'link', 'status', 'slug', 'modified_gmt', ...extra]);
  for (const src of Object.values(fields)) {
    if (!src) continue;
    out.add('post' in src ? src.post : `meta.${src.meta}`);
  }
  if (kind === 'event') {
    const { categories, tags } = mapping.event;
    if (categories) out.add(categories.restBase);
    if (tags) out.add(tags.restBase);
  }
  return [...out];
}

/**
 * Post fields a record is made of whatever the mapping names: src/serialize/common.ts reads them directly, and a
 * protected post is told by `content.protected` and `password` (src/serialize/common.ts `isProtected`).
 */
const RECORD_FIELDS = [
  'date',
  'date_gmt',
  'modified',
  'author',
  'featured_media',
  'password',
  'title',
  'content',
  'excerpt',
];
const recordFields = new WeakMap<object, string>();

/**
 * `_fields` for the posts a list page or a feed makes records of: what the mapping and the serializer read. WordPress
 * then neither sends nor builds `_links` (rest_is_field_included), a third of a post's bytes and two fifths of the
 * objects and strings its JSON parses into (100 events of the demo calendar: 226 KB, 7115 objects and strings,
 * against 150 KB and 4301).
 */
export function recordFieldsOf(mapping: Mapping, kind: ResourceKind): string {
  const key = mapping[kind];
  let fields = recordFields.get(key);
  if (fields === undefined) {
    fields = wpFieldsOf(mapping, kind, RECORD_FIELDS).join(',');
    recordFields.set(key, fields);
  }
  return fields;
}
